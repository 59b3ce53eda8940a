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
