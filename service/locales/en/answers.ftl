# Answers about settings, records and replays, and notes added to other answers.

settings-heading = Settings of { $community }:
setting-line = { $setting }: { $meaning }
settings-footer = Moderators change them with /config key=value ...
settings-changed = { $person } changed { $keys }.
config-games = games that may be played (a list, or `all`)
config-stake = the stake of a challenge that names none
config-max-stake = the largest stake
config-grant = what a new wallet starts with
config-time = the time per move of a challenge that names none (e.g. 3d, 12h)
config-max-time = the longest time per move
config-reminders = remind players when half their time has passed (on/off)
config-pings = let people ask to be told privately that it is their move, with /notify (on/off)
config-staked-games = who may start staked games (everyone/moderators)
config-vacation = vacation days per person per month
config-language = the language of what the whole chat sees ({ $languages }; none: English)
config-open-wait = how long an open challenge waits for people to accept (e.g. 1d, 12h); one naming people waits as long as its time per move, a day at least
config-leaderboard-games = how many rated games of a game, in the months below, put a person with a settled rating on its leaderboard
config-leaderboard-months = how many months back those rated games count

export-record = The record of game { $game } ({ $name }): { $actions ->
    [one] { $actions } action
   *[other] { $actions } actions
}. { $check }
export-seed-later = Its seed is revealed when the game ends; export it again then, and `tabula verify` checks every roll.
export-verify = `tabula verify` on this file checks every move and every roll.
export-unchecked = Its dice were rolled before committed dice, so its rolls cannot be checked.
export-no-dice = `tabula verify` on this file checks every move.
replay-posted = Game { $game } ({ $name }) from the start: { $actions ->
    [one] { $actions } action
   *[other] { $actions } actions
}.
replay-title = Game { $game }: { $name }

more-buttons = ({ $count } more not shown as buttons: type the command instead.)
moves-of-piece = Game { $game }: moves of { $piece }. Choose one:
challenge-expired = Challenge { $challenge } ({ $name }) by { $person } has expired: nobody took it in time. /play makes a new one.

## tabula local: the terminal's own words
local-not-utf8 = line { $line } is not valid UTF-8 text; nothing was done
local-line-form = write lines as `<user>: <command>` or `<user>: #<button>`
local-user-name = a user name is one word, e.g. `alice: /help`
local-no-button = there is no button { $number } on the last message (it has { $buttons })
local-pressed = { $user } pressed [{ $label }]
local-only-sees = only { $user } sees this
local-pressed-now = the pressed message now reads
local-wait-how-long = write how long to wait, e.g. `/wait 36h` or `/wait 2d` (local sessions only)
local-clock-fixed = this session's clock cannot be moved
local-waited = the clock moves on by { $time }
local-picture = picture: { $path }
local-picture-not-saved = picture not saved: pass --images DIR
local-file = file: { $path }
already-joined = You have joined challenge { $challenge } already; it starts when full, or when its challenger presses Start.
link-code = Your code: `{ $code }`. Within { $minutes } minutes, send `/link { $code }` to me on { $platform }, in your private chat with me. It works once.
link-done = Linked: you are also { $name } on { $platform }. /mygames and the daily digest now list your games on both platforms, and your /notify settings hold on both. /unlink undoes it.
unlink-done = Unlinked from { $name } on { $platform }: each account keeps its own games and settings.
config-threads = give each new game a thread (Discord) or topic (Telegram) of its own, with a line here when it starts and ends (on/off)
config-pages = a web page for every game, linked from its board, when the bot has a public address (on/off)
