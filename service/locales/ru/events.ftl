# Что сделал ход: части предложения после игрока и его места («@bob (Чёрные) прыгает d4-f4 и
# берёт e4.»). Глаголы в настоящем времени: пол игрока неизвестен. Ходы, клетки и поля — нотация и остаются как есть.

sentence-seat = { $player } ({ $seat }) { $clauses }.
sentence = { $clauses }.
clauses-and = { $first } и { $rest }
played = играет { $move }

konane-removed = снимает { $move }
konane-jumped = прыгает { $move } и берёт { $captured }
konane-no-jump = не может прыгнуть
no-legal-move = не имеет ходов

koan-moved = играет { $move } { $shape ->
    [octagonal] восьмиугольной
   *[square] квадратной
} фишкой
koan-captured = берёт фишку соперника ({ $owner }, { $shape ->
    [octagonal] восьмиугольную
   *[square] квадратную
}) на { $cell }
koan-far-row = доходит до дальнего ряда на { $cell }

kolowis-moved = ходит { $move }
kolowis-captured = берёт { $move } и снимает { $captured }
kolowis-quiet = { $plies ->
    [one] { $plies } полуход
    [few] { $plies } полухода
   *[other] { $plies } полуходов
} без взятия
kolowis-repetition = Та же позиция повторилась в третий раз

rolled = выбрасывает { $first } и { $second }
rolled-double = выбрасывает дубль { $die }
rolled-double-one = выбрасывает две единицы
rolled-double-one-fined = выбрасывает две единицы и платит { $payee } штраф { $fine } (10% ставки)
fine-paid = { $payer } платит { $payee } штраф { $fine } (10% ставки).
coan-ki-roll-off-tie = Оба выбросили { $die } в жеребьёвке: бросают снова
coan-ki-roll-off-won = выбрасывает { $mine } против { $theirs } у соперника ({ $other }) в жеребьёвке и начинает с { $throw }
coan-ki-moved = передвигает фишку на { $steps } с { $from } на { $to }
coan-ki-moved-home = передвигает фишку на { $steps } с { $from } домой на { $to }, где она переворачивается
coan-ki-removed = убирает свою фишку с { $cell } из игры
coan-ki-throw-lost = не может использовать { $throw }: бросок пропадает
dice-throw = { $throw }
dice-them = их
coan-ki-won = больше не имеет фишек в пути

pachisi-skipped = отказывается бросать
pachisi-thrown = бросает { $roll }
pachisi-thrown-grace = бросает { $roll } — бонусный бросок: бросает ещё раз
pachisi-entered = вводит фишку броском { $roll } на { $to }
pachisi-moved = ведёт { $count ->
    [one] фишку с { $from }
    [few] { $count } фишки с { $from }
   *[other] { $count } фишек с { $from }
} на { $to } броском { $roll }
pachisi-moved-home-bound = ведёт { $count ->
    [one] фишку с { $from }
    [few] { $count } фишки с { $from }
   *[other] { $count } фишек с { $from }
} на { $to } броском { $roll }, теперь на пути домой
pachisi-finished-piece = ведёт { $count ->
    [one] фишку с { $from }
    [few] { $count } фишки с { $from }
   *[other] { $count } фишек с { $from }
} в Чаркони броском { $roll }: путь пройден
pachisi-captured = берёт { $count ->
    [one] { $count } фишку
    [few] { $count } фишки
   *[other] { $count } фишек
} ({ $victim }) на { $square }: обратно в Чаркони
pachisi-seat-finished = доводит домой все четыре фишки
pachisi-values-lost = не может использовать { $values }: несыгранное пропадает, ход переходит
pachisi-gave-up = отказывается от { $values }

# Всплывающее уведомление сразу после нажатия кнопки хода; доска следует в чате.
toast-played = Ход { $move } в партии { $game } сделан.
toast-played-computer = Ход { $move } в партии { $game } сделан; ответ компьютера будет на следующей доске.

board-then = Партия { $game } ({ $name }): следующим ходом { $player } ({ $seat }) играет { $move }.
board-ended = Партия { $game } ({ $name }) закончилась после этой позиции. { $how }.
