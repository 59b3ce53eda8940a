# Веб-страница партии (issue 41): собственные слова страницы.
page-title = Партия { $game } ({ $name })
page-players = Игроки
page-moves = Ходы
page-no-moves = Ходов пока нет.
page-board = Доска
page-position-text = Позиция текстом
page-step = Просмотр партии по ходам
page-live = В прямом эфире: страница обновляется по ходу партии.
page-offline = Переподключение…
page-dice = Отпечаток костей
page-seed = Зерно
page-seed-later = Зерно будет показано после окончания партии.
page-record = Запись партии (для tabula verify)
page-replay = Повтор (GIF)
