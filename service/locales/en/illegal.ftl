# The rules' refusals of a typed move. English says them exactly as the rules engine does (a
# test compares them). Notation (`d4-f4`, enter+6, remove:e1) stays as it is typed.

illegal-sentence = { $reason }.
action-game-over = the game is over
action-roll-expected = a roll is due, not a move
action-impossible-roll = roll:{ $roll } is not a possible outcome here (possible: { $possible })
move-unreadable = cannot read `{ $input }` as a move: { $hint }
move-hint-konane = write a jump as from-to, like `d4-f4` or `d4-f4-h4`, or a removal as a cell, like `e4`
move-hint-koan = write a move as from-to, like `G11-G9`, or a capture like `C3xB4`
move-hint-kolowis = write a step like `C8-B9` or a capture sequence with every landing point, like `C2xC4xC6`
move-hint-coan-ki = write a play as <cell>+<steps>, one or two parts joined by & or a space, like `c1+7` or `a1+5&b1+11`; after 1-1 write `remove:e1`
move-hint-pachisi = write throw, skip, done, enter+<value> or <square>+<value>, like enter+6, k2+3, c9x2+4 (a group of two) or j6h+2 (the home-bound piece)
move-no-such-cell = `{ $cell }` is not a cell of this board
move-illegal = `{ $input }` is not legal: { $reason }
move-ambiguous = `{ $input }` is ambiguous: did you mean { $candidates }?
reason-jump = { $jump }:{" "}
reason-not-legal-here = not a legal move here{ $listed ->
    [yes] {" "}(legal: { $legal })
   *[no] {""}
}
reason-must-move = a move must leave { $cell }
reason-must-capture = a capture is available and must be made: { $captures }
reason-nothing-to-jump = { $jump }nothing to jump over: { $cell } is empty
reason-already-captured = { $jump }: { $point } was already taken earlier in this move
reason-too-many-jumps = too many jumps
reason-step-in-capture = { $step } is a step, and a capture sequence is made of jumps only
reason-not-straight = { $from } and { $to } are not joined by a line, and a jump between them is not along a straight line ({ $from }, { $bend } and { $to } are not on one straight line)
reason-not-joined = { $from } and { $to } are not joined by a line, and { $to } is not one jump from { $from } (write every landing point of a capture sequence)
reason-not-removable = not a removable cell: { $rule } ({ $choices })
reason-removal-white = White removes a stone orthogonally next to the hole at { $hole }
reason-removal-black = Black removes a stone from the centre or a corner
reason-not-in-line = { $from } and { $to } are not on one row or column
reason-chain-turns = a chain may not turn: every jump goes the same way
reason-odd-distance = a jump moves a stone exactly two cells
reason-not-one-jump = { $from } to { $to } is not one jump: a jump moves a stone exactly two cells
reason-must-remove-in-opening = in the opening a turn removes one stone: name its cell, like `e4`
reason-removals-are-over = removals are over: every turn is now a jump, like `d4-f4`
reason-must-jump = every turn is now a jump: write it from-to, like `d4-f4`
reason-sideways = { $from } to { $to } goes sideways: pieces only move forwards
reason-square-to-square = { $from } and { $to } are both squares: from a square a piece moves only diagonally forwards to an octagon
reason-not-one-forward = { $to } is not one space forwards from { $from } (its forward targets: { $targets })
reason-remove-only-after-double-one = a piece is removed only after a double one (1-1)
reason-too-many-parts = a play moves one or two pieces: { $throw }
reason-same-piece-twice = the same piece is used twice: { $cell } holds one { $side } piece, and a play of two parts moves two different pieces
reason-no-play-from = no legal play moves from { $cells }: { $throw }
reason-exceeds-the-throw = does not fit the throw: { $throw }
reason-overshoots-home = { $cell }+{ $steps } overshoots the home cells: a { $side } piece on { $cell } comes home with { $exact } steps (on { $first }) or { $more } (on { $second }) and may not go beyond
reason-path-blocked = { $cell }+{ $steps } would land on or pass { $block }, where { $count } { $side } pieces form a block
reason-not-a-legal-play = not a legal play here: { $throw }
reason-no-pass-throw = there is no pass move: a throw that can be used must be played ({ $throw })
reason-no-pass-remove = there is no pass move: after 1-1 remove one of your travelling pieces, like `remove:e1`
reason-must-remove = after 1-1 no piece moves: remove one of your travelling pieces, like `remove:e1`
reason-charkoni = { $cell } is the Charkoni, not a square: a piece leaves it with enter+<value>
reason-not-a-cowrie-value = { $value } is not a cowrie value: throws are 2, 3, 4, 5, 6, 10 and 25
reason-enter-needs-grace = entering needs 6, 10 or 25 (only a seat's first piece may enter with any value), not { $value }
reason-finish-needs-grace = { $value } overshoots: from { $cell } (pos 83) a piece finishes only with a grace (6, 10 or 25)
reason-must-finish-exactly = { $value } overshoots: from { $cell } (pos { $pos }) home is { $away } steps away and must be reached exactly
reason-none-waiting = none of your pieces waits in the Charkoni to enter
reason-no-pieces = a move takes at least one piece
reason-not-that-many = not that many pieces there: only { $have } of your { $have ->
    [one] piece stands
   *[other] pieces stand
} on { $square } at this point of the track
reason-value-not-thrown = { $value } was not thrown or is used up (values left: { $left })
reason-no-values-left = no values are left
reason-with-value = with { $value }: { $reason }
reasons-semicolon = { $first }; { $rest }
reason-already-thrown = you have thrown already: use your values, or done to give them up
reason-skip-only-before-throwing = skip declines to throw and is only possible before throwing; done gives up the remaining values
reason-nothing-to-give-up = nothing to give up yet: throw or skip
reason-throw-first = throw the cowries first: the turn starts with throw (or skip)
throw-moves-double-one = { $throw } moves no piece: remove one of yours
throw-moves-double = { $throw } moves one piece { $die }, or two different pieces { $twice } each
throw-moves-next = { $throw } moves one piece { $lo } and another { $sum }, or one piece { $less } and another { $sum }
throw-moves-two = { $throw } moves one piece { $sum }, or one piece { $lo } and another { $hi }
setup-unknown-game = unknown game `{ $name }` (games: konane, koan, kolowis, coan-ki, pachisi)
setup-unknown-option = unknown option `{ $key }` for { $game }{ $any ->
    [yes] {" "}(options: { $allowed })
   *[no] {" "}(it has no options)
}
setup-bad-number = option `{ $key }={ $value }`: expected a whole number from { $min } to { $max }
setup-bad-choice = option `{ $key }={ $value }`: expected one of { $choices }
setup-malformed = option `{ $option }`: write options as key=value
describe-empty = { $cell } is empty
describe-stone = { $cell } holds a { $side } stone
describe-piece = { $cell } holds a { $side } piece
describe-own-shape = { $cell } holds your own { $shape } piece
describe-their-shape = { $cell } holds { $side }'s { $shape } piece
describe-only = { $cell } holds only { $side } pieces
describe-finished = { $cell } holds only finished { $side } pieces, which never move again
describe-groups = { $cell } holds { $groups }
describe-group = { $count } { $count ->
    [one] piece
   *[other] pieces
} of { $seat }
move-not-your-piece = { $cell } is not yours: { $why }
reason-piece-cannot-move = { $what }, but it has no legal move
reason-target-occupied = the target is occupied: { $what }
reason-jumps-own-piece = { $jump }a piece never jumps its own side: { $what }
reason-landing-occupied = { $jump }the landing point is occupied: { $what }
reason-onto-own-piece = { $what }: a piece never moves onto its own colour
reason-nothing-can-reach = no piece of yours can move to { $cell } ({ $what })
reason-backwards = { $from } to { $to } goes backwards: { $side } moves { $side ->
    [White] up the board, towards row 11
   *[Black] down the board, towards row 1
}
reason-wrong-capture-cell = { $what }, but { $to } is { $cell-shape ->
    [octagon] an octagon
   *[square] a square
}: { $shape ->
    [octagonal] an octagonal piece captures only on octagons
   *[square] a square piece captures only on squares
}
seat-letter = { $seat }
reason-castle-closed = { $square } is a castle held by the opponents ({ $who }): closed to you
reason-too-few-to-capture = { $square } holds { $opposing } opposing { $opposing ->
    [one] piece
   *[other] pieces
} ({ $who }); { $arriving } arriving { $arriving ->
    [one] piece
   *[other] pieces
} cannot capture them (at least { $opposing } needed)

## The store's refusals (mostly races: two presses of one button)
conflict-stale = the game has moved on: it is at action { $current }
conflict-duplicate = this request was already handled
conflict-no-such-game = there is no game { $game }
conflict-game-over = game { $game } is { $status }
conflict-no-such-challenge = there is no challenge { $challenge }
conflict-challenge-settled = challenge { $challenge } is already { $status }
conflict-challenge-expired = challenge { $challenge } has expired
conflict-not-invited = you are not invited to challenge { $challenge }
conflict-players-changed = the players of challenge { $challenge } have changed
conflict-insufficient-funds = user { $user } has { $balance } and cannot stake { $needed }
conflict-not-yet-due = the time of game { $game } has not run out
conflict-vacation-quota = { $used } of { $quota } vacation days are used this month

## Refusals the engine gives beside the reasons above
values-none = none
action-move-expected = { $seat } must move now; this is not a roll
move-no-move-now = no move can be made now: { $reason }
no-move-game-over = the game is over
no-move-game-over-winner = the game is over (winner { $team })
no-move-team-won = the game is over: { $team } won
no-move-dice-first = the dice must be thrown first
no-move-cowries = the cowries are being thrown: a roll is due
not-yours-to-move = { $what }; { $side } is to move
not-yours-removes-stone = { $what }; { $side } removes one of his own stones
not-yours-removes-travelling = { $what }; { $side } removes one of his own travelling pieces
not-yours-no-piece = no piece of yours stands there; { $what }
not-yours-no-home-bound = no home-bound piece of yours stands there (h names them); { $what }

## Text not in a game's canonical notation (a roll or a stored move)
notation-error = cannot read `{ $token }`: { $why }
notation-no-dice = this game has no dice
notation-konane-move = expected a cell like `e4` or a jump like `d4-f4-h4`
notation-koan-cell = not a cell: octagons are A C E G I K on rows 1 3 5 7 9 11, squares B D F H J on rows 2 4 6 8 10
notation-koan-move = expected a move like `G11-G9` or a capture like `G11xG9`
notation-koan-not-forward = { $to } is not one space forwards from { $from } for either side
notation-kolowis-point = expected a point A1–A16, B1–B17 or C1–C16
notation-kolowis-points = expected points A1–A16, B1–B17, C1–C16 in upper case, like `C8-B9` or `C2xC4xC6`
notation-kolowis-step-off-line = a step `-` joins two points on one line
notation-kolowis-jump-off-line = each point after `x` must be one straight jump from the one before
notation-kolowis-move = expected a step like `C8-B9` or a capture like `C2xC4xC6`
notation-coan-ki-roll = expected a roll-off like `4v6` (White's die first) or a throw like `5-6`, dice from 1 to 6
notation-coan-ki-move = expected a play like `c1+7` or `a1+5&b1+11` (steps 1 to 12), or `remove:e1`
notation-not-canonical = not in canonical form (write `{ $canonical }`)
notation-pachisi-square = not a square of the cross
notation-pachisi-roll = a throw is 2, 3, 4, 5, 6, 10 or 25
notation-pachisi-move = expected throw, skip, done, enter+<v> or <square>[h][x<k>]+<v>, like k2+3

## A game set up from a position string and actions (`tabula rules`, record files)
setup-action = action { $index } `{ $token }`: { $error }
setup-position = position: `{ $token }`: { $why }
expected-number = expected a whole number from { $min } to { $max }
expected-choice = expected one of { $choices }
position-expected-key-value = expected key=value
position-unknown-key = unknown key (keys: { $keys })
position-key-twice = key given twice
position-missing = missing (it is required)
position-must-be = { $key } must be { $choices }
position-cell-twice = cell listed twice
position-not-on-board = not a cell of the { $size }×{ $size } board
position-size-disagrees = disagrees with the option size={ $option }
position-under-both-colours = cell listed under both colours
position-konane-one-hole = a board with one empty cell must be the start board without one of Black's removable stones, White to remove
position-konane-no-hole = a board with fewer than two empty cells must be one of the two opening positions
position-both-on-far-rows = White on row 11 and Black on row 1 would mean both have won
position-not-a-point = not a point (A1–A16, B1–B17, C1–C16)
position-point-twice = point listed twice
position-point-under-both = point listed under both white and black
position-expected-cell-count = expected <cell>x<count>, like a1x8
position-not-a-coan-ki-cell = `{ $name }` is not a cell (a1 to h2)
position-count-range = the count must be a whole number from 1 to 16
position-listed-twice = { $cell } is listed twice
position-too-many-pieces = { $side } has more than 16 pieces in { $key } and { $key }-home together
position-finished-off-start = finished { $side } pieces stand only on their start cells { $first } and { $second }
position-dice-must-be = dice must be two dice from 1 to 6, like 5-6
position-no-travelling-pieces = neither player has a travelling piece; a game ends when the first has none
position-dice-at-roll-off = no dice with turn=rolloff: the roll-off is a chance node
position-won-before-roll-off = { $side } has no travelling pieces and has won; the roll-off is only at the start
position-won-with-dice = { $side } has no travelling pieces and has won: no throw awaits its play
position-no-play-for-throw = { $side } has no play for { $throw }: such a throw is lost at once
position-not-a-track-position = not a track position of { $seat }: positions run from 0 to 84
position-four-pieces = a seat has exactly four pieces: give four track positions
position-both-teams-on-square = holds pieces of both teams: a piece landing there captures or may not land
position-not-a-cowrie-value = not a cowrie value: 2, 3, 4, 5, 6, 10 or 25
position-too-many-throws = too many throws of this value
position-values-before-throwing = no values wait in phase decide (the seat has not thrown yet)
position-not-a-grace-while-throwing = in phase throw only graces (6, 10, 25) have been thrown: a 2, 3, 4 or 5 ends the throwing
position-two-non-graces = a turn has at most one value from 2 to 5: it ends the throwing
position-nothing-to-allocate = phase allocate needs at least one value to use
position-not-a-seat = not a seat: S, E, N or W
position-seat-twice = seat listed twice in entered
position-must-be-entered = { $seat } has a piece out of the Charkoni, so it must be listed in entered
position-seat-finished = all of { $seat }'s pieces are finished: a finished seat takes no turns
position-both-teams-home = both teams have all their pieces home: the game ends when the first does
