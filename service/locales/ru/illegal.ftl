# Отказы правил на набранный ход. Запись ходов (`d4-f4`, enter+6, remove:e1) остаётся как есть.

illegal-sentence = { $reason }.
action-game-over = партия окончена
action-roll-expected = сейчас бросок, а не ход
action-impossible-roll = roll:{ $roll } здесь выпасть не может (возможно: { $possible })
move-unreadable = не могу прочитать `{ $input }` как ход: { $hint }
move-hint-konane = пишите прыжок как откуда-куда, например `d4-f4` или `d4-f4-h4`, а снятие — клеткой, например `e4`
move-hint-koan = пишите ход как откуда-куда, например `G11-G9`, а взятие — например `C3xB4`
move-hint-kolowis = пишите шаг, например `C8-B9`, или серию взятий с каждой точкой приземления, например `C2xC4xC6`
move-hint-coan-ki = пишите розыгрыш как <клетка>+<шаги>, одну или две части через & или пробел, например `c1+7` или `a1+5&b1+11`; после 1-1 пишите `remove:e1`
move-hint-pachisi = пишите throw, skip, done, enter+<значение> или <поле>+<значение>, например enter+6, k2+3, c9x2+4 (группа из двух) или j6h+2 (фишка на пути домой)
move-no-such-cell = `{ $cell }` — не клетка этой доски
move-illegal = `{ $input }` — недопустимо: { $reason }
move-ambiguous = `{ $input }` неоднозначно: вы имели в виду { $candidates }?
reason-jump = { $jump }:{" "}
reason-not-legal-here = здесь такой ход невозможен{ $listed ->
    [yes] {" "}(возможны: { $legal })
   *[no] {""}
}
reason-must-move = ход должен уйти с { $cell }
reason-must-capture = есть взятие, и брать обязательно: { $captures }
reason-nothing-to-jump = { $jump }не через что прыгать: { $cell } пуста
reason-already-captured = { $jump }: { $point } уже взята раньше в этом ходе
reason-too-many-jumps = слишком много прыжков
reason-step-in-capture = { $step } — это шаг, а серия взятий состоит только из прыжков
reason-not-straight = { $from } и { $to } не соединены линией, и прыжок между ними идёт не по прямой ({ $from }, { $bend } и { $to } не на одной прямой)
reason-not-joined = { $from } и { $to } не соединены линией, и { $to } не в одном прыжке от { $from } (пишите каждую точку приземления серии взятий)
reason-not-removable = эту клетку снять нельзя: { $rule } ({ $choices })
reason-removal-white = Белые снимают камень рядом с пустой клеткой { $hole } по горизонтали или вертикали
reason-removal-black = Чёрные снимают камень из центра или из угла
reason-not-in-line = { $from } и { $to } не на одной горизонтали или вертикали
reason-chain-turns = цепочка не может поворачивать: все прыжки идут в одну сторону
reason-odd-distance = прыжок переносит камень ровно на две клетки
reason-not-one-jump = { $from }–{ $to } — не один прыжок: прыжок переносит камень ровно на две клетки
reason-must-remove-in-opening = в начале партии ход — это снятие одного камня: назовите его клетку, например `e4`
reason-removals-are-over = снятия закончились: теперь каждый ход — прыжок, например `d4-f4`
reason-must-jump = теперь каждый ход — прыжок: пишите откуда-куда, например `d4-f4`
reason-sideways = { $from }–{ $to } идёт вбок: фишки ходят только вперёд
reason-square-to-square = { $from } и { $to } — обе квадраты: с квадрата фишка ходит только по диагонали вперёд на восьмиугольник
reason-not-one-forward = { $to } — не на одно поле вперёд от { $from } (поля вперёд: { $targets })
reason-remove-only-after-double-one = фишку снимают только после дубля единиц (1-1)
reason-too-many-parts = розыгрыш двигает одну или две фишки: { $throw }
reason-same-piece-twice = одна фишка использована дважды: на { $cell } одна { $side ->
    [White] белая
   *[Black] чёрная
} фишка, а розыгрыш из двух частей двигает две разные фишки
reason-no-play-from = с { $cells } нет допустимого розыгрыша: { $throw }
reason-exceeds-the-throw = не подходит к броску: { $throw }
reason-overshoots-home = { $cell }+{ $steps } проходит мимо домашних клеток: { $side ->
    [White] белая
   *[Black] чёрная
} фишка с { $cell } приходит домой за { $exact } { $exact ->
    [one] шаг
    [few] шага
   *[other] шагов
} (на { $first }) или { $more } (на { $second }) и дальше идти не может
reason-path-blocked = { $cell }+{ $steps } встанет на { $block } или пройдёт его, а там { $count } { $side ->
    [White] белых
   *[Black] чёрных
} фишек образуют заслон
reason-not-a-legal-play = здесь такой розыгрыш невозможен: { $throw }
reason-no-pass-throw = пропустить нельзя: бросок, который можно сыграть, надо сыграть ({ $throw })
reason-no-pass-remove = пропустить нельзя: после 1-1 снимите одну свою фишку в пути, например `remove:e1`
reason-must-remove = после 1-1 фишки не ходят: снимите одну свою фишку в пути, например `remove:e1`
reason-charkoni = { $cell } — это Чаркони, а не поле: фишка выходит из него так: enter+<значение>
reason-not-a-cowrie-value = { $value } — не значение каури: бывают 2, 3, 4, 5, 6, 10 и 25
reason-enter-needs-grace = для входа нужно 6, 10 или 25 (только первая фишка места входит с любым значением), а не { $value }
reason-finish-needs-grace = { $value } — перебор: с { $cell } (позиция 83) фишка финиширует только с милостью (6, 10 или 25)
reason-must-finish-exactly = { $value } — перебор: с { $cell } (позиция { $pos }) до дома { $away } { $away ->
    [one] шаг
    [few] шага
   *[other] шагов
}, и дойти надо ровно
reason-none-waiting = ни одна ваша фишка не ждёт входа в Чаркони
reason-no-pieces = ход двигает хотя бы одну фишку
reason-not-that-many = столько фишек там нет: на { $square } в этом месте пути ваших фишек только { $have }
reason-value-not-thrown = { $value } не выпадало или уже сыграно (осталось: { $left })
reason-no-values-left = значений не осталось
reason-with-value = с { $value }: { $reason }
reasons-semicolon = { $first }; { $rest }
reason-already-thrown = вы уже бросили: сыграйте значения или done, чтобы от них отказаться
reason-skip-only-before-throwing = skip отказывается от броска и возможен только до броска; done отдаёт оставшиеся значения
reason-nothing-to-give-up = отдавать пока нечего: throw или skip
reason-throw-first = сначала бросьте каури: ход начинается с throw (или skip)
throw-moves-double-one = { $throw } не двигает фишек: снимите одну свою
throw-moves-double = { $throw } двигает одну фишку на { $die } или две разные фишки на { $twice } каждую
throw-moves-next = { $throw } двигает одну фишку на { $lo } и другую на { $sum } или одну на { $less } и другую на { $sum }
throw-moves-two = { $throw } двигает одну фишку на { $sum } или одну на { $lo } и другую на { $hi }
setup-unknown-game = неизвестная игра `{ $name }` (игры: konane, koan, kolowis, coan-ki, pachisi)
setup-unknown-option = у игры { $game } нет параметра `{ $key }`{ $any ->
    [yes] {" "}(параметры: { $allowed })
   *[no] {" "}(у неё нет параметров)
}
setup-bad-number = параметр `{ $key }={ $value }`: нужно целое число от { $min } до { $max }
setup-bad-choice = параметр `{ $key }={ $value }`: нужно одно из { $choices }
setup-malformed = параметр `{ $option }`: пишите параметры как ключ=значение
describe-empty = { $cell } пуста
describe-stone = на { $cell } { $side ->
    [White] белый
   *[Black] чёрный
} камень
describe-piece = на { $cell } { $side ->
    [White] белая
   *[Black] чёрная
} фишка
describe-own-shape = на { $cell } ваша { $shape ->
    [octagonal] восьмиугольная
   *[square] квадратная
} фишка
describe-their-shape = на { $cell } { $shape ->
    [octagonal] восьмиугольная
   *[square] квадратная
} фишка { $side ->
    [White] Белых
   *[Black] Чёрных
}
describe-only = на { $cell } только { $side ->
    [White] белые
   *[Black] чёрные
} фишки
describe-finished = на { $cell } только дошедшие { $side ->
    [White] белые
   *[Black] чёрные
} фишки, а они больше не ходят
describe-groups = на { $cell }: { $groups }
describe-group = { $count } { $count ->
    [one] фишка
    [few] фишки
   *[other] фишек
} { $seat ->
    [S] Юга
    [E] Востока
    [N] Севера
   *[W] Запада
}
move-not-your-piece = { $cell } — не ваша: { $why }
reason-piece-cannot-move = { $what }, но ходов у неё нет
reason-target-occupied = цель занята: { $what }
reason-jumps-own-piece = { $jump }через свои не прыгают: { $what }
reason-landing-occupied = { $jump }точка приземления занята: { $what }
reason-onto-own-piece = { $what }: на свою фишку не ходят
reason-nothing-can-reach = ни одна ваша фишка не может пойти на { $cell } ({ $what })
reason-backwards = { $from }–{ $to } идёт назад: { $side ->
    [White] Белые идут вверх по доске, к ряду 11
   *[Black] Чёрные идут вниз по доске, к ряду 1
}
reason-wrong-capture-cell = { $what }, но { $to } — { $cell-shape ->
    [octagon] восьмиугольник
   *[square] квадрат
}: { $shape ->
    [octagonal] восьмиугольная фишка берёт только на восьмиугольниках
   *[square] квадратная фишка берёт только на квадратах
}
seat-letter = { $seat ->
    [S] Юг
    [E] Восток
    [N] Север
   *[W] Запад
}
reason-castle-closed = { $square } — замок соперников ({ $who }): для вас закрыт
reason-too-few-to-capture = на { $square } { $opposing } { $opposing ->
    [one] фишка
    [few] фишки
   *[other] фишек
} соперников ({ $who }); { $arriving } { $arriving ->
    [one] пришедшая фишка не может
    [few] пришедшие фишки не могут
   *[other] пришедших фишек не могут
} их взять (нужно хотя бы { $opposing })

## Отказы хранилища (чаще всего гонки: две нажатые кнопки)
conflict-stale = партия ушла вперёд: она на действии { $current }
conflict-duplicate = этот запрос уже обработан
conflict-no-such-game = партии { $game } нет
conflict-game-over = партия { $game } { $status ->
    [finished] окончена
    [aborted] прервана
   *[other] неактивна
}
conflict-no-such-challenge = вызова { $challenge } нет
conflict-challenge-settled = вызов { $challenge } уже { $status ->
    [accepted] принят
    [declined] отклонён
    [cancelled] отозван
    [expired] истёк
   *[other] решён
}
conflict-challenge-expired = вызов { $challenge } истёк
conflict-not-invited = вызов { $challenge } адресован не вам
conflict-players-changed = игроки вызова { $challenge } изменились
conflict-insufficient-funds = у игрока { $user } только { $balance }, ставку { $needed } не сделать
conflict-not-yet-due = время в партии { $game } ещё не вышло
conflict-vacation-quota = в этом месяце использовано { $used } из { $quota } { $quota ->
    [one] дня
   *[other] дней
} отпуска
