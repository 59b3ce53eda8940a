# Слова, общие для всего бота: игры, места и команды, кнопки.

game-konane = Конане
game-koan = Коан
game-kolowis = Коловис Авитлакнаннаи
game-coan-ki = Коан Ки
game-pachisi = Пачиси

seat-white = Белые
seat-black = Чёрные
seat-south = Юг
seat-east = Восток
seat-north = Север
seat-west = Запад
seat-unknown = ?
team-south-north = Юг и Север
team-east-west = Восток и Запад

players-2 = 2 игрока
players-2-or-4 = 2 или 4 игрока

moderators-change-settings = менять настройки
moderators-grant = выдавать монеты
moderators-take = забирать монеты
moderators-abort = прерывать чужие партии

button-join = Присоединиться
button-start = Начать
button-cancel = Отменить
button-start-computers = Начать с компьютером
button-accept = Принять
button-decline = Отклонить
button-earlier = Раньше

# Название языка на нём самом: его называет `/language`.
language-name = русский
language-shown = Я говорю с вами на языке «{ $name }» ({ $code }). /language <код> выбирает другой язык ({ $known }); /language auto — язык вашего приложения.
language-set = Теперь я говорю с вами на языке «{ $name }» ({ $code }) во всём, что видите только вы; весь чат видит язык, выбранный модераторами.
language-auto = Ваш выбор забыт: я следую языку вашего приложения, иначе языку чата; сейчас это { $name } ({ $code }).
