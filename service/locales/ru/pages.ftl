# Веб-страница партии (issue 41): собственные слова страницы.
page-title = Партия { $game } ({ $name })
page-players = Игроки
page-moves = Ходы
page-no-moves = Ходов пока нет.
page-board = Доска
page-position-text = Позиция текстом
page-step = Просмотр партии по ходам
page-live = Вживую: страница обновляется по ходу партии.
page-offline = Переподключение…
page-dice = Отпечаток бросков
page-seed = Зерно
page-seed-later = Зерно будет показано после окончания партии.
page-record = Запись партии (для tabula verify)
page-replay = Повтор (GIF)

# Позиция словами — текстовая замена доски для программ экранного доступа: фишки каждой стороны по
# полям (поля — нотация).
page-side-pieces = { $side }: { $cells }
page-side-shaped = { $side }, { $shape ->
    [octagonal] восьмиугольные фишки
    [home] фишки дома
   *[square] квадратные фишки
}: { $cells }
page-side-none = { $side }: фишек нет
# Пачиси: сколько фишек ждут входа, сколько дошли домой и на каком шаге пути остальные.
page-side-pachisi = { $side }: ждут входа — { $waiting }, дома — { $home }, на пути — { $steps }
page-track-empty = нет
