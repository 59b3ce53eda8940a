# What the bot answers when a person did something it cannot do. Every answer says what to do
# instead. Variables: $game and $challenge are numbers of the chat's games and challenges
# (written #n), $name a person's name, $command a command as typed.

sorry = Sorry: { $text }

unknown-command = I do not know `{ $command }`. Send /help for the list of commands.
not-a-command = commands start with `/`; send /help for the list.
usage = usage: { $usage }.
bad-arguments = { $error }; usage: { $usage }.
parse-missing = `{ $option }` is missing
parse-unknown-game = there is no game `{ $name }`; the games are konane, koan, kolowis, coan-ki and pachisi
parse-repeated = `{ $option }` is given more than once
parse-bad-mention = `{ $value }` is not a mention; name people as @name
parse-too-many-users = name at most { $max } people
parse-not-a-number = `{ $option }` must be a whole number, not `{ $value }`
parse-out-of-range = `{ $option }` must be from { $min } to { $max }, not { $value }
parse-bad-duration = `{ $option }` must be a time from 1 hour to 365 days, e.g. 3d or 12h, not `{ $value }`
parse-not-yes-or-no = `{ $option }` must be yes or no, not `{ $value }`
parse-bad-game-number = `{ $value }` is not a game number; write it like #3
parse-not-key-value = write it as key=value, not `{ $value }`
parse-too-many-values = at most { $max } { $option ->
    [options] options
   *[settings] settings
} at once
parse-too-long = `{ $option }` is too long: at most { $max } characters
parse-unknown-topic = there is no command `/{ $value }`
parse-unexpected = `{ $value }` is not understood here
unknown-game = there is no game `{ $name }`; the games are konane, koan, kolowis, coan-ki and pachisi.
wrong-players = { $game } is played by { $allowed }; you named { $named } (yourself included).
unknown-person = I do not know @{ $name } yet: they must write here first.
computer-stake = a game against the computer cannot be staked: leave out stake= (coins are won and lost between people only).
computer-and-people = { $game } against the computer is for you alone: `{ $command }`, or challenge a person without `computer`.
computer-no-seat = { $game } has { $seats } seats and you named people for all of them: leave out `computer`, or name fewer people and the computer takes the other seats.
not-challenger-fill = only the challenger may fill the empty seats of challenge { $challenge } with the computer; /accept { $challenge } joins it.
repeated-player = name each other player once, and not yourself.
no-game = there is no active game in this chat; start one with /play <game>.
which-game = there are several games here ({ $games }); add the number, e.g. `{ $example }`.
no-such-game = there is no active game { $game } in this chat; /games lists them.
game-over = game { $game } is over.
replay-too-large = the replay of game { $game } would be { $megabytes } MB, more than a chat takes ({ $limit } MB); /export { $game } gives its record, and `tabula rules replay` makes the animation from it.
not-a-player = you are not playing in game { $game }; anyone may look with /board { $game }.
draw-offered-already = you already offered a draw in game { $game }; it stands until you move again.
draw-lapsed = that draw offer in game { $game } no longer stands: its maker has moved since, or it was answered. /draw { $game } offers one.
draw-own = that is your own draw offer in game { $game }; your opponent answers it.
draw-two-players = draws are agreed only in two-player games; game { $game } is played by teams: play on, or /resign { $game }.
draw-computer = the computer does not agree to draws: play game { $game } on, or /resign { $game }.
takeback-nothing = you have no move to take back in game { $game }: only your own last move can be, before anyone else acts, and never a roll.
takeback-already = you already asked to take back your move in game { $game }; your opponent answers it.
takeback-lapsed = that takeback request in game { $game } no longer stands: a move was made since, or it was answered.
takeback-own = that takeback request in game { $game } is your side's; the other side answers it.
takeback-computer = the computer does not give takebacks: in game { $game } play on, or /resign { $game }.
not-your-turn = it is not your turn in game { $game }: { $name } ({ $seat }) is to move.
no-move-now = nobody can move in game { $game } now.
illegal = { $reason }
no-challenge = there is no challenge waiting for you here; start one with /play <game>.
which-challenge = several challenges are waiting ({ $challenges }); add the number, e.g. `{ $example }`.
not-invited = challenge { $challenge } is not addressed to you.
decline-open = challenge { $challenge } is open to anyone: there is nothing to decline (it expires by itself).
not-challenger = only the challenger may cancel challenge { $challenge }.
nobody-joined = nobody has joined challenge { $challenge } yet; it starts once someone has.
not-challenger-start = only the challenger may start challenge { $challenge } early; /accept { $challenge } joins it.
own-challenge = you cannot accept your own challenge { $challenge }; /cancel withdraws it.
same-challenge = the same challenge is already waiting: challenge { $challenge }. /cancel { $challenge } first to change it.
no-rolling = the bot rolls the dice for you; type or press a move instead.
bad-button = this button is not understood; send /board for a fresh board.
no-such-choice = that choice is no longer offered; send /board for a fresh board.
game-disabled = { $game } is switched off here by the moderators; the games here: { $enabled }.
bad-stake = the stake must be a whole number of coins from 0 to { $max } here, e.g. stake={ $example }.
coan-ki-stake = in Coan Ki the stake must be a multiple of 10, so that the fine for a double one (10% of the stake) is whole.
stakes-off = stakes are off here: the moderators set max_stake=0; play without stake=.
staked-by-moderators = only moderators may start staked games here; play with stake=0.
in-debt = you have { $balance }: no staked games until your balance is above zero again (play with stake=0).
too-poor = you have { $balance } and cannot stake { $stake }; /wallet shows your balance.
cannot-afford = { $name } has { $balance } and cannot stake { $stake }, so the game does not start; challenge { $challenge } stays open.
bad-time = the time per move must be from 1 hour to { $max } here, e.g. time=3d or time=12h.
not-moderator = only moderators of this server or group may { $action }.
no-rating-to-reset = { $person } has no { $name } rating here to reset.
season-none = there is no season here yet; a moderator opens one with /season konane days=30 size=8.
season-running = season { $season } is already open or running here; /season shows it.
season-two-players = seasons are played in two-player games, not { $name }.
season-not-open = season { $season } no longer takes players; /season shows it.
season-joined = you are in season { $season } already.
season-full = season { $season } is full.
season-too-few = season { $season } begins with 3 players at least; { $count } joined so far.
bad-setting = { $reason }
bad-amount = the amount must be a whole number of coins from 1 to { $max }.
take-too-much = { $name } has only { $balance }; take at most that.
no-clock = no clock is running in game { $game }, so there is nothing to claim.
own-turn = it is your side's turn in game { $game }: move instead of claiming.
too-early = { $name } still has { $left } in game { $game } (until { $until } UTC); you may claim the win after that.
not-due-any-more = the clock of game { $game } was paused meanwhile; /board shows the time left.
already-moved = game { $game } has begun: players may abort a game only before the first roll or move; /resign gives it up, and a moderator can abort it.
vacation-off = vacations are switched off here by the moderators.
bad-vacation = take from 1 to { $quota } vacation days, e.g. /vacation 2.
vacation-quota = you have taken { $used } of { $quota } vacation days this month; take at most the rest.

board-old = This board is old: game { $game } has moved on, and { $name } is to move. The newest board is further down.
board-old-moved = This board is old: game { $game } has moved on; its newest board is further down.
cooling-down = Too many refused commands in a row: please wait a couple of minutes.
already-handled = This was done already; the chat shows its result.
unavailable = The bot cannot reach its database; try again in a minute.
internal = Something went wrong inside the bot; it was logged. Try again in a moment.

# A number of coins, said with its word.
coins = { $n ->
    [one] { $n } coin
   *[other] { $n } coins
}

unknown-language = there is no language `{ $given }`; the languages are { $known }.
setting-what-stake = the default stake
setting-what-max-stake = the largest stake
setting-what-grant = the starting grant
setting-what-time = the default time per move
setting-what-max-time = the longest time per move
setting-what-open-wait = how long an open challenge waits
setting-money = { $what } must be a whole number of coins from 0 to { $max }, not `{ $value }`.
setting-time = { $what } must be between 1 hour and 365 days, e.g. 3d or 12h, not `{ $value }`.
setting-no-games = name at least one game, e.g. games=konane,koan, or games=all.
setting-reminders = reminders is on or off, not `{ $value }`.
setting-pings = pings is on or off, not `{ $value }`.
setting-staked-games = staked_games is everyone or moderators, not `{ $value }`.
setting-vacation = vacation is a number of days per month from 0 to { $max }, not `{ $value }`.
setting-count = { $key } is a whole number from { $min } to { $max }, not `{ $value }`.
setting-language = language is one of { $known }, or none (English), not `{ $value }`.
setting-unknown-key = there is no setting `{ $key }`; the keys: { $keys }.
setting-stake-above-max = the default stake ({ $stake }) is above the largest stake ({ $max }); change both at once, e.g. /config stake={ $example } max_stake={ $example }.
setting-time-above-max = the default time per move ({ $default }) is longer than the longest ({ $longest }); change both at once, e.g. /config time={ $time } max_time={ $time }.
question-not-yours = only { $person } can answer this question.
partner-confirms = your partner { $partner } answers this proposal: wait for them, or press Keep playing.
question-lapsed = this question has lapsed (a minute passed, or a move was made); ask again with { $command }.

notify-unknown = there is no notification setting `{ $given }`; try `/notify lastcall on` or `/notify halftime off`.
notify-not-yours = these are someone else's settings; /notify shows yours.
notify-no-private = private messages are not available here; /notify chat keeps the mentions in the chat.
mygames-none = you have no game in progress; /play starts one.
notify-bad-quiet = write quiet hours as `/notify quiet 22:00-08:00 Europe/Sofia` (a time zone's IANA name, or UTC), or end them with `/notify quiet off`.
notify-unknown-zone = there is no time zone `{ $zone }`; use its IANA name, such as Europe/Sofia, or UTC.
notify-bad-digest = write the digest's time as `/notify digest 08:00 Europe/Sofia` (a time zone's IANA name, or UTC).
link-not-here = linking joins a Telegram account and a Discord account; it is not available here.
link-in-private = I show codes privately: send /link in your private chat with me.
link-bad-code = `{ $given }` is not a code: codes have six letters and digits. /link without a code gives you one.
link-unknown = that code is unknown or has expired; send /link on the other platform for a new one.
link-same-platform = this code was made here: type /link with it on { $platform }.
link-already = you are already linked with { $name } on { $platform }; /unlink undoes it.
link-they-are-linked = the account that made this code is already linked to another account.
unlink-not-linked = your account is not linked; /link links it with your account on the other platform.
setting-threads = threads is on or off, not `{ $value }`.
setting-pages = pages is on or off, not `{ $value }`.
setting-threads-here = threads=on needs a Discord server's channel, or a Telegram group with topics turned on (in the group's settings); this chat is neither.
