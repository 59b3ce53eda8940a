# Как рассказывается партия: чей ход и чем она кончилась. $game — номер партии (#3),
# $name — её название, $player и $people — упоминания игроков.

board-turn = Партия { $game } ({ $name }): { $player } ({ $seat }) { $task ->
    [thinking] думает.
    [remove] убирает из игры одну из своих фишек в пути (две единицы).
   *[move] ходит.
}
board-open-page = Открыть партию
board-rolling = Партия { $game } ({ $name }): бросаются кости.

result = Партия { $game } ({ $name }) окончена: { $verdict }
result-because = Партия { $game } ({ $name }) окончена: { $cause }, поэтому { $verdict }
verdict-winner = { $people } ({ $team }) { $count ->
    [one] побеждает.
   *[other] побеждают.
}
verdict-draw = ничья.
verdict-aborted = результата нет.
cause-resigned = { $people } ({ $team }) { $count ->
    [one] сдаётся
   *[other] сдаются
}
cause-time = { $people } ({ $team }) { $count ->
    [one] исчерпывает время на ход
   *[other] исчерпывают время на ход
}
cause-aborted = { $person } прерывает её
cause-aborted-because = { $person } прерывает её ({ $reason })
cause-stored = она { $result }
draw-offered = { $person } предлагает ничью в партии { $game } ({ $name }). { $opponent }: примите или отклоните предложение кнопками либо предложите ничью в ответ: /draw { $game }. Предложение действует, пока { $person } не сделает следующий ход.
draw-declined = { $person } отклоняет предложение ничьей от игрока { $maker } в партии { $game }; игра продолжается.
cause-draw-agreed = { $person } принимает предложение ничьей от игрока { $maker }
cause-agreed = игроки согласились на ничью
takeback-asked = { $person } просит отменить { $count ->
    [1] свой последний ход
   *[other] свои последние ходы ({ $count })
} в партии { $game } ({ $name }): { $moves }. { $opponent }: согласитесь или откажитесь кнопками. Просьба теряет силу, как только кто-нибудь сходит.
takeback-declined = { $person } отказывает игроку { $asker } в отмене хода в партии { $game }; игра продолжается.
takeback-done = { $person } соглашается: игрок { $asker } отменяет { $moves } в партии { $game } и снова ходит.
result-seed = Зерно костей теперь раскрыто: { $seed } (/export { $game } присылает запись; `tabula verify` проверяет каждый бросок).
result-side = { $people } ({ $team })
result-against = { $first } против { $rest }
result-played = { $sides }: { $moves } { $moves ->
    [one] ход
    [few] хода
    [many] ходов
   *[other] хода
}, продолжительность: { $length }.

computer-name = Компьютер
person = { $person }
person-rated = { $person } ({ $rating })
people-and = { $first } и { $rest }
someone = кто-то

# Вызовы. $challenger — упоминание, $options — набранные параметры ( (size=10)) или ничего,
# $terms — на что играют.
challenge-gathering = { $challenger } предлагает партию в { $name }{ $options } всем желающим (вызов { $challenge }), { $terms }. /accept — присоединиться: партия начнётся, когда наберётся { $seats ->
    [one] { $seats } игрок
    [few] { $seats } игрока
   *[other] { $seats } игроков
}, или раньше, когда { $challenger } нажмёт «Начать» («Начать с компьютером» отдаёт пустые места компьютеру).
challenge-open = { $challenger } предлагает партию в { $name }{ $options } всем желающим (вызов { $challenge }), { $terms }. /accept — принять.
challenge-named = { $challenger } вызывает { $people } на партию в { $name }{ $options }{ $beside } (вызов { $challenge }), { $terms }. /accept или /decline.
challenge-computer-beside = , остальные места занимает компьютер (уровень { $level })
challenge-until = Вызов ждёт ответа до { $until } UTC.
challenge-casual = Партия без рейтинга.
challenge-dice = Броски костей заданы заранее, ещё до того, как кто-либо примет вызов: отпечаток { $commitment }. Зерно покажут, когда партия закончится, и тогда /export подтвердит каждый бросок.
challenge-withdrawn = { $person } отзывает вызов { $challenge } ({ $name }).
challenge-declined = { $person } отклоняет вызов { $challenge } ({ $name }).
challenge-started = Вызов { $challenge } принят: ниже начинается партия { $game } ({ $name }), { $sides }.
game-begins = Партия { $game } в { $name } начинается. Места по жребию: { $seats }. { $terms }.
game-begins-computer = Компьютер играет на уровне { $level }.
game-begins-dice = Броски костей заданы заранее (отпечаток { $commitment }); после окончания партии /export { $game } подтвердит каждый бросок.
game-begins-casual = Без рейтинга.
seat-held = { $seat } { $person }
list-comma = { $first }, { $rest }
clauses-or = { $first } или { $rest }
verbatim = { $text }
challenge-accepted = { $person } { $again ->
    [yes] уже в числе принявших
   *[no] принимает
} вызов { $challenge } ({ $name }). Ещё должны принять: { $waiting }.
challenge-joined = { $person } { $again ->
    [yes] уже участвует в вызове
   *[no] присоединяется к вызову
} { $challenge } ({ $name }). Игроки: { $players } ({ $count } из { $seats }). Партия начнётся, когда мест не останется, или раньше, когда { $starter } нажмёт «Начать».
the-challenger = автор вызова

# Часы. $left и $time — промежутки времени, $until, $start, $since и $at — моменты.
clock-vacation = В отпуске: часы пойдут { $start } UTC, затем { $time } на ход.
clock-left = Осталось: { $left } (до { $until } UTC).
clock-out = Время вышло { $since } UTC: соперник может потребовать победу (/claim).
reminder = { $player }, напоминание: ваш ход в партии { $game } ({ $name }). Осталось: { $left }, до { $until } UTC.
last-call = { $player }, последнее напоминание: партия { $game } ({ $name }) ждёт вашего хода. Времени почти не осталось: { $left }, до { $until } UTC.
timed-out = У { $player } вышло время в партии { $game } ({ $name }) { $at } UTC. { $claimant } может выиграть командой /claim { $game }; ход, сделанный до этого, всё равно засчитывается.
either = { $first } или { $rest }
button-board = Доска { $game }

# Деньги в конце партии.
pot-taken = Ставка каждого: { $stake }; { $people } { $count ->
    [one] забирает банк: { $pot }.
   *[other] делят банк: { $pot }, по { $share } каждому.
}
stakes-returned = Ставки ({ $stake } с каждого) возвращены.
in-debt-now = У { $person } теперь { $balance }, и партии со ставкой недоступны, пока баланс снова не станет больше нуля.

# Отпуска.
vacation-status = { $person }: в этом месяце использовано { $used } из { $quota } { $quota ->
    [one] дня
   *[other] дней
} отпуска (UTC). В отпуске ваши часы стоят; /vacation <дни> — взять отпуск.
vacation-until = В отпуске до { $end } UTC.
vacation-taken = { $person } в отпуске с { $from } UTC до { $until } UTC: часы стоят { $time } ({ $days } из { $quota } { $quota ->
    [one] дня
   *[other] дней
} отпуска этого месяца).

# Кошельки.
wallet = У { $person } { $balance } в { $community }{ $staked ->
    [0] {""}
   *[other] , и ещё { $in-play } поставлено в идущих партиях
}.
wallet-in-debt = Партии со ставкой недоступны, пока баланс снова не станет больше нуля.
leaderboard = Самые богатые в { $community }:
leaderboard-empty = В { $community } ещё ни у кого нет кошелька; /wallet откроет ваш.
coins-granted = { $moderator } выдаёт { $amount } { $person }{ $reason }; баланс: { $balance }.
coins-taken = { $moderator } забирает { $amount } у { $person }{ $reason }; баланс: { $balance }.

# /games: партии, которые идут в чате.
games-here = Идущие здесь партии:
games-line = { $game } { $name }: { $sides }; { $turn }.
games-side = { $name } ({ $seats })
games-versus = { $first } против { $rest }
games-to-move = ходит { $who }
games-rolling = бросаются кости
games-over = окончена
games-unreadable = не читается
games-button-mine = { $game } { $name } против { $others }
games-button-team = { $game } { $name }: вы и { $partners } против { $others }
games-button = { $game } { $name }: { $others }

# Вопросы перед тем, чего не отменить (issue 37): $person спрашивает, $opponents — игроки
# другой стороны, $team — команда спрашивающего, $partner — партнёр, который подтверждает.
resign-question = { $person }, сдаться в партии { $game } ({ $name }) против { $opponents }? Победит другая сторона. Ответить можете только вы; вопрос снимается через минуту или после следующего хода.
resign-proposal = { $person } предлагает своей команде ({ $team }) сдать партию { $game } ({ $name }) против { $opponents }. { $partner }, вы согласны? Вопрос снимается через минуту или после следующего хода.
abort-question = { $person }, прервать партию { $game } ({ $name })? Никто не выиграет, ставки вернутся. Ответить можете только вы; вопрос снимается через минуту или после следующего хода.
question-withdrawn = { $person } продолжает партию { $game } ({ $name }).

# О какой партии команда, когда у человека их несколько: по кнопке на партию.
which-game-pick = Какая партия? Нажмите кнопку или добавьте её номер к { $command }, например: { $example }.
button-game = { $game } { $name }
ping-your-move = Ваш ход в партии { $game } ({ $name }) в чате «{ $chat }». Осталось: { $left }, до { $until } UTC.
ping-unreachable = { $person }, я не могу написать вам лично, поэтому о вашем ходе по-прежнему сообщаю здесь. Чтобы получать оповещения в личных сообщениях, откройте личный чат со мной (кнопка ниже) и нажмите «Запустить»; в Discord разрешите личные сообщения от участников этого сервера. Чтобы всё оставалось здесь, отправьте /notify chat.
button-open-game = Открыть партию
button-private-chat = Открыть личный чат
mygames-heading = Ваши идущие партии: { $count }; { $mine ->
    [0] сейчас ни в одной из них не ваш ход
   *[other] ваш ход — в { $mine } из них
}.
mygames-line = { $game } { $name } в чате «{ $chat }», { $against } — { $turn }.
mygames-your-move = ваш ход, осталось: { $left }
mygames-their-move = ходит { $who }, осталось: { $left }
mygames-against = против { $others }
mygames-against-with = вместе с { $partners }, против { $others }
mygames-button = { $game } { $name }
mygames-page = Страница { $page } из { $pages }.
button-next-page = Следующая страница
button-first-page = Первая страница
ping-several = Пока длились тихие часы, настал ваш ход { $count ->
    [one] в { $count } партии:
   *[other] в { $count } партиях:
}
ping-line = { $game } ({ $name }) в чате «{ $chat }». Осталось: { $left }, до { $until } UTC.
digest-heading = Ваша ежедневная сводка: { $count ->
    [one] { $count } партия ждёт вашего хода:
    [few] { $count } партии ждут вашего хода:
   *[other] { $count } партий ждут вашего хода:
}
thread-name = { $name } { $game }: { $first } против { $second }
thread-coming = Партия { $game } начинается: её доска появится в отдельной ветке.
thread-started = Партия { $game } в { $name } началась в отдельной ветке: { $seats }.
button-open-thread = Открыть ветку
thread-refused-not-forum = Партия { $game } идёт здесь: в этой группе выключены темы, поэтому отдельной темы у неё не будет (модератор может включить темы в настройках группы или отказаться от отдельных тем для партий командой /config threads=off).
thread-refused-manage-topics = Партия { $game } идёт здесь: я не могу открыть для неё тему, потому что мне нужно право администратора «Управление темами» в этой группе.
thread-refused-create-threads = Партия { $game } идёт здесь: я не могу открыть для неё ветку, потому что мне нужны права «Создавать публичные ветки» и «Отправлять сообщения в ветках» в этом канале.
said-in-chat = В чате «{ $chat }»:{" "}
topic-coming = Партия { $game } начинается: её доска появится в отдельной теме.
topic-started = Партия { $game } в { $name } началась в отдельной теме: { $seats }.
button-open-topic = Открыть тему
rematch-in-channel = Реванш предложен в чате «{ $chat }»: ветка этой партии закрыта.
rematch-in-group = Реванш предложен в чате «{ $chat }»: тема этой партии закрыта.
rating-line = { $person }: { $ratings }.
rating-entry = { $name } { $rating }{ $provisional ->
    [yes] ?
   *[no] {""}
} ({ $games ->
    [one] { $games } рейтинговая партия
    [few] { $games } рейтинговые партии
   *[other] { $games } рейтинговых партий
})
rating-list = { $first }, { $rest }
rating-none = У игрока { $person } здесь ещё нет рейтинга: он появится после рейтинговых партий, то есть сыгранных между людьми и закончившихся результатом.
rating-chart-title = { $person } · { $name }
rating-chart-subtitle = { $rating } после { $games ->
    [one] { $games } рейтинговой партии
   *[other] { $games } рейтинговых партий
}; полоса: рейтинг ± его отклонение
rating-changes = Рейтинги: { $changes }.
rating-change = { $person } { $rating } ({ $change })
leaderboard-rating = Лучшие по рейтингу в { $name } ({ $community }):
leaderboard-rating-line = { $rating }
leaderboard-rating-none = В { $community } пока никто не попал в таблицу лидеров по { $name }: нужен устоявшийся (уже не предварительный) рейтинг и не меньше { $games ->
    [one] { $games } рейтинговой партии
   *[other] { $games } рейтинговых партий
} в эту игру за { $months ->
    [1] последний месяц
    [one] последний { $months } месяц
    [few] последние { $months } месяца
   *[other] последние { $months } месяцев
}.
stats-header = { $person } в { $community }:
stats-game = { $name }: партий: { $games }, побед: { $wins }, поражений: { $losses }, ничьих: { $draws }
stats-streak = Текущая серия: { $result ->
    [win] { $count ->
        [1] { $count } победа
        [one] { $count } победа подряд
        [few] { $count } победы подряд
       *[other] { $count } побед подряд
    }
    [loss] { $count ->
        [1] { $count } поражение
        [one] { $count } поражение подряд
        [few] { $count } поражения подряд
       *[other] { $count } поражений подряд
    }
   *[draw] { $count ->
        [1] { $count } ничья
        [one] { $count } ничья подряд
        [few] { $count } ничьи подряд
       *[other] { $count } ничьих подряд
    }
}.
stats-against = { $person } против { $other }: партий: { $games }, побед: { $wins }, поражений: { $losses }, ничьих: { $draws }.
stats-none = У игрока { $person } здесь ещё нет законченных партий с людьми.
rating-reset = { $moderator } сбрасывает рейтинг игрока { $person } в { $name }{ $was ->
    [none] {""}
   *[other] {" "}(был { $was })
}: со следующей рейтинговой партии рейтинг отсчитывается заново с { $start }.
season-open = Сезон { $season } в { $name }: мест — { $size }, дней (с начала) — { $days }, время на ход — { $time }; каждая пара играет одну рейтинговую партию. Записывайтесь кнопкой: сезон начнётся, когда все места будут заняты или когда модератор нажмёт «Начать» (нужно не меньше { $min } игроков). { $count ->
    [0] Пока никто не записался.
   *[other] Записались ({ $count }): { $people }.
}
season-begun = Сезон { $season } в { $name } начался: партий — { $games }, по одной на каждую пару, до { $until } UTC. { $people }: открывайте свои партии командой /board с их номером; /season показывает таблицу.
season-pairing = { $game } { $first } – { $second }
season-standings = Сезон { $season } в { $name } ({ $state }):
season-state-running = { $left ->
    [0] все партии сыграны
   *[other] ещё не завершено партий: { $left }
}, до { $until } UTC
season-state-over = окончен
season-winner = Победитель — { $person }.
season-line = очков: { $points } (сыграно: { $played }; побед: { $wins }, ничьих: { $draws }, поражений: { $losses }; Бергер: { $sb })
season-table-title = Сезон { $season } · { $name }
season-table-header = # | Игрок | Сыграно | Победы | Ничьи | Поражения | Очки | Бергер
decimal = { $whole }{ $fraction ->
    [none] {""}
   *[other] ,{ $fraction }
}
