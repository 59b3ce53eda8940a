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
reason-not-legal-here = здесь такой ход недопустим{ $listed ->
    [yes] {" "}(допустимы: { $legal })
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
reason-not-removable = с этой клетки снимать нельзя: { $rule } ({ $choices })
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
reason-square-to-square = и { $from }, и { $to } — квадраты: с квадрата фишка ходит только по диагонали вперёд на восьмиугольник
reason-not-one-forward = { $to } — не на одно поле вперёд от { $from } (поля вперёд: { $targets })
reason-remove-only-after-double-one = фишку снимают только после двух единиц (1-1)
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
reason-path-blocked = { $cell }+{ $steps } встанет на { $block } или пройдёт его, а там заслон из { $count } { $side ->
    [White] белых
   *[Black] чёрных
} фишек
reason-not-a-legal-play = здесь такой розыгрыш невозможен: { $throw }
reason-no-pass-throw = пропустить нельзя: бросок, который можно сыграть, надо сыграть ({ $throw })
reason-no-pass-remove = пропустить нельзя: после 1-1 снимите одну свою фишку в пути, например `remove:e1`
reason-must-remove = после 1-1 фишки не ходят: снимите одну свою фишку в пути, например `remove:e1`
reason-charkoni = { $cell } — это Чаркони, а не поле: фишка выходит из него так: enter+<значение>
reason-not-a-cowrie-value = { $value } — не значение каури: бывают 2, 3, 4, 5, 6, 10 и 25
reason-enter-needs-grace = для входа нужно 6, 10 или 25 (только первая фишка места входит с любым значением), а не { $value }
reason-finish-needs-grace = { $value } — перебор: с { $cell } (позиция 83) фишка финиширует только бонусным броском (6, 10 или 25)
reason-must-finish-exactly = { $value } — перебор: с { $cell } (позиция { $pos }) до дома { $away } { $away ->
    [one] шаг
    [few] шага
   *[other] шагов
}, и дойти надо ровно
reason-none-waiting = ни одна ваша фишка не ждёт в Чаркони выхода на доску
reason-no-pieces = ход двигает хотя бы одну фишку
reason-not-that-many = столько фишек там нет: на { $square } в этом месте пути ваших фишек только { $have }
reason-value-not-thrown = { $value } не выпадало или уже сыграно (осталось: { $left })
reason-no-values-left = значений не осталось
reason-with-value = с { $value }: { $reason }
reasons-semicolon = { $first }; { $rest }
reason-already-thrown = вы уже бросили: сыграйте значения или done, чтобы от них отказаться
reason-skip-only-before-throwing = skip отказывается от броска и возможен только до броска; done — отказ от оставшихся значений
reason-nothing-to-give-up = отказываться пока не от чего: throw или skip
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
describe-empty = на { $cell } пусто
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

## Отказы движка помимо причин выше
values-none = ничего
action-move-expected = сейчас ход { $seat ->
    [white] Белых
    [black] Чёрных
    [S] Юга
    [E] Востока
    [N] Севера
    [W] Запада
   *[other] { $seat }
}; это не бросок
move-no-move-now = сейчас ходить нельзя: { $reason }
no-move-game-over = партия окончена
no-move-game-over-winner = партия окончена (победа { $team ->
    [white] Белых
   *[black] Чёрных
})
no-move-team-won = партия окончена: победили { $team ->
    [SN] Юг и Север
   *[EW] Восток и Запад
}
no-move-dice-first = сначала нужно бросить кости
no-move-cowries = каури ещё бросают: нужен бросок
not-yours-to-move = { $what }; ходят { $side ->
    [White] Белые
   *[Black] Чёрные
}
not-yours-removes-stone = { $what }; { $side ->
    [White] Белые
   *[Black] Чёрные
} снимают один из своих камней
not-yours-removes-travelling = { $what }; { $side ->
    [White] Белые
   *[Black] Чёрные
} снимают одну из своих фишек в пути
not-yours-no-piece = вашей фишки там нет; { $what }
not-yours-no-home-bound = вашей фишки на пути домой там нет (их обозначает h); { $what }

## Текст не в канонической записи игры (бросок или сохранённый ход)
notation-error = не могу прочитать `{ $token }`: { $why }
notation-no-dice = в этой игре нет костей
notation-konane-move = нужна клетка, например `e4`, или прыжок, например `d4-f4-h4`
notation-koan-cell = это не поле: восьмиугольники — A C E G I K в рядах 1 3 5 7 9 11, квадраты — B D F H J в рядах 2 4 6 8 10
notation-koan-move = нужен ход, например `G11-G9`, или взятие, например `G11xG9`
notation-koan-not-forward = { $to } — не на одно поле вперёд от { $from } ни для одной из сторон
notation-kolowis-point = нужна точка A1–A16, B1–B17 или C1–C16
notation-kolowis-points = нужны точки A1–A16, B1–B17, C1–C16 заглавными буквами, например `C8-B9` или `C2xC4xC6`
notation-kolowis-step-off-line = шаг `-` соединяет две точки на одной линии
notation-kolowis-jump-off-line = каждая точка после `x` должна быть в одном прыжке по прямой от предыдущей
notation-kolowis-move = нужен шаг, например `C8-B9`, или взятие, например `C2xC4xC6`
notation-coan-ki-roll = нужна жеребьёвка, например `4v6` (сначала кость Белых), или бросок, например `5-6`, кости от 1 до 6
notation-coan-ki-move = нужен розыгрыш, например `c1+7` или `a1+5&b1+11` (шаги от 1 до 12), или `remove:e1`
notation-not-canonical = запись не каноническая (пишите `{ $canonical }`)
notation-pachisi-square = это не поле креста
notation-pachisi-roll = бросок — это 2, 3, 4, 5, 6, 10 или 25
notation-pachisi-move = нужно throw, skip, done, enter+<v> или <поле>[h][x<k>]+<v>, например k2+3

## Партия из строки позиции и списка действий (`tabula rules`, файлы записей)
setup-action = действие { $index } `{ $token }`: { $error }
setup-position = позиция: `{ $token }`: { $why }
expected-number = нужно целое число от { $min } до { $max }
expected-choice = нужно одно из { $choices }
position-expected-key-value = нужно ключ=значение
position-unknown-key = неизвестный ключ (ключи: { $keys })
position-key-twice = ключ указан дважды
position-missing = не указан (он обязателен)
position-must-be = { $key } может быть только { $choices }
position-cell-twice = клетка указана дважды
position-not-on-board = не клетка доски { $size }×{ $size }
position-size-disagrees = не совпадает с параметром size={ $option }
position-under-both-colours = клетка указана у обоих цветов
position-konane-one-hole = доска с одной пустой клеткой должна быть начальной без одного из камней, которые могут снять Чёрные, и снимать должны Белые
position-konane-no-hole = доска, где пустых клеток меньше двух, должна быть одной из двух начальных позиций
position-both-on-far-rows = Белые в ряду 11 и Чёрные в ряду 1 значили бы, что победили обе стороны
position-not-a-point = не точка (A1–A16, B1–B17, C1–C16)
position-point-twice = точка указана дважды
position-point-under-both = точка указана и в white, и в black
position-expected-cell-count = нужно <клетка>x<число>, например a1x8
position-not-a-coan-ki-cell = `{ $name }` — не клетка (от a1 до h2)
position-count-range = число должно быть целым, от 1 до 16
position-listed-twice = { $cell } указана дважды
position-too-many-pieces = у { $side ->
    [White] Белых
   *[Black] Чёрных
} больше 16 фишек в { $key } и { $key }-home вместе
position-finished-off-start = дошедшие { $side ->
    [White] белые
   *[Black] чёрные
} фишки стоят только на своих стартовых клетках { $first } и { $second }
position-dice-must-be = в dice нужны две кости от 1 до 6, например 5-6
position-no-travelling-pieces = ни у кого нет фишек в пути; партия кончается, когда их не остаётся у первого
position-dice-at-roll-off = при turn=rolloff dice не указывают: жеребьёвка ещё впереди
position-won-before-roll-off = у { $side ->
    [White] Белых
   *[Black] Чёрных
} нет фишек в пути, и они победили; жеребьёвка бывает только в начале
position-won-with-dice = у { $side ->
    [White] Белых
   *[Black] Чёрных
} нет фишек в пути, и они победили: никакой бросок не ждёт розыгрыша
position-no-play-for-throw = у { $side ->
    [White] Белых
   *[Black] Чёрных
} нет розыгрыша для { $throw }: такой бросок сразу пропадает
position-not-a-track-position = не позиция пути { $seat }: позиции идут от 0 до 84
position-four-pieces = у места ровно четыре фишки: укажите четыре позиции пути
position-both-teams-on-square = здесь фишки обеих команд: пришедшая сюда фишка берёт или не может встать
position-not-a-cowrie-value = не значение каури: 2, 3, 4, 5, 6, 10 или 25
position-too-many-throws = слишком много бросков с этим значением
position-values-before-throwing = в фазе decide значений нет (место ещё не бросало)
position-not-a-grace-while-throwing = в фазе throw выпадали только бонусные броски (6, 10, 25): 2, 3, 4 или 5 заканчивает бросание
position-two-non-graces = за ход бывает не больше одного значения от 2 до 5: оно заканчивает бросание
position-nothing-to-allocate = в фазе allocate нужно хотя бы одно значение
position-not-a-seat = не место: S, E, N или W
position-seat-twice = место указано в entered дважды
position-must-be-entered = у { $seat } есть фишка вне Чаркони, поэтому его нужно указать в entered
position-seat-finished = все фишки { $seat } уже дома: такое место больше не ходит
position-both-teams-home = у обеих команд все фишки дома: партия кончается, когда это удаётся первой
