# The commands: their descriptions in the platforms' menus (at most 100 characters; Telegram
# allows 256), what /help <command> says of each, and their options' descriptions (at most 100
# characters). Command names, option names and examples are typed by people and stay as they are.
# $languages is the list of language codes, e.g. "en, ru or bg".

cmd-play = Challenge people (or anyone here) to a game
cmd-play-about = Name up to three people with @, or nobody for an open challenge anyone may accept, or `computer` (in Pachisi, beside people: it takes the seats they leave). Options such as size=10 set up the game; stake=<coins> and time=<3d|12h> (time per move) set the terms.
cmd-play-game = The game to play
cmd-play-opponent = Who to challenge (none: an open challenge)
cmd-play-opponent2 = A second person to challenge (Pachisi)
cmd-play-opponent3 = A third person to challenge (Pachisi)
cmd-play-options = Game options, e.g. size=10
cmd-play-stake = Coins each player stakes (0: a friendly game)
cmd-play-time = Time per move, e.g. 3d or 12h
cmd-play-rated = Rated: yes (the default) or no for a casual game
cmd-play-computer = The computer at this level (1-4): your opponent, or in Pachisi the empty seats
cmd-accept = Accept a challenge
cmd-accept-about = Accepts the challenge waiting for you; name its number when several are.
cmd-decline = Decline a challenge
cmd-decline-about = Declines the challenge waiting for you; name its number when several are.
cmd-cancel = Withdraw your challenge
cmd-cancel-about = Withdraws a challenge you made that nobody has accepted yet.
cmd-move = Make a move
cmd-move-about = Makes a move in your game, written as on the board (or press a button under the board); /move alone lists your legal moves under the board, a button for each. Name the game's number when you play several here.
cmd-move-move = The move, e.g. d4-f4
cmd-board = Show a game's board
cmd-board-about = Shows the board of a game here, with buttons for the player to move. Anyone may look.
cmd-moves = List the legal moves of a game
cmd-moves-about = Lists every legal move of the player to move.
cmd-history = List every move and roll of a game
cmd-history-about = Lists every action of a game so far, dice rolls included.
cmd-export = A game's record as a file, to keep or to check
cmd-export-about = Sends a game's record as a text file: its players, options and every move and roll; for dice games, what `tabula verify` needs to check that no roll was chosen by the bot (the seed, once the game is over).
cmd-replay = Watch a game again as an animation
cmd-replay-about = Posts a game as an animated picture: the start, then every move and roll in turn, the last one highlighted as on the boards.
cmd-resign = Give up a game
cmd-resign-about = Gives up your game: the other side wins, and takes the pot. You are asked to confirm first; in Pachisi, your partner confirms.
cmd-draw = Offer a draw, or accept the one offered
cmd-draw-about = Offers your opponent a draw, with buttons to accept or decline; if their offer stands, it accepts that instead. The offer stands until you move again. An agreed draw gives the stakes back and is rated as a draw.
cmd-takeback = Ask your opponent to undo your last move
cmd-takeback-about = Asks your opponent, with buttons to accept or decline, to undo your last move (in Coan Ki and Pachisi, only the moves since the last roll: a roll is never undone). The request lapses when anyone moves. Accepted, it is your move again and your clock runs from when your turn began.
cmd-abort = Call a game off without a result
cmd-abort-about = Calls a game off and returns the stakes. Players may abort before the first move, after confirming; moderators may abort any game.
cmd-abort-reason = Why, for the record
cmd-claim = Win a game whose opponent ran out of time
cmd-claim-about = Claims the win when the player to move has run out of time. A move made before the claim still counts.
cmd-vacation = Stop your clocks for a few days
cmd-vacation-about = Stops your clocks for some days (a few per month). Without a number, shows the days you have left.
cmd-vacation-days = How many days
cmd-games = List the active games here
cmd-games-about = Lists the games being played in this chat, yours first.
cmd-wallet = Show your coins here
cmd-wallet-about = Shows your coins in this server or group, and what you have at stake.
cmd-leaderboard = Show the richest players here, or the best rated in a game
cmd-leaderboard-about = Lists the ten richest people of this server or group; with a game, the ten highest ratings in it of those whose rating is settled and who played enough rated games of it lately (5 in six months unless the moderators set otherwise with /config).
cmd-config = Show the settings here, or change them
cmd-config-about = Shows this server's or group's settings to anyone. Moderators change them with key=value pairs, all or none.
cmd-config-settings = Settings to change, e.g. time=2d max_stake=500
cmd-grant = Give coins to someone
cmd-grant-about = Adds coins to someone's wallet here.
cmd-grant-user = Who gets the coins
cmd-grant-coins = How many coins
cmd-grant-reason = Why, for the record
cmd-take = Take coins from someone
cmd-take-about = Removes coins from someone's wallet here (at most what it holds).
cmd-take-user = Whose coins
cmd-take-coins = How many coins
cmd-take-reason = Why, for the record
cmd-rules = A short summary of a game's rules
cmd-rules-about = Summarises the rules of a game and how its moves are written.
cmd-rules-game = The game
cmd-help = The commands, or how to use one
cmd-help-about = Lists the commands; with a command's name, explains it.
cmd-help-command = A command to explain
cmd-language = Choose the language the bot speaks to you
cmd-language-about = Sets the language of what only you see: { $languages }; `auto` follows your app's language again. Without a value, says which one you read. What the whole chat sees is in the language moderators set with /config language=.
cmd-language-language = { $languages }; auto: your app's language
opt-challenge = The challenge's number, when several are waiting
opt-game-number = The game's number, when several are being played here

## /help

help-heading = Tabula: traditional board games. Commands:
help-line = /{ $name }{ $aliases }: { $description }{ $access }
help-line-moderators = {" "}(moderators)
help-line-partly = {" "}(some uses: moderators)
help-games = Games: { $games }. Dice are rolled for you. /help <command> explains one, e.g. /help play.
help-moderators = For moderators only.
help-partly = Some uses are for moderators only.
help-also = Also: { $aliases }.
help-example = Example: { $example }
lines =
    { $first }
    { $rest }
# Usage lines: /move [#game] <move>. The words in angle brackets name what to type.
usage-line = { $command }{ $rest }
usage-word = {" "}{ $before }{ $word }{ $after }{ $rest }
usage-game = game
usage-game-number = game
usage-move = move
usage-challenge = challenge
usage-user = user
usage-coins = coins
usage-value = value
usage-options = option=value
usage-settings = key=value
usage-reason = reason
usage-days = days
usage-command = command
usage-language = language
usage-example = { $usage }, e.g. { $example }

cmd-notify = Choose how you are told it is your move
cmd-notify-about = Shows how you are told it is your move, with a button for each change: in the game's chat (the default), privately, or both; the reminder halfway through your time for a move (on unless you turn it off); a last call when a tenth of the time is left (off unless you turn it on); and quiet hours in your time zone, when nothing is sent privately (what comes due is sent when they end). They are yours in every chat.
cmd-notify-setting = chat|private|both|digest [HH:MM]; halftime on|off; lastcall on|off; quiet HH:MM-HH:MM zone|off
usage-setting = setting
cmd-mygames = Your games in every chat, your move first
cmd-mygames-about = Lists your games in progress in every chat of this platform (and of the other one, once you have linked your accounts with /link): those where it is your move first, the nearest deadline first, with the time left, then the others; each with a button that opens its board in its chat. Most useful in a private chat with me.
cmd-link = Link your Telegram and Discord accounts
cmd-link-about = Without a code, gives you a one-time code, valid for ten minutes, that only you see; type /link with that code on the other platform to link your two accounts. Then /mygames and the daily digest list your games on both platforms, and your /notify settings hold on both. /unlink undoes it. Wallets stay per server or group.
cmd-link-code = the code from the other platform
usage-code = code
cmd-unlink = Unlink your Telegram and Discord accounts
cmd-unlink-about = Undoes /link: each account keeps its games and its current /notify settings, and /mygames lists this platform's games only again.
cmd-rating = Show someone's ratings in each game here
cmd-rating-about = Shows a person's Glicko-2 rating in each game they have played rated games of in this server or group (yours when you name nobody), with a ? while it is provisional (until it has settled after enough games). Rated games are those between people that end with a result after each side moved.
cmd-rating-user = Whose ratings (yours when empty)
cmd-rating-game = Only this game
cmd-stats = A person's results here, and a head-to-head
cmd-stats-about = Shows a person's games, wins, losses and draws here per game, and their current streak; name a second person for the two's head-to-head. Games with the computer and aborted games do not count.
cmd-stats-user = Whose results (yours when empty)
cmd-stats-other = Someone to compare: the head-to-head of the two
cmd-resetrating = Start a person's rating in a game again (moderators)
cmd-resetrating-about = Starts a person's rating in one game of this server or group again: their next rated game counts them as a newcomer (1500?). The rating they had is kept on record, with who reset it.
cmd-resetrating-user = Whose rating
cmd-resetrating-game = In which game
cmd-season = A round-robin season: its standings, or a new one (moderators)
cmd-season-about = Shows this chat's season: who joined, or the standings (a point a win, half a draw; ties go to the points between the tied, then Sonneborn–Berger). With a game, a moderator opens one: people join with a button, then every pair plays one game.
cmd-season-game = Open a season of this game (moderators)
cmd-season-days = How many days the season runs once it begins (30 if left out)
cmd-season-size = How many players it takes (8 if left out)
cmd-leaderboard-game = By rating in this game (the richest without one)
