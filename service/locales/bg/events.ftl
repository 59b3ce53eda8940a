# Какво направи ходът: части от изречение след играча и мястото му („@bob (Черните) прескочи
# d4-f4, взимайки e4.“). Ходовете, клетките и полетата са нотация и остават както са.

sentence-seat = { $player } ({ $seat }) { $clauses }.
sentence = { $clauses }.
clauses-and = { $first } и { $rest }
played = изигра { $move }

konane-removed = махна { $move }
konane-jumped = прескочи { $move } и взе { $captured }
konane-no-jump = не може да прескочи
no-legal-move = няма ход

koan-moved = изигра { $move } с { $shape ->
    [octagonal] осмоъгълна
   *[square] квадратна
} фигура
koan-captured = взе фигура на противника ({ $owner }, { $shape ->
    [octagonal] осмоъгълна
   *[square] квадратна
}) на { $cell }
koan-far-row = стигна далечния ред на { $cell }

kolowis-moved = премести { $move }
kolowis-captured = взе { $move } и махна { $captured }
kolowis-quiet = { $plies ->
    [one] { $plies } полуход
   *[other] { $plies } полухода
} без взимане
kolowis-repetition = Същата позиция се повтори за трети път

rolled = хвърли { $first } и { $second }
rolled-double = хвърли чифт { $die }
rolled-double-one = хвърли две единици
rolled-double-one-fined = хвърли две единици и плаща на { $payee } глоба { $fine } (10% от залога)
fine-paid = { $payer } плаща на { $payee } глоба { $fine } (10% от залога).
coan-ki-roll-off-tie = И двамата хвърлиха { $die } при жребия: хвърля се отново
coan-ki-roll-off-won = хвърли { $mine } срещу { $theirs } на противника ({ $other }) при жребия и започва с { $throw }
coan-ki-moved = премести фигура с { $steps } от { $from } на { $to }
coan-ki-moved-home = премести фигура с { $steps } от { $from } у дома на { $to }, където се обръща
coan-ki-removed = извади фигурата си от { $cell } от играта
coan-ki-throw-lost = не може да използва { $throw }: хвърлянето се губи
dice-throw = { $throw }
dice-them = тях
coan-ki-won = няма повече пътуващи фигури

pachisi-skipped = отказва да хвърля
pachisi-thrown = хвърля { $roll }
pachisi-thrown-grace = хвърля { $roll } — бонус: хвърля отново
pachisi-entered = вкарва фигура с { $roll } на { $to }
pachisi-moved = мести { $count ->
    [one] фигура от { $from }
   *[other] { $count } фигури от { $from }
} на { $to } с { $roll }
pachisi-moved-home-bound = мести { $count ->
    [one] фигура от { $from }
   *[other] { $count } фигури от { $from }
} на { $to } с { $roll }, вече към дома
pachisi-finished-piece = мести { $count ->
    [one] фигура от { $from }
   *[other] { $count } фигури от { $from }
} в Чаркони с { $roll }: пътят е изминат
pachisi-captured = взима { $count ->
    [one] { $count } фигура
   *[other] { $count } фигури
} ({ $victim }) на { $square }: обратно в Чаркони
pachisi-seat-finished = прибра и четирите си фигури у дома
pachisi-values-lost = не може да използва { $values }: губят се, ходът минава
pachisi-gave-up = пропуска { $values }

# Известието, което играчът вижда веднага след бутона на хода; дъската следва в чата.
toast-played = Ходът { $move } в партия { $game } е изигран.
toast-played-computer = Ходът { $move } в партия { $game } е изигран; отговорът на компютъра ще е на следващата дъска.

board-then = Партия { $game } ({ $name }): след това { $player } ({ $seat }) изигра { $move }.
board-ended = Партия { $game } ({ $name }) завърши след тази позиция. { $how }.
