# Отказите на правилата за написан ход. Записът на ходовете (`d4-f4`, enter+6, remove:e1) остава какъвто е.

illegal-sentence = { $reason }.
action-game-over = партията свърши
action-roll-expected = сега е ред на хвърляне, не на ход
action-impossible-roll = roll:{ $roll } не може да се падне тук (възможно: { $possible })
move-unreadable = не мога да прочета `{ $input }` като ход: { $hint }
move-hint-konane = пишете скок като откъде-докъде, например `d4-f4` или `d4-f4-h4`, а махане — като поле, например `e4`
move-hint-koan = пишете ход като откъде-докъде, например `G11-G9`, а взимане — например `C3xB4`
move-hint-kolowis = пишете стъпка, например `C8-B9`, или поредица взимания с всяка точка на приземяване, например `C2xC4xC6`
move-hint-coan-ki = пишете игра като <поле>+<стъпки>, една или две части с & или интервал, например `c1+7` или `a1+5&b1+11`; след 1-1 пишете `remove:e1`
move-hint-pachisi = пишете throw, skip, done, enter+<стойност> или <поле>+<стойност>, например enter+6, k2+3, c9x2+4 (група от две) или j6h+2 (фигурата към дома)
move-no-such-cell = `{ $cell }` не е поле на тази дъска
move-illegal = `{ $input }` не е позволено: { $reason }
move-ambiguous = `{ $input }` е двусмислено: имахте ли предвид { $candidates }?
reason-jump = { $jump }:{" "}
reason-not-legal-here = тук такъв ход не е позволен{ $listed ->
    [yes] {" "}(позволени: { $legal })
   *[no] {""}
}
reason-must-move = ходът трябва да излезе от { $cell }
reason-must-capture = има взимане и то е задължително: { $captures }
reason-nothing-to-jump = { $jump }няма през какво да се скочи: { $cell } е празно
reason-already-captured = { $jump }: { $point } вече е взето по-рано в този ход
reason-too-many-jumps = твърде много скокове
reason-step-in-capture = { $step } е стъпка, а поредицата взимания е само от скокове
reason-not-straight = { $from } и { $to } не са свързани с линия и скокът между тях не е по права ({ $from }, { $bend } и { $to } не са на една права)
reason-not-joined = { $from } и { $to } не са свързани с линия и { $to } не е на един скок от { $from } (пишете всяка точка на приземяване на поредицата)
reason-not-removable = това поле не може да се махне: { $rule } ({ $choices })
reason-removal-white = Белите махат камък до празното поле { $hole } по хоризонтал или вертикал
reason-removal-black = Черните махат камък от центъра или от ъгъл
reason-not-in-line = { $from } и { $to } не са на един ред или колона
reason-chain-turns = веригата не може да завива: всички скокове са в една посока
reason-odd-distance = скокът мести камъка точно с две полета
reason-not-one-jump = { $from }–{ $to } не е един скок: скокът мести камъка точно с две полета
reason-must-remove-in-opening = в началото ходът маха един камък: посочете полето му, например `e4`
reason-removals-are-over = маханията свършиха: сега всеки ход е скок, например `d4-f4`
reason-must-jump = сега всеки ход е скок: пишете го откъде-докъде, например `d4-f4`
reason-sideways = { $from }–{ $to } е встрани: фигурите вървят само напред
reason-square-to-square = { $from } и { $to } са квадрати: от квадрат фигурата върви само по диагонал напред към осмоъгълник
reason-not-one-forward = { $to } не е на едно поле напред от { $from } (полетата напред: { $targets })
reason-remove-only-after-double-one = фигура се маха само след чифт единици (1-1)
reason-too-many-parts = играта мести една или две фигури: { $throw }
reason-same-piece-twice = една фигура е използвана два пъти: на { $cell } има една { $side ->
    [White] бяла
   *[Black] черна
} фигура, а игра от две части мести две различни фигури
reason-no-play-from = от { $cells } няма позволена игра: { $throw }
reason-exceeds-the-throw = не отговаря на хвърлянето: { $throw }
reason-overshoots-home = { $cell }+{ $steps } подминава домашните полета: { $side ->
    [White] бяла
   *[Black] черна
} фигура на { $cell } се прибира с { $exact } { $exact ->
    [one] стъпка
   *[other] стъпки
} (на { $first }) или { $more } (на { $second }) и не може по-нататък
reason-path-blocked = { $cell }+{ $steps } би стъпило на { $block } или би го подминало, а там { $count } { $side ->
    [White] бели
   *[Black] черни
} фигури правят преграда
reason-not-a-legal-play = тук такава игра не е позволена: { $throw }
reason-no-pass-throw = не може да се пропусне: хвърляне, което може да се изиграе, трябва да се изиграе ({ $throw })
reason-no-pass-remove = не може да се пропусне: след 1-1 махнете една своя фигура на път, например `remove:e1`
reason-must-remove = след 1-1 фигурите не се местят: махнете една своя фигура на път, например `remove:e1`
reason-charkoni = { $cell } е Чаркони, не поле: фигурата излиза от него с enter+<стойност>
reason-not-a-cowrie-value = { $value } не е стойност на каури: хвърлянията са 2, 3, 4, 5, 6, 10 и 25
reason-enter-needs-grace = за влизане трябва 6, 10 или 25 (само първата фигура на място влиза с всяка стойност), а не { $value }
reason-finish-needs-grace = { $value } е твърде много: от { $cell } (позиция 83) фигурата завършва само с бонусно хвърляне (6, 10 или 25)
reason-must-finish-exactly = { $value } е твърде много: от { $cell } (позиция { $pos }) до дома има { $away } { $away ->
    [one] стъпка
   *[other] стъпки
} и трябва да се стигне точно
reason-none-waiting = никоя ваша фигура не чака в Чаркони да влезе
reason-no-pieces = ходът мести поне една фигура
reason-not-that-many = там няма толкова фигури: на { $square } в тази точка на пътя вашите фигури са само { $have }
reason-value-not-thrown = { $value } не е хвърлено или вече е изиграно (остават: { $left })
reason-no-values-left = не са останали стойности
reason-with-value = с { $value }: { $reason }
reasons-semicolon = { $first }; { $rest }
reason-already-thrown = вече хвърлихте: изиграйте стойностите си или done, за да се откажете от тях
reason-skip-only-before-throwing = skip отказва хвърлянето и е възможно само преди него; done отказва останалите стойности
reason-nothing-to-give-up = още няма от какво да се откажете: throw или skip
reason-throw-first = първо хвърлете каурите: ходът започва с throw (или skip)
throw-moves-double-one = { $throw } не мести фигури: махнете една своя
throw-moves-double = { $throw } мести една фигура с { $die } или две различни фигури с по { $twice }
throw-moves-next = { $throw } мести една фигура с { $lo } и друга с { $sum } или една с { $less } и друга с { $sum }
throw-moves-two = { $throw } мести една фигура с { $sum } или една с { $lo } и друга с { $hi }
setup-unknown-game = непозната игра `{ $name }` (игри: konane, koan, kolowis, coan-ki, pachisi)
setup-unknown-option = играта { $game } няма параметър `{ $key }`{ $any ->
    [yes] {" "}(параметри: { $allowed })
   *[no] {" "}(тя няма параметри)
}
setup-bad-number = параметър `{ $key }={ $value }`: трябва цяло число от { $min } до { $max }
setup-bad-choice = параметър `{ $key }={ $value }`: трябва едно от { $choices }
setup-malformed = параметър `{ $option }`: пишете параметрите като ключ=стойност
describe-empty = { $cell } е празно
describe-stone = на { $cell } има { $side ->
    [White] бял
   *[Black] черен
} камък
describe-piece = на { $cell } има { $side ->
    [White] бяла
   *[Black] черна
} фигура
describe-own-shape = на { $cell } има ваша { $shape ->
    [octagonal] осмоъгълна
   *[square] квадратна
} фигура
describe-their-shape = на { $cell } има { $shape ->
    [octagonal] осмоъгълна
   *[square] квадратна
} фигура на { $side ->
    [White] Белите
   *[Black] Черните
}
describe-only = на { $cell } има само { $side ->
    [White] бели
   *[Black] черни
} фигури
describe-finished = на { $cell } има само прибрани { $side ->
    [White] бели
   *[Black] черни
} фигури, които вече не се местят
describe-groups = на { $cell }: { $groups }
describe-group = { $count } { $count ->
    [one] фигура
   *[other] фигури
} на { $seat ->
    [S] Юг
    [E] Изток
    [N] Север
   *[W] Запад
}
move-not-your-piece = { $cell } не е ваше: { $why }
reason-piece-cannot-move = { $what }, но тя няма ходове
reason-target-occupied = целта е заета: { $what }
reason-jumps-own-piece = { $jump }през свои не се скача: { $what }
reason-landing-occupied = { $jump }точката на приземяване е заета: { $what }
reason-onto-own-piece = { $what }: върху своя фигура не се ходи
reason-nothing-can-reach = никоя ваша фигура не може да отиде на { $cell } ({ $what })
reason-backwards = { $from }–{ $to } е назад: { $side ->
    [White] Белите вървят нагоре по дъската, към ред 11
   *[Black] Черните вървят надолу по дъската, към ред 1
}
reason-wrong-capture-cell = { $what }, но { $to } е { $cell-shape ->
    [octagon] осмоъгълник
   *[square] квадрат
}: { $shape ->
    [octagonal] осмоъгълна фигура взима само на осмоъгълници
   *[square] квадратна фигура взима само на квадрати
}
seat-letter = { $seat ->
    [S] Юг
    [E] Изток
    [N] Север
   *[W] Запад
}
reason-castle-closed = { $square } е замък на противниците ({ $who }): затворен е за вас
reason-too-few-to-capture = на { $square } има { $opposing } { $opposing ->
    [one] противникова фигура
   *[other] противникови фигури
} ({ $who }); { $arriving } { $arriving ->
    [one] пристигаща фигура не може
   *[other] пристигащи фигури не могат
} да ги вземат (трябват поне { $opposing })

## Отказите на хранилището (най-често надпревари: два натиснати бутона)
conflict-stale = партията продължи: тя е на действие { $current }
conflict-duplicate = тази заявка вече е обработена
conflict-no-such-game = няма партия { $game }
conflict-game-over = партия { $game } е { $status ->
    [finished] завършена
    [aborted] прекратена
   *[other] неактивна
}
conflict-no-such-challenge = няма покана { $challenge }
conflict-challenge-settled = поканата { $challenge } вече е { $status ->
    [accepted] приета
    [declined] отказана
    [cancelled] оттеглена
    [expired] изтекла
   *[other] решена
}
conflict-challenge-expired = поканата { $challenge } изтече
conflict-not-invited = поканата { $challenge } не е за вас
conflict-players-changed = играчите на поканата { $challenge } се смениха
conflict-insufficient-funds = играч { $user } има само { $balance } и не може да заложи { $needed }
conflict-not-yet-due = времето в партия { $game } още не е изтекло
conflict-vacation-quota = този месец са използвани { $used } от { $quota } { $quota ->
    [one] ден
   *[other] дни
} отпуск

## Отказите на машината освен причините по-горе
values-none = няма
action-move-expected = сега е ходът на { $seat ->
    [white] Белите
    [black] Черните
    [S] Юг
    [E] Изток
    [N] Север
    [W] Запад
   *[other] { $seat }
}; това не е хвърляне
move-no-move-now = сега не може да се играе ход: { $reason }
no-move-game-over = партията свърши
no-move-game-over-winner = партията свърши (победа за { $team ->
    [white] Белите
   *[black] Черните
})
no-move-team-won = партията свърши: победиха { $team ->
    [SN] Юг и Север
   *[EW] Изток и Запад
}
no-move-dice-first = първо трябва да се хвърлят заровете
no-move-cowries = каурите още се хвърлят: ред е на хвърляне
not-yours-to-move = { $what }; на ход са { $side ->
    [White] Белите
   *[Black] Черните
}
not-yours-removes-stone = { $what }; { $side ->
    [White] Белите
   *[Black] Черните
} махат един от своите камъни
not-yours-removes-travelling = { $what }; { $side ->
    [White] Белите
   *[Black] Черните
} махат една от своите фигури на път
not-yours-no-piece = там няма ваша фигура; { $what }
not-yours-no-home-bound = там няма ваша фигура към дома (h ги означава); { $what }

## Текст, който не е в каноничния запис на играта (хвърляне или запазен ход)
notation-error = не мога да прочета `{ $token }`: { $why }
notation-no-dice = в тази игра няма зарове
notation-konane-move = трябва поле, например `e4`, или скок, например `d4-f4-h4`
notation-koan-cell = това не е поле: осмоъгълниците са A C E G I K на редове 1 3 5 7 9 11, квадратите — B D F H J на редове 2 4 6 8 10
notation-koan-move = трябва ход, например `G11-G9`, или взимане, например `G11xG9`
notation-koan-not-forward = { $to } не е на едно поле напред от { $from } за никоя от страните
notation-kolowis-point = трябва точка A1–A16, B1–B17 или C1–C16
notation-kolowis-points = трябват точки A1–A16, B1–B17, C1–C16 с главни букви, например `C8-B9` или `C2xC4xC6`
notation-kolowis-step-off-line = стъпката `-` свързва две точки на една линия
notation-kolowis-jump-off-line = всяка точка след `x` трябва да е на един скок по права от предишната
notation-kolowis-move = трябва стъпка, например `C8-B9`, или взимане, например `C2xC4xC6`
notation-coan-ki-roll = трябва жребий, например `4v6` (първо зарът на Белите), или хвърляне, например `5-6`, зарове от 1 до 6
notation-coan-ki-move = трябва игра, например `c1+7` или `a1+5&b1+11` (стъпки от 1 до 12), или `remove:e1`
notation-not-canonical = записът не е каноничен (пишете `{ $canonical }`)
notation-pachisi-square = това не е поле на кръста
notation-pachisi-roll = хвърлянето е 2, 3, 4, 5, 6, 10 или 25
notation-pachisi-move = трябва throw, skip, done, enter+<v> или <поле>[h][x<k>]+<v>, например k2+3

## Партия от низ на позиция и списък действия (`tabula rules`, файлове със записи)
setup-action = действие { $index } `{ $token }`: { $error }
setup-position = позиция: `{ $token }`: { $why }
expected-number = трябва цяло число от { $min } до { $max }
expected-choice = трябва едно от { $choices }
position-expected-key-value = трябва ключ=стойност
position-unknown-key = непознат ключ (ключове: { $keys })
position-key-twice = ключът е даден два пъти
position-missing = липсва (задължителен е)
position-must-be = { $key } може да е само { $choices }
position-cell-twice = полето е дадено два пъти
position-not-on-board = не е поле на дъската { $size }×{ $size }
position-size-disagrees = не съвпада с параметъра size={ $option }
position-under-both-colours = полето е дадено и при двата цвята
position-konane-one-hole = дъска с едно празно поле трябва да е началната без един от камъните, които Черните могат да махнат, като махат Белите
position-konane-no-hole = дъска с по-малко от две празни полета трябва да е една от двете начални позиции
position-both-on-far-rows = Белите на ред 11 и Черните на ред 1 биха значели, че и двете страни са победили
position-not-a-point = не е точка (A1–A16, B1–B17, C1–C16)
position-point-twice = точката е дадена два пъти
position-point-under-both = точката е дадена и в white, и в black
position-expected-cell-count = трябва <поле>x<брой>, например a1x8
position-not-a-coan-ki-cell = `{ $name }` не е поле (от a1 до h2)
position-count-range = броят трябва да е цяло число от 1 до 16
position-listed-twice = { $cell } е дадено два пъти
position-too-many-pieces = { $side ->
    [White] Белите
   *[Black] Черните
} имат повече от 16 фигури в { $key } и { $key }-home общо
position-finished-off-start = прибраните { $side ->
    [White] бели
   *[Black] черни
} фигури стоят само на началните си полета { $first } и { $second }
position-dice-must-be = dice са два зара от 1 до 6, например 5-6
position-no-travelling-pieces = никой няма фигури на път; партията свършва, когато първият остане без такива
position-dice-at-roll-off = при turn=rolloff не се дава dice: жребият тепърва ще се хвърля
position-won-before-roll-off = { $side ->
    [White] Белите
   *[Black] Черните
} нямат фигури на път и са победили; жребий има само в началото
position-won-with-dice = { $side ->
    [White] Белите
   *[Black] Черните
} нямат фигури на път и са победили: никое хвърляне не чака да се изиграе
position-no-play-for-throw = { $side ->
    [White] Белите
   *[Black] Черните
} нямат игра за { $throw }: такова хвърляне се губи веднага
position-not-a-track-position = не е позиция по пътя на { $seat }: позициите са от 0 до 84
position-four-pieces = всяко място има точно четири фигури: посочете четири позиции по пътя
position-both-teams-on-square = тук има фигури и на двата отбора: фигура, която стигне тук, взима или не може да застане
position-not-a-cowrie-value = не е стойност на каури: 2, 3, 4, 5, 6, 10 или 25
position-too-many-throws = твърде много хвърляния с тази стойност
position-values-before-throwing = във фаза decide няма стойности (мястото още не е хвърляло)
position-not-a-grace-while-throwing = във фаза throw са хвърлени само бонусни хвърляния (6, 10, 25): 2, 3, 4 или 5 завършва хвърлянето
position-two-non-graces = ходът има най-много една стойност от 2 до 5: тя завършва хвърлянето
position-nothing-to-allocate = във фаза allocate трябва поне една стойност
position-not-a-seat = не е място: S, E, N или W
position-seat-twice = мястото е дадено два пъти в entered
position-must-be-entered = { $seat } има фигура извън Чаркони, затова трябва да е в entered
position-seat-finished = всички фигури на { $seat } са прибрани: завършило място не играе
position-both-teams-home = и двата отбора са прибрали всички фигури: партията свършва, когато го направи първият
