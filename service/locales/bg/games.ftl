# Как се разказва партията: чий е ходът и как е свършила. $game е номерът на партията (#3),
# $name е името ѝ, $player и $people са споменавания на играчи.

board-turn = Партия { $game } ({ $name }): { $player } ({ $seat }) { $task ->
    [thinking] мисли.
    [remove] трябва да извади от играта една от пътуващите си фигури (две единици).
   *[move] е на ход.
}
board-open-page = Отвори партията
board-rolling = Партия { $game } ({ $name }): хвърлят се заровете.

result = Партия { $game } ({ $name }) приключи: { $verdict }
result-because = Партия { $game } ({ $name }) приключи: { $cause }, затова { $verdict }
verdict-winner = { $people } ({ $team }) { $count ->
    [one] печели.
   *[other] печелят.
}
verdict-draw = реми.
verdict-aborted = няма резултат.
cause-resigned = { $people } ({ $team }) { $count ->
    [one] се предаде
   *[other] се предадоха
}
cause-time = { $people } ({ $team }) { $count ->
    [one] изчерпа времето си
   *[other] изчерпаха времето си
}
cause-aborted = { $person } я прекрати
cause-aborted-because = { $person } я прекрати ({ $reason })
cause-stored = тя беше { $result }
draw-offered = { $person } предлага реми в партия { $game } ({ $name }). { $opponent }: приемете или откажете с бутоните, или предложете реми в отговор с /draw { $game }. Предложението важи, докато { $person } не направи следващия си ход.
draw-declined = { $person } отказа предложеното от { $maker } реми в партия { $game }; играта продължава.
cause-draw-agreed = { $person } прие предложеното от { $maker } реми
cause-agreed = играчите се съгласиха на реми
takeback-asked = { $person } моли да върне { $count ->
    [one] последния си ход
   *[other] последните си { $count } хода
} в партия { $game } ({ $name }): { $moves }. { $opponent }: приемете или откажете с бутоните. Молбата отпада, щом някой направи ход.
takeback-declined = { $person } отказа на { $asker } да върне хода си в партия { $game }; играта продължава.
takeback-done = { $person } прие: { $asker } връща { $moves } в партия { $game } и отново е на ход.
result-seed = Семето на заровете вече е разкрито: { $seed } (/export { $game } изпраща записа; `tabula verify` проверява всяко хвърляне).
result-side = { $people } ({ $team })
result-against = { $first } срещу { $rest }
result-played = { $sides }: { $moves ->
    [one] един ход
   *[other] { $moves } хода
} за { $length }.

computer-name = Компютър
person = { $person }
person-rated = { $person } ({ $rating })
people-and = { $first } и { $rest }
someone = някой

# Покани. $challenger е споменаване, $options са написаните настройки ( (size=10)) или нищо,
# $terms е за какво се играе.
challenge-gathering = { $challenger } предлага партия { $name }{ $options } на всички тук (покана { $challenge }), { $terms }. /accept, за да се включите: започва с { $seats } играчи или по-рано, когато { $challenger } натисне „Започни“ („Започни с компютъра“ дава празните места на компютъра).
challenge-open = { $challenger } предлага партия { $name }{ $options } на всички тук (покана { $challenge }), { $terms }. /accept, за да я приемете.
challenge-named = { $challenger } кани { $people } на партия { $name }{ $options }{ $beside } (покана { $challenge }), { $terms }. /accept или /decline.
challenge-computer-beside = , а компютърът (ниво { $level }) заема останалите места
challenge-until = Поканата чака отговор до { $until } UTC.
challenge-casual = Партия без рейтинг.
challenge-dice = Хвърлянията на заровете са определени предварително, преди някой да приеме: отпечатък { $commitment }. Семето ще бъде показано в края на партията и тогава /export ще докаже всяко хвърляне.
challenge-withdrawn = { $person } оттегли поканата { $challenge } ({ $name }).
challenge-declined = { $person } отказа поканата { $challenge } ({ $name }).
challenge-started = Поканата { $challenge } е приета: по-долу започва партия { $game } ({ $name }), { $sides }.
game-begins = Партия { $game } на { $name } започва. Места по жребий: { $seats }. { $terms }.
game-begins-computer = Компютърът играе на ниво { $level }.
game-begins-dice = Хвърлянията на заровете са определени предварително (отпечатък { $commitment }); след края на партията /export { $game } ще докаже всяко хвърляне.
game-begins-casual = Без рейтинг.
seat-held = { $seat } { $person }
list-comma = { $first }, { $rest }
clauses-or = { $first } или { $rest }
verbatim = { $text }
challenge-accepted = { $person } { $again ->
    [yes] вече прие
   *[no] прие
} поканата { $challenge } ({ $name }). Още трябва да приемат: { $waiting }.
challenge-joined = { $person } { $again ->
    [yes] вече се включи в
   *[no] се включи в
} поканата { $challenge } ({ $name }). Играчи: { $players } ({ $count } от { $seats }). Започва, когато се запълни, или по-рано, когато { $starter } натисне „Започни“.
the-challenger = авторът на поканата

# Часовници. $left и $time са отрязъци време, $until, $start, $since и $at са моменти.
clock-vacation = В отпуск: часовникът тръгва на { $start } UTC, после { $time } за ход.
clock-left = Оставащо време: { $left } (до { $until } UTC).
clock-out = Времето изтече на { $since } UTC: противникът може да поиска победата (/claim).
reminder = { $player }, напомняне: в партия { $game } ({ $name }) е ваш ред. Оставащо време: { $left }, до { $until } UTC.
last-call = { $player }, последно напомняне: партия { $game } ({ $name }) чака вашия ход. Остава съвсем малко време: { $left }, до { $until } UTC.
timed-out = Времето на { $player } в партия { $game } ({ $name }) изтече на { $at } UTC. { $claimant } може да спечели с /claim { $game }; ход, направен преди това, все пак се брои.
either = { $first } или { $rest }
button-board = Дъска { $game }

# Пари в края на партията.
pot-taken = Всеки заложи { $stake }: { $people } { $count ->
    [one] взима банката от { $pot }.
   *[other] си делят банката от { $pot }, по { $share } на всеки.
}
stakes-returned = Залозите ({ $stake } от всеки) се връщат.
in-debt-now = { $person } вече има { $balance } и не може да играе партии със залог, докато балансът не стане отново над нулата.

# Отпуски.
vacation-status = { $person }: този месец са използвани { $used } от { $quota } { $quota ->
    [one] ден
   *[other] дни
} отпуск (UTC). В отпуск часовниците ви стоят; /vacation <дни> взима отпуск.
vacation-until = В отпуск до { $end } UTC.
vacation-taken = { $person } е в отпуск от { $from } UTC до { $until } UTC: часовниците стоят { $time } ({ $days } от { $quota } { $quota ->
    [one] ден
   *[other] дни
} отпуск за този месец).

# Портфейли.
wallet = { $person } има { $balance } в { $community }{ $staked ->
    [0] {""}
   *[other] , и още { $in-play } заложени в текущи партии
}.
wallet-in-debt = Без партии със залог, докато балансът не стане отново над нулата.
leaderboard = Най-богатите в { $community }:
leaderboard-empty = В { $community } още никой няма портфейл; /wallet ще отвори вашия.
coins-granted = { $moderator } даде { $amount } на { $person }{ $reason }; сега { $person } има { $balance }.
coins-taken = { $moderator } взе { $amount } от { $person }{ $reason }; сега { $person } има { $balance }.

# /games: партиите, които се играят в чата.
games-here = Текущи партии тук:
games-line = { $game } { $name }: { $sides }; { $turn }.
games-side = { $name } ({ $seats })
games-versus = { $first } срещу { $rest }
games-to-move = на ход е { $who }
games-rolling = хвърлят се заровете
games-over = приключила
games-unreadable = не може да се прочете
games-button-mine = { $game } { $name } срещу { $others }
games-button-team = { $game } { $name } с { $partners } срещу { $others }
games-button = { $game } { $name }: { $others }

# Въпроси преди онова, което не може да се върне (issue 37): $person пита, $opponents са
# хората от другата страна, $team е отборът на питащия, $partner — партньорът, който потвърждава.
resign-question = { $person }, да се предадете ли в партия { $game } ({ $name }) срещу { $opponents }? Другата страна ще спечели. Само вие можете да отговорите; въпросът отпада след минута или при следващия ход.
resign-proposal = { $person } предлага отборът { $team } да се предаде в партия { $game } ({ $name }) срещу { $opponents }. { $partner }, приемате ли? Въпросът отпада след минута или при следващия ход.
abort-question = { $person }, да се прекрати ли партия { $game } ({ $name })? Никой няма да спечели, залозите ще се върнат. Само вие можете да отговорите; въпросът отпада след минута или при следващия ход.
question-withdrawn = { $person } продължава да играе партия { $game } ({ $name }).

# За коя партия е командата, когато човек има няколко: по бутон за всяка партия.
which-game-pick = Коя партия? Натиснете бутон или добавете номера ѝ към { $command }, например { $example }.
button-game = { $game } { $name }
ping-your-move = На ход сте в партия { $game } ({ $name }) в чата „{ $chat }“. Оставащо време: { $left }, до { $until } UTC.
ping-unreachable = { $person }, не мога да ви пиша лично, затова продължавам да ви казвам тук, че е ваш ред. За да получавате известия в лични съобщения, отворете личен чат с мен (бутонът по-долу) и стартирайте бота; в Discord разрешете лични съобщения от членовете на този сървър. С /notify chat всичко остава тук.
button-open-game = Отвори партията
button-private-chat = Отвори личен чат
mygames-heading = Текущите ви партии: { $count }; { $mine ->
    [0] в момента не сте на ход в нито една от тях
   *[other] в { $mine } от тях сте на ход
}.
mygames-line = { $game } { $name } в чата „{ $chat }“, { $against } — { $turn }.
mygames-your-move = на ход сте, остава: { $left }
mygames-their-move = на ход е { $who }, остава: { $left }
mygames-against = срещу { $others }
mygames-against-with = заедно с { $partners }, срещу { $others }
mygames-button = { $game } { $name }
mygames-page = Страница { $page } от { $pages }.
button-next-page = Следваща страница
button-first-page = Първа страница
ping-several = Докато траеха тихите часове, дойде вашият ред { $count ->
    [one] в една партия:
   *[other] в { $count } партии:
}
ping-line = { $game } ({ $name }) в чата „{ $chat }“. Оставащо време: { $left }, до { $until } UTC.
digest-heading = Вашият ежедневен обзор: { $count ->
    [one] една партия чака вашия ход:
   *[other] { $count } партии чакат вашия ход:
}
thread-name = { $name } { $game }: { $first } срещу { $second }
thread-coming = Партия { $game } започва: дъската ѝ ще се появи в отделна нишка.
thread-started = Партия { $game } на { $name } започна в отделна нишка: { $seats }.
button-open-thread = Отвори нишката
thread-refused-not-forum = Партия { $game } се играе тук: в тази група темите са изключени, затова тя няма да има отделна тема (модератор може да включи темите в настройките на групата или да се откаже от отделни теми за партиите с /config threads=off).
thread-refused-manage-topics = Партия { $game } се играе тук: не мога да ѝ отворя тема, защото ми трябва администраторското право „Управление на темите“ в тази група.
thread-refused-create-threads = Партия { $game } се играе тук: не мога да ѝ отворя нишка, защото ми трябват разрешенията „Създаване на публични нишки“ и „Изпращане на съобщения в нишки“ в този канал.
said-in-chat = В чата „{ $chat }“:{" "}
topic-coming = Партия { $game } започва: дъската ѝ ще се появи в отделна тема.
topic-started = Партия { $game } на { $name } започна в отделна тема: { $seats }.
button-open-topic = Отвори темата
rematch-in-channel = Реваншът е предложен в чата „{ $chat }“: нишката на тази партия е затворена.
rematch-in-group = Реваншът е предложен в чата „{ $chat }“: темата на тази партия е затворена.
rating-line = { $person }: { $ratings }.
rating-entry = { $name } { $rating }{ $provisional ->
    [yes] ?
   *[no] {""}
} ({ $games ->
    [one] { $games } рейтингова партия
   *[other] { $games } рейтингови партии
})
rating-list = { $first }, { $rest }
rating-none = { $person } все още няма рейтинг тук: рейтинг се получава след рейтингови партии, т.е. изиграни между хора и завършили с резултат.
rating-chart-title = { $person } · { $name }
rating-chart-subtitle = { $rating } след { $games ->
    [one] { $games } рейтингова партия
   *[other] { $games } рейтингови партии
}; лентата е рейтингът ± отклонението му
rating-changes = Рейтинги: { $changes }.
rating-change = { $person } { $rating } ({ $change })
leaderboard-rating = Най-високите рейтинги в { $name } ({ $community }):
leaderboard-rating-line = { $rating }
leaderboard-rating-none = В { $community } все още никой не влиза в класацията по { $name }: нужни са установен (вече не предварителен) рейтинг и поне { $games ->
    [one] { $games } рейтингова партия
   *[other] { $games } рейтингови партии
} в тази игра през { $months ->
    [one] последния месец
   *[other] последните { $months } месеца
}.
stats-header = { $person } в { $community }:
stats-game = { $name }: партии: { $games }, победи: { $wins }, загуби: { $losses }, ремита: { $draws }
stats-streak = Текуща серия: { $result ->
    [win] { $count ->
        [one] { $count } победа
       *[other] { $count } поредни победи
    }
    [loss] { $count ->
        [one] { $count } загуба
       *[other] { $count } поредни загуби
    }
   *[draw] { $count ->
        [one] { $count } реми
       *[other] { $count } поредни ремита
    }
}.
stats-against = { $person } срещу { $other }: партии: { $games }, победи: { $wins }, загуби: { $losses }, ремита: { $draws }.
stats-none = { $person } все още няма завършени партии с хора тук.
rating-reset = { $moderator } нулира рейтинга на { $person } в { $name }{ $was ->
    [none] {""}
   *[other] {" "}(беше { $was })
}: от следващата рейтингова партия рейтингът започва отново от { $start }.
season-open = Сезон { $season } в { $name }: места — { $size }, дни след началото — { $days }, време за ход — { $time }; всяка двойка играе по една рейтингова партия. Запишете се с бутона: сезонът започва, когато всички места са заети или когато модератор натисне „Започни“ (поне { $min } играчи). { $count ->
    [0] Още никой не се е записал.
   *[other] Записани ({ $count }): { $people }.
}
season-begun = Сезон { $season } в { $name } започна: партии — { $games }, по една за всяка двойка, до { $until } UTC. { $people }: отваряйте партиите си с /board и номера им; /season показва класирането.
season-pairing = { $game } { $first } – { $second }
season-standings = Сезон { $season } в { $name } ({ $state }):
season-state-running = { $left ->
    [0] всички партии са изиграни
   *[other] неприключили партии: { $left }
}, до { $until } UTC
season-state-over = приключил
season-winner = Победител е { $person }.
season-line = точки: { $points } (изиграни: { $played }; победи: { $wins }, ремита: { $draws }, загуби: { $losses }; Бергер: { $sb })
season-table-title = Сезон { $season } · { $name }
season-table-header = # | Играч | Изиграни | Победи | Ремита | Загуби | Точки | Бергер
decimal = { $whole }{ $fraction ->
    [none] {""}
   *[other] ,{ $fraction }
}
