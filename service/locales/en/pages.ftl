# A game's web page (issue 41): the page's own words. The rest of the page (whose turn, the
# result, the players) is said by the board's messages.
page-title = Game { $game } ({ $name })
page-players = Players
page-moves = Moves
page-no-moves = No moves yet.
page-board = The board
page-position-text = The position in text
page-step = Step through the game
page-live = Live: the page follows the game as it is played.
page-offline = Reconnecting…
page-dice = Dice fingerprint
page-seed = Seed
page-seed-later = The seed is shown when the game is over.
page-record = The record (for tabula verify)
page-replay = The replay (GIF)

# The position in words, the board's text alternative for screen readers: each side's pieces
# by cell (cells are notation). $side is a seat ("White"); $cells a list ("a1, a3, c5", a
# Coan Ki stack as "a1 ×8"); $shape octagonal or square (Koan), or home (Coan Ki's pieces
# that have come home).
page-side-pieces = { $side }: { $cells }
page-side-shaped = { $side }, { $shape ->
    [octagonal] octagonal pieces
    [home] pieces home
   *[square] square pieces
}: { $cells }
page-side-none = { $side }: no pieces
# Pachisi: how many of a seat's four pieces wait to enter, how many are home, and how far the
# others have gone along the track, in steps ($steps: "6, 13, 80", or page-track-empty).
page-side-pachisi = { $side }: { $waiting } to enter, { $home } home, on the track: { $steps }
page-track-empty = none
