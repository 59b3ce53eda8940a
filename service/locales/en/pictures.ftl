# The words drawn on board pictures: the header's title (whose turn, or the result), its
# subtitle (the last action, told as in the chat), hints, and the captions on the board. Keep
# them short: a header line holds about 60 characters. $seat is a seat's or team's name.

picture-to-move = { $seat } to move
picture-wins = { $seat } wins
picture-team-wins = { $team } win
picture-game-over = Game over
picture-draw = Draw
picture-to-remove-stone = { $seat } to remove a stone
picture-wins-on-pieces = { $seat } wins on pieces
picture-quiet-plies = { $plies } plies without a capture
picture-repetition = the position occurred a third time
picture-cannot-move = { $seat } cannot move
picture-quiet = quiet { $quiet } of { $stall }
picture-koan-hint = White moves up, Black down: first to the far row wins
picture-koan-goal = { $side ->
    [white] White's goal: row 11
   *[black] Black's goal: row 1
}
picture-roll-off = { $again ->
    [yes] Roll-off again
   *[no] Roll-off
}
picture-to-remove-piece = { $seat } to remove a piece
picture-to-play = { $seat } to play { $throw }
picture-to-throw = { $seat } to throw
picture-roll-off-hint = Each throws one die: the higher starts and plays both
picture-remove-hint = 1-1 moves nothing: take one travelling { $side ->
    [white] White
   *[black] Black
} piece out
picture-plays-double = { $throw }: one piece { $die }, or two pieces { $twice } each
picture-plays-next = { $throw }: one piece { $lo } and another { $sum }, or one { $less } and another { $sum }
picture-plays-two = { $throw }: one piece { $sum }, or one piece { $lo } and another { $hi }
picture-home = { $count } home
picture-out = { $count } out
picture-throws-again = { $seat } throws again
picture-throws-cowries = { $seat } throws the cowries
picture-to-throw-or-skip = { $seat } to throw or skip
picture-chose-to-throw = { $seat } chose to throw
picture-panel-waiting = in the Charkoni
picture-panel-board = on the board
picture-panel-home = home
picture-panel-progress = progress
picture-legend = home-bound or home
picture-first-entry = first entry: any value
picture-tag-winner = winner
picture-tag-throwing = throwing
picture-tag-to-throw = to throw
picture-tag-to-move = to move
picture-thrown = thrown
picture-to-use = to use
picture-used = used
picture-lost = lost
picture-given-up = given up
picture-no-values-yet = no values yet
picture-no-values-thrown-yet = no values thrown yet
picture-event = { $seat } { $clause }
picture-events = { $first }; { $rest }
# The title of a game that ended without its position showing it; -team when the winners are
# a team (Pachisi's "South and North win").
picture-resigned = { $losers } resigned: { $winners } wins
picture-resigned-team = { $losers } resigned: { $winners } win
picture-won-on-time = { $winners } wins on time
picture-won-on-time-team = { $winners } win on time
picture-won = { $winners } wins
picture-won-team = { $winners } win
picture-drawn = A draw
picture-drawn-agreed = Drawn by agreement
picture-aborted = Aborted: no result
