# Fixed texts: the greeting and the rules summaries (`/rules`). Moves and options in backticks
# are notation and stay as typed.

greeting = Hello! I referee five traditional board games: Konane, Koan, Kolowis Awithlaknannai, Coan Ki and Pachisi. Add me to a group and challenge a friend there with /play konane @friend (or /play pachisi to gather up to four players), or try a game here. /rules konane tells how a game is played.
greeting-group = Hello! I referee five traditional board games here: Konane, Koan, Kolowis Awithlaknannai, Coan Ki and Pachisi. Challenge a friend with /play konane @friend, or anyone here with /play pachisi (up to four players). /rules konane tells how a game is played.

rules-konane = Konane (2 players): the board starts full. Black, then White, removes one own stone; after that every turn is a capture: jump orthogonally over an enemy stone into the empty cell beyond, and keep jumping in the same line if you like. Who cannot capture loses. Moves: `d4-f4`, `d4-f4-h4`; removals: `e4`. Option: size=<n>.
rules-koan = Koan (2 players): octagonal and square pieces move forward one space at a time; a piece captures by moving onto an enemy piece of its own shape's cell. First to reach the far row wins; who cannot move loses. Moves: `G11-G9`, captures `G11xG9`.
rules-kolowis = Kolowis Awithlaknannai (2 players): three rows of points joined by lines. Step to a neighbouring empty point, or capture by jumping over an enemy piece; captures are compulsory and may be chained and broken off. Who cannot move loses. Moves: `C8-B9`, captures `C2xC4xC6`.
rules-coan-ki = Coan Ki (2 players): a race of 16 pieces round a loop of 16 cells, driven by two dice that the bot rolls. A throw is used whole or lost; a double one costs a penalty. First to bring every piece home wins. Moves: `a1+5&b1+11`.
rules-pachisi = Pachisi (2 or 4 players, teams SN and EW): four pieces each leave the Charkoni, go round the cross and come back. Six cowries (rolled by the bot) give 2-6, 10 or 25; 10, 6 and 25 earn another throw. Capture by landing on an enemy outside the castle squares. The first team home wins. A turn, on its buttons: Throw the cowries, or Pass without throwing; then, for each value thrown, Enter a piece with it or move a piece (a1 → 6), or Give up the rest. Typed: `throw`, `skip`, `enter+10`, `<square>+<v>`, `done`.

moves-legal = Game { $game }: { $count ->
    [one] { $count } legal move
   *[other] { $count } legal moves
}: { $moves }
moves-rolling = Game { $game }: dice are being rolled.
history-empty = Game { $game } ({ $name }): no moves yet.
history-heading = Game { $game } ({ $name }):
history-takeback = Taken back after action { $seq }: { $moves } by { $asker }, accepted by { $accepter }.
history-earlier = { " " }moves { $first } to { $last } (the Earlier button shows those before { $first }; /export { $game } sends the whole record as a file).
history-dice = dice
history-roll-off = threw { $first } against { $second } in the roll-off
history-thrown = threw { $roll }
history-result = Result:
