# Отговори за настройките, записите и повторенията, и бележки към други отговори.

settings-heading = Настройки на { $community }:
setting-line = { $setting }: { $meaning }
settings-footer = Модераторите ги променят с /config ключ=стойност ...
settings-changed = { $person } промени: { $keys }.
config-games = игрите, които може да се играят (списък или `all`)
config-stake = залогът на покана, която не посочва такъв
config-max-stake = най-големият залог
config-grant = с колко започва нов портфейл
config-time = времето за ход на покана, която не посочва такова (например 3d, 12h)
config-max-time = най-дългото време за ход
config-reminders = напомняне на играчите, когато половината им време е минало (on/off)
config-pings = дали играчите могат да избират с /notify лично известие, когато са на ход (on/off)
config-staked-games = кой може да започва партии със залог (everyone/moderators)
config-vacation = дни отпуск на човек на месец
config-language = езикът на това, което вижда целият чат ({ $languages }; none — английски)
config-open-wait = колко дълго отворената покана чака желаещи (например 1d, 12h); покана към посочени хора чака колкото времето ѝ за ход, но поне денонощие
config-leaderboard-games = колко рейтингови партии в дадена игра през месеците по-долу са нужни на играч с установен рейтинг, за да влезе в класацията ѝ
config-leaderboard-months = за колко последни месеца се броят тези рейтингови партии

export-record = Записът на партия { $game } ({ $name }): { $actions } { $actions ->
    [one] действие
   *[other] действия
}. { $check }
export-seed-later = Семето се разкрива, когато партията свърши; тогава я изнесете отново и `tabula verify` ще провери всяко хвърляне.
export-verify = `tabula verify` върху този файл проверява всеки ход и всяко хвърляне.
export-unchecked = Заровете на тази партия са хвърлени преди хвърлянията да се заверяват, затова не могат да се проверят.
export-no-dice = `tabula verify` върху този файл проверява всеки ход.
replay-posted = Партия { $game } ({ $name }) от началото: { $actions } { $actions ->
    [one] действие
   *[other] действия
}.
replay-title = Партия { $game }: { $name }

more-buttons = (още варианти без бутони: { $count }; напишете командата.)
moves-of-piece = Партия { $game }: ходове на { $piece }. Изберете:
challenge-expired = Поканата { $challenge } ({ $name }) от { $person } изтече: никой не я прие навреме. /play прави нова.

## tabula local: думите на самия терминал
local-not-utf8 = ред { $line } не е текст в UTF-8; нищо не е направено
local-line-form = пишете редовете така: `<име>: <команда>` или `<име>: #<бутон>`
local-user-name = потребителското име е една дума, например `alice: /help`
local-no-button = на последното съобщение няма бутон { $number } (там има { $buttons })
local-pressed = { $user } натиска [{ $label }]
local-only-sees = това вижда само { $user }
local-pressed-now = натиснатото съобщение сега гласи
local-wait-how-long = напишете колко да се чака, например `/wait 36h` или `/wait 2d` (само в локална сесия)
local-clock-fixed = часовникът на тази сесия не може да се мести
local-waited = часовникът върви напред с { $time }
local-picture = картинка: { $path }
local-picture-not-saved = картинката не е запазена: подайте --images DIR
local-file = файл: { $path }
already-joined = Вече сте се включили в покана { $challenge }; играта започва, когато се запълни, или когато поканилият натисне „Започни“.
link-code = Вашият код: `{ $code }`. В следващите { $minutes } минути ми изпратете `/link { $code }` в { $platform }, в личния си чат с мен. Кодът е еднократен.
link-done = Профилите са свързани: в { $platform } вие сте { $name }. Отсега /mygames и ежедневният обзор показват партиите ви и в двете платформи, а настройките от /notify важат и в двете. /unlink премахва връзката.
unlink-done = Връзката с { $name } в { $platform } е премахната: всеки профил запазва своите партии и настройки.
config-threads = отделна нишка (Discord) или тема (Telegram) за всяка нова партия, с по един ред тук при началото и края ѝ (on/off)
config-pages = уебстраница за всяка партия с връзка под дъската, когато ботът има публичен адрес (on/off)
