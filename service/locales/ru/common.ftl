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
moderators-reset-rating = сбрасывать рейтинги
button-join-season = Записаться
button-begin-season = Начать
moderators-seasons = открывать и начинать сезоны

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

# Промежутки времени, с точностью до минуты.
duration-days = { $n ->
    [one] { $n } день
    [few] { $n } дня
    [many] { $n } дней
   *[other] { $n } дня
}
duration-hours = { $n ->
    [one] { $n } час
    [few] { $n } часа
    [many] { $n } часов
   *[other] { $n } часа
}
duration-minutes = { $n ->
    [one] { $n } минута
    [few] { $n } минуты
    [many] { $n } минут
   *[other] { $n } минуты
}
duration-two = { $first } { $second }
duration-less-than-a-minute = меньше минуты

# На что играют и как быстро ($stake 0 — товарищеская партия).
terms = { $stake ->
    [0] товарищеская
   *[other] ставка { $coins } с каждого
}, { $time } на ход
terms-sentence = { $stake ->
    [0] Товарищеская партия
   *[other] Ставка { $coins } с каждого, в банке до конца партии
}; { $time } на ход
button-resign = Сдаться
button-abort = Прервать партию
button-keep-playing = Играть дальше
button-claim = Потребовать победу
button-replay = Повтор
button-record = Запись
button-rematch = Реванш
button-accept-draw = Согласиться на ничью
button-decline-draw = Отклонить
button-accept-takeback = Согласиться на отмену
button-decline-takeback = Отказаться
button-all-moves = Все ходы

move-piece = { $from } → { $steps }
move-same-piece = { $from } → { $first } и { $second }
move-two-pieces = { $first }, { $second }
move-remove = Убрать { $cell }
move-pass = Пас
move-throw = Бросить каури
move-skip = Пропустить бросок
move-done = Отказаться от остального
move-enter = Ввести фишку броском { $value }
move-group = { $count } { $count ->
    [one] фишка
    [few] фишки
   *[other] фишек
} { $from } → { $steps }
move-homeward = { $square } к дому

notify-shown = Ваши оповещения и напоминания во всех чатах: о вашем ходе я сообщаю { $place }; напоминание на полпути (прошла половина времени на ход) — { $halftime }; последнее напоминание (осталась десятая часть времени) — { $lastcall }.
notify-saved = Сохранено.
notify-on = включено
notify-off = выключено
notify-halftime = Напоминание на полпути: { $state }.
notify-lastcall = Последнее напоминание: { $state }.
notify-button-halftime-on = Включить напоминание на полпути
notify-button-halftime-off = Выключить напоминание на полпути
notify-button-lastcall-on = Включить последнее напоминание
notify-button-lastcall-off = Выключить последнее напоминание
notify-place-chat = в чате партии (с упоминанием на доске)
notify-place-private = лично вам (на доске ваше имя стоит без упоминания)
notify-place-both = и в чате партии, и лично
notify-place = О вашем ходе я сообщаю { $place }.
notify-button-chat = Сообщать в чате
notify-button-private = Сообщать лично
notify-button-both = И там, и там
notify-unreachable = Написать вам лично пока не удалось: откройте личный чат со мной и нажмите «Запустить» (в Discord разрешите личные сообщения от участников этого сервера), и оповещения будут приходить туда.
notify-quiet = Тихие часы: { $from }–{ $to } ({ $zone }); в это время я ничего не пишу лично, а всё, что накопится, пришлю, когда они закончатся.
notify-quiet-none = Тихих часов нет.
notify-button-quiet-off = Отключить тихие часы
notify-place-digest = только в ежедневной личной сводке (на доске ваше имя стоит без упоминания)
notify-digest = Сводка приходит каждый день в { $at } ({ $zone }), если какая-нибудь партия ждёт вашего хода.
notify-button-digest = Ежедневная сводка
