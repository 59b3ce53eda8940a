# Уеб страница на партията (issue 41): собствените думи на страницата.
page-title = Партия { $game } ({ $name })
page-players = Играчи
page-moves = Ходове
page-no-moves = Все още няма ходове.
page-board = Дъската
page-position-text = Позицията в текст
page-step = Преглед на партията ход по ход
page-start = Начало
page-live = На живо: страницата следи партията, докато се играе.
page-offline = Повторно свързване…
page-dice = Ангажимент за заровете
page-seed = Семе
page-seed-later = Семето се показва, когато партията свърши.
page-record = Записът на партията (за tabula verify)
page-replay = Повторението (GIF)
page-roll = хвърляне
