# Уебстраница на партията (issue 41): собствените думи на страницата.
page-title = Партия { $game } ({ $name })
page-players = Играчи
page-moves = Ходове
page-no-moves = Все още няма ходове.
page-board = Дъската
page-position-text = Позицията в текстов вид
page-step = Преглед на партията ход по ход
page-live = На живо: страницата следи партията, докато се играе.
page-offline = Повторно свързване…
page-dice = Отпечатък на заровете
page-seed = Семе
page-seed-later = Семето се показва, когато партията свърши.
page-record = Записът на партията (за tabula verify)
page-replay = Повторението (GIF)

# Позицията с думи — текстовата замяна на дъската за екранни четци: фигурите на всяка страна
# по полета (полетата са нотация).
page-side-pieces = { $side }: { $cells }
page-side-shaped = { $side }, { $shape ->
    [octagonal] осмоъгълни фигури
    [home] фигури у дома
   *[square] квадратни фигури
}: { $cells }
page-side-none = { $side }: няма фигури
# Пачиси: колко фигури чакат да влязат, колко са стигнали у дома и на коя стъпка от пътя са
# останалите.
page-side-pachisi = { $side }: чакат да влязат — { $waiting }, у дома — { $home }, по пътя — { $steps }
page-track-empty = няма
