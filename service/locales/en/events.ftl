# What a move did: clauses said after the person and their seat ("@bob (Black) jumped d4-f4,
# capturing e4."). Moves, cells and squares are notation and stay as typed.

sentence-seat = { $player } ({ $seat }) { $clauses }.
sentence = { $clauses }.
clauses-and = { $first } and { $rest }
played = played { $move }

konane-removed = removed { $move }
konane-jumped = jumped { $move }, capturing { $captured }
konane-no-jump = cannot jump
no-legal-move = has no legal move

koan-moved = played { $move } with { $shape ->
    [octagonal] an octagonal
   *[square] a square
} piece
koan-captured = captured { $owner }'s { $shape ->
    [octagonal] octagonal
   *[square] square
} piece on { $cell }
koan-far-row = reached the far row at { $cell }

kolowis-moved = moved { $move }
kolowis-captured = captured { $move }, taking { $captured }
kolowis-quiet = { $plies } plies without a capture
kolowis-repetition = The same position occurred a third time

rolled = rolled a { $first } and a { $second }
rolled-double = rolled a double { $die }
rolled-double-one = rolled a double one
rolled-double-one-fined = rolled a double one and pays { $payee } a fine of { $fine } (10% of the stake)
fine-paid = { $payer } pays { $payee } a fine of { $fine } (10% of the stake).
coan-ki-roll-off-tie = Both threw { $die } in the roll-off: it is thrown again
coan-ki-roll-off-won = threw { $mine } against { $other }'s { $theirs } in the roll-off and starts with { $throw }
coan-ki-moved = moved a piece { $steps } from { $from } to { $to }
coan-ki-moved-home = moved a piece { $steps } from { $from } home to { $to }, where it is turned over
coan-ki-removed = took his piece on { $cell } out of the game
coan-ki-throw-lost = cannot use { $throw }: the throw is lost
dice-throw = { $throw }
dice-them = them
coan-ki-won = has no travelling pieces left

pachisi-skipped = declines to throw
pachisi-thrown = throws { $roll }
pachisi-thrown-grace = throws { $roll }, a grace: throws again
pachisi-entered = enters a piece with { $roll } to { $to }
pachisi-moved = moves { $count ->
    [one] { $from }
   *[other] { $count } pieces from { $from }
} to { $to } with { $roll }
pachisi-moved-home-bound = moves { $count ->
    [one] { $from }
   *[other] { $count } pieces from { $from }
} to { $to } with { $roll }, now home-bound
pachisi-finished-piece = moves { $count ->
    [one] { $from }
   *[other] { $count } pieces from { $from }
} into the Charkoni with { $roll }: finished
pachisi-captured = captures { $count ->
    [one] { $count } piece
   *[other] { $count } pieces
} of { $victim } on { $square }: back to the Charkoni
pachisi-seat-finished = has brought all four pieces home
pachisi-values-lost = cannot use { $values }: lost, the turn passes
pachisi-gave-up = gives up { $values }

# The toast a player sees at once after pressing a move's button (Telegram shows it over the
# chat for a few seconds); the board itself follows in the chat.
toast-played = Played { $move } in game { $game }.
toast-played-computer = Played { $move } in game { $game }; the computer answers on the next board.

# An old board's caption once the game went on from it: the move that followed it.
board-then = Game { $game } ({ $name }): { $player } ({ $seat }) played { $move } next.
board-ended = Game { $game } ({ $name }) ended after this position. { $how }.
