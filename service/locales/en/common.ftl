# Words used across the bot: the games, the seats and teams, buttons.

game-konane = Konane
game-koan = Koan
game-kolowis = Kolowis Awithlaknannai
game-coan-ki = Coan Ki
game-pachisi = Pachisi

seat-white = White
seat-black = Black
seat-south = South
seat-east = East
seat-north = North
seat-west = West
seat-unknown = ?
team-south-north = South and North
team-east-west = East and West

players-2 = 2 players
players-2-or-4 = 2 or 4 players

moderators-change-settings = change the settings
moderators-grant = grant coins
moderators-take = take coins
moderators-abort = abort games they do not play
moderators-reset-rating = reset ratings
button-join-season = Join
button-begin-season = Begin
moderators-seasons = open and begin seasons

button-join = Join
button-start = Start
button-cancel = Cancel
button-start-computers = Start with computers
button-accept = Accept
button-decline = Decline
button-earlier = Earlier

# The language's own name, in itself: `/language` says it.
language-name = English
language-shown = I speak { $name } ({ $code }) to you. /language <code> chooses another ({ $known }); /language auto follows your app's language.
language-set = From now on I speak { $name } ({ $code }) to you in what only you see; the chat sees the language its moderators chose.
language-auto = Your choice is forgotten: I follow your app's language, else the chat's; now { $name } ({ $code }).

# Lengths of time, to the minute.
duration-days = { $n ->
    [one] { $n } day
   *[other] { $n } days
}
duration-hours = { $n ->
    [one] { $n } hour
   *[other] { $n } hours
}
duration-minutes = { $n ->
    [one] { $n } minute
   *[other] { $n } minutes
}
duration-two = { $first } { $second }
duration-less-than-a-minute = less than a minute

# What a game is played for, and how fast ($stake 0: a friendly game).
terms = { $stake ->
    [0] friendly
   *[other] stake { $coins } each
}, { $time } per move
terms-sentence = { $stake ->
    [0] A friendly game
   *[other] Stake { $coins } each, in the pot until the game ends
}; { $time } per move
button-resign = Resign
button-abort = Abort the game
button-keep-playing = Keep playing
button-claim = Claim the win
button-replay = Replay
button-record = Record
button-rematch = Rematch
button-accept-draw = Accept the draw
button-decline-draw = Decline
button-accept-takeback = Accept the takeback
button-decline-takeback = Decline
button-all-moves = All moves

# Moves on buttons and in toasts, for Coan Ki and Pachisi (issue 37): $from is a cell or
# square (h2), $steps and $value numbers of steps.
move-piece = { $from } → { $steps }
move-same-piece = { $from } → { $first } and { $second }
move-two-pieces = { $first }, { $second }
move-remove = Remove { $cell }
move-pass = Pass
move-throw = Throw the cowries
move-skip = Pass without throwing
move-done = Give up the rest
move-enter = Enter a piece with { $value }
move-group = { $count } pieces { $from } → { $steps }
move-homeward = { $square } homeward

notify-shown = Your turn pings and reminders, in every chat: you are told it is your move { $place }; the reminder halfway through your time for a move: { $halftime }; a last call when a tenth of it is left: { $lastcall }.
notify-saved = Saved.
notify-on = on
notify-off = off
notify-halftime = Half-time reminder: { $state }.
notify-lastcall = Last call: { $state }.
notify-button-halftime-on = Turn on the half-time reminder
notify-button-halftime-off = Turn off the half-time reminder
notify-button-lastcall-on = Turn on the last call
notify-button-lastcall-off = Turn off the last call
notify-place-chat = in the game's chat (a mention on its board)
notify-place-private = in a private message (the board names you without a mention)
notify-place-both = in the game's chat and in a private message
notify-place = You are told it is your move { $place }.
notify-button-chat = Tell me in the chat
notify-button-private = Tell me privately
notify-button-both = Both
notify-unreachable = I could not write to you privately yet: open a private chat with me and start it (on Discord, allow direct messages from this server's members), and the pings come there.
notify-quiet = Quiet hours: { $from }–{ $to } ({ $zone }); nothing is sent privately then, and what comes due is sent when they end.
notify-quiet-none = No quiet hours.
notify-button-quiet-off = End quiet hours
notify-place-digest = only in a daily private digest (the board names you without a mention)
notify-digest = Your digest comes every day at { $at } ({ $zone }), when a game waits for your move.
notify-button-digest = Daily digest
