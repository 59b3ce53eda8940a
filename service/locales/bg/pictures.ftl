# Думите върху картинките на дъската: заглавието (кой е на ход или резултатът), подзаглавието
# (последното действие, както в чата), подсказки и надписи върху дъската. Пиши кратко: ред от
# заглавието побира около 60 знака. $seat е името на място или отбор.

picture-to-move = На ход: { $seat }
picture-wins = Победа: { $seat }
picture-team-wins = Победа: { $team }
picture-game-over = Партията свърши
picture-draw = Реми
picture-to-remove-stone = { $seat }: махни камък
picture-wins-on-pieces = Победа по брой фигури: { $seat }
picture-quiet-plies = { $plies } { $plies ->
    [one] полуход
   *[other] полухода
} без взимане
picture-repetition = позицията се повтори за трети път
picture-cannot-move = { $seat }: няма ходове
picture-quiet = без взимане { $quiet } от { $stall }
picture-koan-hint = Белите вървят нагоре, Черните надолу: който пръв стигне далечния ред, печели
picture-koan-goal = { $side ->
    [white] Целта на Белите: ред 11
   *[black] Целта на Черните: ред 1
}
picture-roll-off = { $again ->
    [yes] Отново жребий
   *[no] Жребий
}
picture-to-remove-piece = { $seat }: махни фигура
picture-to-play = { $seat }: изиграй { $throw }
picture-to-throw = { $seat }: хвърли
picture-roll-off-hint = Всеки хвърля по един зар: който хвърли повече, започва и играе и двата
picture-remove-hint = 1-1 не мести нищо: извади от играта една { $side ->
    [white] бяла
   *[black] черна
} фигура на път
picture-plays-double = { $throw }: една фигура с { $die } или две фигури с по { $twice }
picture-plays-next = { $throw }: една фигура с { $lo } и друга с { $sum } или една с { $less } и друга с { $sum }
picture-plays-two = { $throw }: една фигура с { $sum } или една с { $lo } и друга с { $hi }
picture-home = у дома: { $count }
picture-out = извадени: { $count }
picture-throws-again = { $seat }: хвърля отново
picture-throws-cowries = { $seat }: хвърля каурите
picture-to-throw-or-skip = { $seat }: хвърли или пропусни
picture-chose-to-throw = { $seat }: реши да хвърля
picture-panel-waiting = в Чаркони
picture-panel-board = на дъската
picture-panel-home = у дома
picture-panel-progress = път
picture-legend = към дома или у дома
picture-first-entry = първо влизане: всяка стойност
picture-tag-winner = победа
picture-tag-throwing = хвърля
picture-tag-to-throw = да хвърли
picture-tag-to-move = на ход
picture-thrown = хвърлено
picture-to-use = за игра
picture-used = изиграно
picture-lost = загубено
picture-given-up = отказано
picture-no-values-yet = още няма стойности
picture-no-values-thrown-yet = още не е хвърляно
picture-event = { $seat }: { $clause }
picture-events = { $first }; { $rest }
# Заглавието на партия, завършила не с позиция на дъската; -team, ако е победил отбор.
picture-resigned = { $losers }: предаване. Победа: { $winners }
picture-resigned-team = { $losers }: предаване. Победа: { $winners }
picture-won-on-time = Победа по време: { $winners }
picture-won-on-time-team = Победа по време: { $winners }
picture-won = Победа: { $winners }
picture-won-team = Победа: { $winners }
picture-drawn = Реми
picture-drawn-agreed = Реми по споразумение
picture-aborted = Прекратена без резултат
