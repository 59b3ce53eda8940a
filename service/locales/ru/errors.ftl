# Что бот отвечает, когда человек сделал то, чего сделать нельзя. Каждый ответ говорит, что
# сделать вместо этого. $game и $challenge — номера партий и вызовов чата (пишутся #n),
# $name — имя человека, $command — команда, как её набирают.

sorry = Не получилось: { $text }

unknown-command = Я не знаю команды `{ $command }`. Отправьте /help, чтобы увидеть список команд.
not-a-command = команды начинаются с `/`; список — /help.
usage = как писать: { $usage }.
bad-arguments = { $error }; как писать: { $usage }.
parse-missing = не хватает `{ $option }`
parse-unknown-game = игры `{ $name }` нет; игры: konane, koan, kolowis, coan-ki и pachisi
parse-repeated = `{ $option }` встречается больше одного раза
parse-bad-mention = `{ $value }` — не упоминание; называйте людей так: @имя
parse-too-many-users = назовите не больше { $max } { $max ->
    [one] человека
   *[other] человек
}
parse-not-a-number = `{ $option }`: нужно целое число, а не `{ $value }`
parse-out-of-range = `{ $option }`: нужно число от { $min } до { $max }, а не { $value }
parse-bad-duration = `{ $option }`: нужно время от 1 часа до 365 дней, например 3d или 12h, а не `{ $value }`
parse-not-yes-or-no = `{ $option }`: нужно yes или no, а не `{ $value }`
parse-bad-game-number = `{ $value }` — не номер партии; пишите так: #3
parse-not-key-value = пишите ключ=значение, а не `{ $value }`
parse-too-many-values = не больше { $max } { $option ->
    [options] параметров
   *[settings] настроек
} за раз
parse-too-long = `{ $option }`: слишком длинно, не больше { $max } { $max ->
    [one] символа
   *[other] символов
}
parse-unknown-topic = команды `/{ $value }` нет
parse-unexpected = `{ $value }` здесь непонятно
unknown-game = игры `{ $name }` нет; игры: konane, koan, kolowis, coan-ki и pachisi.
wrong-players = в { $game } играют { $allowed }; вы назвали { $named } (считая себя).
unknown-person = я ещё не знаю @{ $name }: пусть сначала напишет здесь.
computer-stake = на партию с компьютером нельзя ставить: уберите stake= (монеты выигрывают и проигрывают только люди).
computer-and-people = { $game } с компьютером — только для вас: `{ $command }`, или вызовите человека без `computer`.
computer-no-seat = в { $game } { $seats ->
    [one] { $seats } место
    [few] { $seats } места
   *[other] { $seats } мест
}, и вы назвали людей на все: уберите `computer` или назовите меньше людей, и компьютер займёт остальные места.
not-challenger-fill = только автор вызова { $challenge } может отдать пустые места компьютеру; /accept { $challenge } — присоединиться.
repeated-player = назовите каждого другого игрока один раз и не называйте себя.
no-game = в этом чате нет идущей партии; начните её командой /play <игра>.
which-game = здесь идут несколько партий ({ $games }); добавьте номер, например `{ $example }`.
no-such-game = в этом чате нет идущей партии { $game }; список — /games.
game-over = партия { $game } окончена.
replay-too-large = повтор партии { $game } занял бы { $megabytes } МБ, больше, чем принимает чат ({ $limit } МБ); /export { $game } присылает запись партии, а `tabula rules replay` делает из неё анимацию.
not-a-player = вы не играете в партии { $game }; посмотреть может любой: /board { $game }.
draw-offered-already = вы уже предложили ничью в партии { $game }; предложение действует, пока вы не сделаете следующий ход.
draw-lapsed = это предложение ничьей в партии { $game } больше не действует: предложивший уже сделал ход или на предложение уже ответили. /draw { $game } предлагает ничью.
draw-own = это ваше собственное предложение ничьей в партии { $game }; ответить на него должен соперник.
draw-two-players = договориться о ничьей можно только в партии на двоих, а партию { $game } играют команды: продолжайте игру или /resign { $game }.
draw-computer = компьютер не соглашается на ничью: продолжайте партию { $game } или /resign { $game }.
takeback-nothing = в партии { $game } вам нечего отменять: отменить можно только свой последний ход, пока никто другой не сходил, и никогда — бросок.
takeback-already = вы уже попросили отменить ход в партии { $game }; ответить должен соперник.
takeback-lapsed = эта просьба об отмене хода в партии { $game } больше не действует: с тех пор был сделан ход или на неё уже ответили.
takeback-own = эта просьба об отмене хода в партии { $game } — от вашей стороны; ответить должна другая сторона.
takeback-computer = компьютер не разрешает отменять ходы: продолжайте партию { $game } или /resign { $game }.
not-your-turn = в партии { $game } ход не ваш: ходит { $name } ({ $seat }).
no-move-now = в партии { $game } сейчас никто не может ходить.
illegal = { $reason }
no-challenge = здесь нет вызова, который ждёт вас; начните партию командой /play <игра>.
which-challenge = ждут несколько вызовов ({ $challenges }); добавьте номер, например `{ $example }`.
not-invited = вызов { $challenge } адресован не вам.
decline-open = вызов { $challenge } открыт для всех: отклонять нечего (он истечёт сам).
not-challenger = отменить вызов { $challenge } может только его автор.
nobody-joined = к вызову { $challenge } ещё никто не присоединился; он начнётся, когда кто-нибудь присоединится.
not-challenger-start = начать вызов { $challenge } досрочно может только его автор; /accept { $challenge } — присоединиться.
own-challenge = нельзя принять собственный вызов { $challenge }; /cancel отменяет его.
same-challenge = такой же вызов уже ждёт: вызов { $challenge }. Чтобы изменить его, сначала /cancel { $challenge }.
no-rolling = кости за вас бросает бот; наберите или нажмите ход.
bad-button = эта кнопка непонятна; отправьте /board, чтобы получить свежую доску.
no-such-choice = этот вариант больше не предлагается; отправьте /board, чтобы получить свежую доску.
game-disabled = игра { $game } здесь отключена модераторами; здесь доступны: { $enabled }.
bad-stake = ставка здесь — целое число монет от 0 до { $max }, например stake={ $example }.
coan-ki-stake = в Коан Ки ставка должна быть кратна 10, чтобы штраф за две единицы (10% ставки) был целым.
stakes-off = ставки здесь отключены: модераторы задали max_stake=0; играйте без stake=.
staked-by-moderators = партии со ставкой здесь начинают только модераторы; играйте с stake=0.
in-debt = у вас { $balance }: партии со ставкой недоступны, пока баланс снова не станет больше нуля (играйте с stake=0).
too-poor = у вас { $balance }, и поставить { $stake } нельзя; баланс — /wallet.
cannot-afford = у игрока { $name } { $balance }, а ставка — { $stake }, поэтому партия не начинается; вызов { $challenge } остаётся открытым.
bad-time = время на ход здесь — от 1 часа до { $max }, например time=3d или time=12h.
not-moderator = только модераторы этого сервера или группы могут { $action }.
no-rating-to-reset = у игрока { $person } здесь нет рейтинга в { $name }, сбрасывать нечего.
season-none = здесь ещё нет сезона; модератор может открыть его командой /season konane days=30 size=8.
season-running = сезон { $season } здесь уже открыт или идёт; /season его показывает.
season-two-players = сезоны играют в играх для двоих, а не в { $name }.
season-not-open = сезон { $season } больше не принимает игроков; /season его показывает.
season-joined = вы уже записаны в сезон { $season }.
season-full = в сезоне { $season } нет свободных мест.
season-too-few = для начала сезона { $season } нужно не меньше 3 игроков; пока записались: { $count }.
bad-setting = { $reason }
bad-amount = сумма — целое число монет от 1 до { $max }.
take-too-much = у пользователя { $name } только { $balance }; забрать можно не больше этой суммы.
no-clock = в партии { $game } часы не идут, поэтому требовать нечего.
own-turn = в партии { $game } ход вашей стороны: ходите, а не требуйте победы.
too-early = у игрока { $name } в партии { $game } ещё есть время: { $left } (до { $until } UTC); потребовать победу можно после этого.
not-due-any-more = часы партии { $game } тем временем остановили; оставшееся время показывает /board.
already-moved = партия { $game } уже началась: игроки могут прервать партию только до первого броска или хода; /resign — сдаться, а прервать её может модератор.
vacation-off = отпуска здесь отключены модераторами.
bad-vacation = возьмите от 1 до { $quota } { $quota ->
    [one] дня
   *[other] дней
} отпуска, например /vacation 2.
vacation-quota = в этом месяце вы взяли { $used } из { $quota } { $quota ->
    [one] дня
   *[other] дней
} отпуска; возьмите не больше оставшихся.

board-old = Эта доска устарела: партия { $game } продолжилась, сейчас ходит { $name }. Свежая доска — ниже.
board-old-moved = Эта доска устарела: партия { $game } продолжилась; свежая доска — ниже.
cooling-down = Слишком много отклонённых команд подряд — подождите, пожалуйста, пару минут.
already-handled = Это уже сделано; результат — в чате.
unavailable = Бот не может связаться со своей базой данных; попробуйте через минуту.
internal = Внутри бота что-то пошло не так; это записано в журнал. Попробуйте чуть позже.

# Число монет со словом.
coins = { $n ->
    [one] { $n } монета
    [few] { $n } монеты
    [many] { $n } монет
   *[other] { $n } монеты
}

unknown-language = языка `{ $given }` нет; языки: { $known }.
setting-what-stake = ставка по умолчанию
setting-what-max-stake = наибольшая ставка
setting-what-grant = начальная сумма
setting-what-time = время на ход по умолчанию
setting-what-max-time = наибольшее время на ход
setting-what-open-wait = срок ожидания открытого вызова
setting-money = { $what } — целое число монет от 0 до { $max }, а не `{ $value }`.
setting-time = { $what } — от 1 часа до 365 дней, например 3d или 12h, а не `{ $value }`.
setting-no-games = назовите хотя бы одну игру, например games=konane,koan или games=all.
setting-reminders = reminders — on или off, а не `{ $value }`.
setting-pings = pings — on или off, а не `{ $value }`.
setting-staked-games = staked_games — everyone или moderators, а не `{ $value }`.
setting-vacation = vacation — число дней в месяц от 0 до { $max }, а не `{ $value }`.
setting-count = { $key } — целое число от { $min } до { $max }, а не `{ $value }`.
setting-language = language — один из { $known } или none (английский), а не `{ $value }`.
setting-unknown-key = настройки `{ $key }` нет; настройки: { $keys }.
setting-stake-above-max = ставка по умолчанию ({ $stake }) больше наибольшей ({ $max }); измените обе сразу, например /config stake={ $example } max_stake={ $example }.
setting-time-above-max = время на ход по умолчанию ({ $default }) больше наибольшего ({ $longest }); измените оба сразу, например /config time={ $time } max_time={ $time }.
question-not-yours = ответить на этот вопрос может только { $person }.
partner-confirms = на это предложение отвечает ваш партнёр { $partner }: дождитесь ответа или нажмите «Играть дальше».
question-lapsed = вопрос снят (прошла минута или был сделан ход); отправьте { $command } ещё раз.

notify-unknown = настройки напоминаний `{ $given }` нет; попробуйте `/notify lastcall on` или `/notify halftime off`.
notify-not-yours = это чужие настройки; ваши покажет /notify.
notify-no-private = личные сообщения здесь недоступны; чтобы упоминания оставались в чате, выберите /notify chat.
mygames-none = у вас нет идущих партий; начать партию можно командой /play.
notify-bad-quiet = тихие часы задаются так: `/notify quiet 22:00-08:00 Europe/Sofia` (часовой пояс — название из базы IANA или UTC); отключить их — `/notify quiet off`.
notify-unknown-zone = часового пояса `{ $zone }` нет; укажите название из базы IANA, например Europe/Moscow, или UTC.
notify-bad-digest = время сводки задаётся так: `/notify digest 08:00 Europe/Sofia` (часовой пояс — название из базы IANA или UTC).
link-not-here = связать можно только аккаунт в Telegram с аккаунтом в Discord; здесь это недоступно.
link-in-private = коды я показываю только лично: отправьте /link в личном чате со мной.
link-bad-code = `{ $given }` — не код: код состоит из шести букв и цифр. /link без кода выдаст новый.
link-unknown = такого кода нет или срок его действия истёк; отправьте /link на другой платформе, чтобы получить новый.
link-same-platform = этот код выдан здесь: отправьте /link с ним в { $platform }.
link-already = ваш аккаунт уже связан с аккаунтом { $name } в { $platform }; /unlink разрывает связь.
link-they-are-linked = аккаунт, для которого выдан этот код, уже связан с другим.
unlink-not-linked = ваш аккаунт ни с чем не связан; /link свяжет его с вашим аккаунтом на другой платформе.
setting-threads = threads — on или off, а не `{ $value }`.
setting-pages = pages — on или off, а не `{ $value }`.
setting-threads-here = для threads=on нужен канал на сервере Discord или группа Telegram с включёнными темами (в настройках группы); этот чат — ни то ни другое.
