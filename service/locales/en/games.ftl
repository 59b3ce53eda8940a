# How a game is told: whose turn it is, and how it ended. $game is the game's number (#3),
# $name its name, $player and $people mentions.

board-turn = Game { $game } ({ $name }): { $player } ({ $seat }) { $task ->
    [thinking] is thinking.
    [remove] must take one of their travelling pieces out of the game (a double one).
   *[move] to move.
}
board-open-page = Open the game
board-rolling = Game { $game } ({ $name }): the dice are being rolled.

result = Game { $game } ({ $name }) is over: { $verdict }
result-because = Game { $game } ({ $name }) is over: { $cause }, so { $verdict }
verdict-winner = { $people } ({ $team }) { $count ->
    [one] wins.
   *[other] win.
}
verdict-draw = it is a draw.
verdict-aborted = there is no result.
cause-resigned = { $people } ({ $team }) { $count ->
    [one] resigned
   *[other] resigned
}
cause-time = { $people } ({ $team }) { $count ->
    [one] ran out of time
   *[other] ran out of time
}
cause-aborted = { $person } aborted it
cause-aborted-because = { $person } aborted it ({ $reason })
cause-stored = it was { $result }
draw-offered = { $person } offers a draw in game { $game } ({ $name }). { $opponent }: accept or decline with the buttons, or offer one back with /draw { $game }. The offer stands until { $person } moves again.
draw-declined = { $person } declined the draw offered by { $maker } in game { $game }; play goes on.
cause-draw-agreed = { $person } accepted the draw offered by { $maker }
cause-agreed = the players agreed to a draw
takeback-asked = { $person } asks to take back { $count ->
    [one] their last move
   *[other] their last { $count } moves
} in game { $game } ({ $name }): { $moves }. { $opponent }: accept or decline with the buttons. The request lapses when anyone moves.
takeback-declined = { $person } declined the takeback asked by { $asker } in game { $game }; play goes on.
takeback-done = { $person } accepted: { $asker } takes back { $moves } in game { $game } and is to move again.
result-seed = The dice seed, now revealed: { $seed } (/export { $game } gives the record; `tabula verify` checks every roll).
# Who played a game that ended, and for how long: "@alice (White) against @bob (Black): 42
# moves in 3 days." $length is a length of time (duration-*).
result-side = { $people } ({ $team })
result-against = { $first } against { $rest }
result-played = { $sides }: { $moves ->
    [one] one move
   *[other] { $moves } moves
} in { $length }.

# The computer, where a player's name goes; with its level where a game begins.
computer-name = Computer
person = { $person }
person-rated = { $person } ({ $rating })
people-and = { $first } and { $rest }
someone = someone

# Challenges. $challenger is a mention, $options the options typed ( (size=10)) or nothing,
# $terms what the game is played for.
challenge-gathering = { $challenger } offers a game of { $name }{ $options } to anyone here (challenge { $challenge }), { $terms }. /accept to join: it starts with { $seats } players, or earlier when { $challenger } presses Start (Start with computers fills the empty seats with the computer).
challenge-open = { $challenger } offers a game of { $name }{ $options } to anyone here (challenge { $challenge }), { $terms }. /accept to take it.
challenge-named = { $challenger } challenges { $people } to { $name }{ $options }{ $beside } (challenge { $challenge }), { $terms }. /accept or /decline.
challenge-computer-beside = , the computer (level { $level }) taking the other seats
challenge-until = It waits for an answer until { $until } UTC.
challenge-casual = Casual: this game is not rated.
challenge-dice = The dice are fixed before anyone accepts: fingerprint { $commitment }. The seed is shown when the game ends, and /export then proves every roll.
challenge-withdrawn = { $person } withdrew challenge { $challenge } ({ $name }).
challenge-declined = { $person } declined challenge { $challenge } ({ $name }).
challenge-started = Challenge { $challenge } was accepted: game { $game } ({ $name }) begins below, { $sides }.
game-begins = Game { $game } of { $name } begins. Seats by lot: { $seats }. { $terms }.
game-begins-computer = The computer plays at level { $level }.
game-begins-dice = Dice fixed in advance (fingerprint { $commitment }); /export { $game } proves every roll once the game is over.
game-begins-casual = Casual: not rated.
seat-held = { $seat } { $person }
list-comma = { $first }, { $rest }
clauses-or = { $first } or { $rest }
verbatim = { $text }
challenge-accepted = { $person } { $again ->
    [yes] has already accepted
   *[no] accepted
} challenge { $challenge } ({ $name }). Still to accept: { $waiting }.
challenge-joined = { $person } { $again ->
    [yes] has already joined
   *[no] joined
} challenge { $challenge } ({ $name }). Players: { $players } ({ $count } of { $seats }). It starts when full, or earlier when { $starter } presses Start.
the-challenger = the challenger

# Clocks. $left and $time are lengths of time, $until, $start, $since and $at moments.
clock-vacation = On vacation: the clock starts at { $start } UTC, then { $time } to move.
clock-left = { $left } left (until { $until } UTC).
clock-out = Out of time since { $since } UTC: the opponent may /claim.
reminder = { $player }, a reminder: it is your turn in game { $game } ({ $name }). { $left } left, until { $until } UTC.
last-call = { $player }, last call: game { $game } ({ $name }) is waiting for your move, with only { $left } left, until { $until } UTC.
timed-out = { $player } has run out of time in game { $game } ({ $name }) at { $at } UTC. { $claimant } may /claim { $game } to win; a move made before that still counts.
either = { $first } or { $rest }
button-board = Board { $game }

# Money at the end of a game.
pot-taken = Each player staked { $stake }: { $people } { $count ->
    [one] takes the pot of { $pot }.
   *[other] share the pot of { $pot }, { $share } each.
}
stakes-returned = The stakes ({ $stake } each) are returned.
in-debt-now = { $person } now has { $balance } and cannot enter staked games until the balance is above zero again.

# Vacations.
vacation-status = { $person } has taken { $used } of { $quota } vacation days this month (UTC). While on vacation your clocks stand still; /vacation <days> takes some.
vacation-until = On vacation until { $end } UTC.
vacation-taken = { $person } is on vacation from { $from } UTC until { $until } UTC: clocks stand still for { $time } ({ $days } of this month's { $quota } vacation days).

# Wallets.
wallet = { $person } has { $balance } in { $community }{ $staked ->
    [0] {""}
   *[other] , and { $in-play } staked in games being played
}.
wallet-in-debt = No staked games until the balance is above zero again.
leaderboard = The richest in { $community }:
leaderboard-empty = Nobody in { $community } has a wallet yet; /wallet opens yours.
coins-granted = { $moderator } granted { $amount } to { $person }{ $reason }, who now has { $balance }.
coins-taken = { $moderator } took { $amount } from { $person }{ $reason }, who now has { $balance }.

# /games: the games being played in the chat.
games-here = Active games here:
games-line = { $game } { $name }: { $sides }; { $turn }.
games-side = { $name } ({ $seats })
games-versus = { $first } vs { $rest }
games-to-move = { $who } to move
games-rolling = the dice are being rolled
games-over = over
games-unreadable = cannot be read
games-button-mine = { $game } { $name } vs { $others }
games-button-team = { $game } { $name } with { $partners } vs { $others }
games-button = { $game } { $name }: { $others }

# Questions before what cannot be undone (issue 37): $person asks, $opponents are the other
# side's people, $team the asker's team, $partner the partner who confirms.
resign-question = { $person }, resign game { $game } ({ $name }) against { $opponents }? The other side wins. Only you can answer; the question lapses in a minute or at the next move.
resign-proposal = { $person } proposes to resign game { $game } ({ $name }) for { $team } against { $opponents }. { $partner }, do you agree? The question lapses in a minute or at the next move.
abort-question = { $person }, abort game { $game } ({ $name })? Nobody wins, and the stakes go back. Only you can answer; the question lapses in a minute or at the next move.
question-withdrawn = { $person } keeps playing game { $game } ({ $name }).

# Which game a command is about, when a person has several: a button per game.
which-game-pick = Which game? Press one, or add its number to { $command }, for example { $example }.
button-game = { $game } { $name }
ping-your-move = Your move in game { $game } ({ $name }) in { $chat }: { $left } left, until { $until } UTC.
ping-unreachable = { $person }, I cannot write to you privately, so your turns are still told here. To be told privately, open a private chat with me and start it (the button below); on Discord, allow direct messages from this server's members. /notify chat keeps everything here.
button-open-game = Open the game
button-private-chat = Open a private chat
mygames-heading = Your games in progress: { $count }; { $mine ->
    [0] none of them waits for your move
   *[other] your move in { $mine } of them
}.
mygames-line = { $game } { $name } in { $chat }, { $against }: { $turn }.
mygames-your-move = your move, { $left } left
mygames-their-move = { $who } to move, { $left } left
mygames-against = against { $others }
mygames-against-with = with { $partners }, against { $others }
mygames-button = { $game } { $name }
mygames-page = Page { $page } of { $pages }.
button-next-page = Next page
button-first-page = First page
ping-several = While your quiet hours lasted, it became your move in { $count ->
    [one] one game:
   *[other] { $count } games:
}
ping-line = { $game } ({ $name }) in { $chat }: { $left } left, until { $until } UTC.
digest-heading = Your daily digest: { $count ->
    [one] one game waits for your move:
   *[other] { $count } games wait for your move:
}
thread-name = { $name } { $game }: { $first } vs { $second }
thread-coming = Game { $game } begins: its board is coming in a thread of its own.
thread-started = { $name } game { $game } has begun in its own thread: { $seats }.
button-open-thread = Open its thread
thread-refused-not-forum = Game { $game } is played here: this group has topics turned off, so it cannot have a topic of its own (a moderator can turn topics on in the group's settings, or stop giving games topics of their own with /config threads=off).
thread-refused-manage-topics = Game { $game } is played here: I cannot open a topic for it, because I need the administrator right “Manage topics” in this group.
thread-refused-create-threads = Game { $game } is played here: I cannot open a thread for it, because I need the permissions “Create Public Threads” and “Send Messages in Threads” in this channel.
said-in-chat = In { $chat }:{" "}
topic-coming = Game { $game } begins: its board is coming in a topic of its own.
topic-started = { $name } game { $game } has begun in its own topic: { $seats }.
button-open-topic = Open its topic
rematch-in-channel = The rematch is offered in { $chat }: this game's thread is closed.
rematch-in-group = The rematch is offered in { $chat }: this game's topic is closed.
rating-line = { $person }: { $ratings }.
rating-entry = { $name } { $rating }{ $provisional ->
    [yes] ?
   *[no] {""}
} ({ $games ->
    [one] { $games } rated game
   *[other] { $games } rated games
})
rating-list = { $first }, { $rest }
rating-none = { $person } has no rating here yet: ratings come with rated games (between people, played to a result).
rating-chart-title = { $person } · { $name }
rating-chart-subtitle = { $rating } after { $games ->
    [one] { $games } rated game
   *[other] { $games } rated games
}; the band is the rating ± its deviation
rating-changes = Ratings: { $changes }.
rating-change = { $person } { $rating } ({ $change })
leaderboard-rating = The best rated at { $name } in { $community }:
leaderboard-rating-line = { $rating }
leaderboard-rating-none = Nobody in { $community } is on the { $name } leaderboard yet: it takes a settled rating (no longer provisional) and at least { $games } rated games of it in the last { $months ->
    [one] month
   *[other] { $months } months
}.
stats-header = { $person } in { $community }:
stats-game = { $name }: { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
}, { $losses ->
    [one] { $losses } loss
   *[other] { $losses } losses
}, { $draws ->
    [one] { $draws } draw
   *[other] { $draws } draws
}
stats-streak = Current streak: { $result ->
    [win] { $count ->
        [one] { $count } win
       *[other] { $count } wins in a row
    }
    [loss] { $count ->
        [one] { $count } loss
       *[other] { $count } losses in a row
    }
   *[draw] { $count ->
        [one] { $count } draw
       *[other] { $count } draws in a row
    }
}.
stats-against = { $person } against { $other }: { $games ->
    [one] { $games } game
   *[other] { $games } games
}, { $wins ->
    [one] { $wins } win
   *[other] { $wins } wins
}, { $losses ->
    [one] { $losses } loss
   *[other] { $losses } losses
}, { $draws ->
    [one] { $draws } draw
   *[other] { $draws } draws
}.
stats-none = { $person } has not finished a game against people here yet.
rating-reset = { $moderator } reset the { $name } rating of { $person }{ $was ->
    [none] {""}
   *[other] {" "}(it was { $was })
}: their next rated game starts it again from { $start }.
season-open = Season { $season } of { $name }: { $size } places, { $days } days once it begins, { $time } per move; every pair plays one game, rated. Join with the button: it begins when every place is taken, or when a moderator presses Begin ({ $min } players at least). { $count ->
    [0] Nobody has joined yet.
   *[other] Joined ({ $count }): { $people }.
}
season-begun = Season { $season } of { $name } has begun: { $games ->
    [one] { $games } game
   *[other] { $games } games
}, one for every pair, until { $until } UTC. { $people }: open your games with /board and their number; /season shows the standings.
season-pairing = { $game } { $first } – { $second }
season-standings = Season { $season } of { $name } ({ $state }):
season-state-running = { $left ->
    [0] every game played
    [one] { $left } game still running
   *[other] { $left } games still running
}, until { $until } UTC
season-state-over = over
season-winner = { $person } wins it.
season-line = { $points } points ({ $played } played: { $wins } won, { $draws } drawn, { $losses } lost; Sonneborn–Berger { $sb })
season-table-title = Season { $season } · { $name }
season-table-header = # | Player | Played | Won | Drawn | Lost | Points | SB
decimal = { $whole }{ $fraction ->
    [none] {""}
   *[other] .{ $fraction }
}
