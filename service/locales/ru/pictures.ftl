# Слова на картинках доски: заголовок (чей ход или итог), подзаголовок (последнее действие, как
# в чате), подсказки и подписи на доске. Пишите коротко: строка заголовка вмещает около 60
# символов. $seat — название места или команды.

picture-to-move = Ход: { $seat }
picture-wins = Победа: { $seat }
picture-team-wins = Победа: { $team }
picture-game-over = Партия окончена
picture-draw = Ничья
picture-to-remove-stone = { $seat }: снимите камень
picture-wins-on-pieces = Победа по числу фишек: { $seat }
picture-quiet-plies = { $plies } { $plies ->
    [one] полуход
    [few] полухода
   *[other] полуходов
} без взятий
picture-repetition = позиция повторилась в третий раз
picture-cannot-move = { $seat }: ходов нет
picture-quiet = без взятий { $quiet } из { $stall }
picture-koan-hint = Белые идут вверх, Чёрные вниз: кто первым дойдёт до дальнего ряда, побеждает
picture-koan-goal = { $side ->
    [white] Цель Белых: ряд 11
   *[black] Цель Чёрных: ряд 1
}
picture-roll-off = { $again ->
    [yes] Снова жребий
   *[no] Жребий
}
picture-to-remove-piece = { $seat }: снимите фишку
picture-to-play = { $seat }: сыграйте { $throw }
picture-to-throw = { $seat }: бросайте
picture-roll-off-hint = Каждый бросает одну кость: у кого больше, тот начинает и играет обе
picture-remove-hint = 1-1 ничего не двигает: снимите из игры одну { $side ->
    [white] белую
   *[black] чёрную
} фишку в пути
picture-plays-double = { $throw }: одна фишка на { $die } или две фишки на { $twice } каждая
picture-plays-next = { $throw }: одна фишка на { $lo } и другая на { $sum } или одна на { $less } и другая на { $sum }
picture-plays-two = { $throw }: одна фишка на { $sum } или одна на { $lo } и другая на { $hi }
picture-home = дома: { $count }
picture-out = снято: { $count }
picture-throws-again = { $seat }: бросок ещё раз
picture-throws-cowries = { $seat }: бросок каури
picture-to-throw-or-skip = { $seat }: бросайте или пропустите
picture-chose-to-throw = { $seat }: решено бросать
picture-panel-waiting = в Чаркони
picture-panel-board = на доске
picture-panel-home = дома
picture-panel-progress = путь
picture-legend = на пути домой или дома
picture-first-entry = первый вход: любое значение
picture-tag-winner = победа
picture-tag-throwing = бросает
picture-tag-to-throw = бросок
picture-tag-to-move = ход
picture-thrown = выпало
picture-to-use = осталось
picture-used = сыграно
picture-lost = пропало
picture-given-up = отказ
picture-no-values-yet = значений пока нет
picture-no-values-thrown-yet = ещё не бросали
picture-event = { $seat }: { $clause }
picture-events = { $first }; { $rest }
# Заголовок партии, окончившейся не позицией на доске; -team — если победила команда.
picture-resigned = { $losers }: сдача. Победа: { $winners }
picture-resigned-team = { $losers }: сдача. Победа: { $winners }
picture-won-on-time = Победа по времени: { $winners }
picture-won-on-time-team = Победа по времени: { $winners }
picture-won = Победа: { $winners }
picture-won-team = Победа: { $winners }
picture-drawn = Ничья
picture-drawn-agreed = Ничья по соглашению
picture-aborted = Прервана без результата
