# Ответы о настройках, записях и повторах, и примечания к другим ответам.

settings-heading = Настройки { $community }:
setting-line = { $setting }: { $meaning }
settings-footer = Модераторы меняют их командой /config ключ=значение ...
settings-changed = { $person } меняет настройки: { $keys }.
config-games = игры, в которые можно играть (список или `all`)
config-stake = ставка вызова, в котором она не названа
config-max-stake = наибольшая ставка
config-grant = сколько монет получает новый кошелёк
config-time = время на ход вызова, в котором оно не названо (например 3d, 12h)
config-max-time = наибольшее время на ход
config-reminders = напоминать игрокам, когда прошла половина их времени (on/off)
config-pings = разрешить игрокам выбирать в /notify оповещения о своём ходе в личных сообщениях (on/off)
config-staked-games = кто может начинать партии на ставки (everyone/moderators)
config-vacation = число дней отпуска на человека в месяц
config-language = язык того, что видит весь чат ({ $languages }; none — английский)
config-open-wait = сколько открытый вызов ждёт желающих (например 1d, 12h); вызов, адресованный конкретным людям, ждёт в течение своего времени на ход, но не меньше суток
config-leaderboard-games = сколько рейтинговых партий в игре за указанные ниже месяцы нужно игроку с устоявшимся рейтингом, чтобы попасть в её таблицу лидеров
config-leaderboard-months = за сколько последних месяцев учитываются эти рейтинговые партии

export-record = Запись партии { $game } ({ $name }): { $actions } { $actions ->
    [one] действие
    [few] действия
   *[other] действий
}. { $check }
export-seed-later = Зерно откроется, когда партия кончится; тогда выгрузите её снова, и `tabula verify` проверит каждый бросок.
export-verify = `tabula verify` по этому файлу проверит каждый ход и каждый бросок.
export-unchecked = Кости этой партии бросались до того, как броски стали заверяться, поэтому их проверить нельзя.
export-no-dice = `tabula verify` по этому файлу проверит каждый ход.
replay-posted = Партия { $game } ({ $name }) с начала: { $actions } { $actions ->
    [one] действие
    [few] действия
   *[other] действий
}.
replay-title = Партия { $game }: { $name }

more-buttons = (ещё вариантов без кнопок: { $count } — наберите команду.)
moves-of-piece = Партия { $game }: ходы { $piece }. Выберите:
challenge-expired = Вызов { $challenge } ({ $name }) от { $person } истёк: никто не принял его вовремя. /play создаст новый.

## tabula local: слова самого терминала
local-not-utf8 = строка { $line } — не текст в UTF-8; ничего не сделано
local-line-form = пишите строки так: `<имя>: <команда>` или `<имя>: #<кнопка>`
local-user-name = имя пользователя — одно слово, например `alice: /help`
local-no-button = на последнем сообщении нет кнопки { $number } (их там { $buttons })
local-pressed = { $user } нажимает [{ $label }]
local-only-sees = это видит только { $user }
local-pressed-now = нажатое сообщение теперь такое
local-wait-how-long = напишите, сколько ждать, например `/wait 36h` или `/wait 2d` (только в локальной сессии)
local-clock-fixed = часы этой сессии нельзя перевести
local-waited = часы идут вперёд на { $time }
local-picture = картинка: { $path }
local-picture-not-saved = картинка не сохранена: укажите --images DIR
local-file = файл: { $path }
already-joined = Вы уже присоединились к вызову { $challenge }; партия начнётся, когда все места займут или когда автор вызова нажмёт «Начать».
link-code = Ваш код: `{ $code }`. В течение { $minutes } минут отправьте мне `/link { $code }` в { $platform }, в личном чате со мной. Код действует один раз.
link-done = Аккаунты связаны: в { $platform } вы — { $name }. Теперь /mygames и ежедневная сводка показывают ваши партии на обеих платформах, а настройки /notify действуют на обеих. /unlink разрывает связь.
unlink-done = Связь с аккаунтом { $name } в { $platform } разорвана: у каждого аккаунта остаются свои партии и настройки.
config-threads = открывать для каждой новой партии отдельную ветку (Discord) или тему (Telegram), а здесь писать по строке о её начале и конце (on/off)
