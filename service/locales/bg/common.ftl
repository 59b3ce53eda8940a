# Думи, общи за целия бот: игрите, местата и отборите, бутоните.

game-konane = Конане
game-koan = Коан
game-kolowis = Коловис Авитлакнаннай
game-coan-ki = Коан Ки
game-pachisi = Пачиси

seat-white = Белите
seat-black = Черните
seat-south = Юг
seat-east = Изток
seat-north = Север
seat-west = Запад
seat-unknown = ?
team-south-north = Юг и Север
team-east-west = Изток и Запад

players-2 = 2 играчи
players-2-or-4 = 2 или 4 играчи

moderators-change-settings = променят настройките
moderators-grant = дават монети
moderators-take = отнемат монети
moderators-abort = прекратяват чужди партии
moderators-reset-rating = нулират рейтинги
button-join-season = Запиши се
button-begin-season = Започни
moderators-seasons = отварят и започват сезони

button-join = Включи се
button-start = Започни
button-cancel = Отмени
button-start-computers = Започни с компютъра
button-accept = Приеми
button-decline = Откажи
button-earlier = По-рано

# Името на езика на самия него: казва го `/language`.
language-name = български
language-shown = Говоря ви на { $name } ({ $code }). /language <код> избира друг език ({ $known }); /language auto следва езика на приложението ви.
language-set = Отсега ви говоря на { $name } ({ $code }) във всичко, което виждате само вие; целият чат вижда езика, избран от модераторите.
language-auto = Изборът ви е забравен: следвам езика на приложението ви, иначе този на чата; сега е { $name } ({ $code }).

# Отрязъци време, до минута.
duration-days = { $n ->
    [one] { $n } ден
   *[other] { $n } дни
}
duration-hours = { $n ->
    [one] { $n } час
   *[other] { $n } часа
}
duration-minutes = { $n ->
    [one] { $n } минута
   *[other] { $n } минути
}
duration-two = { $first } { $second }
duration-less-than-a-minute = по-малко от минута

# За какво се играе и колко бързо ($stake 0: приятелска партия).
terms = { $stake ->
    [0] приятелска
   *[other] залог { $coins } от всеки
}, { $time } за ход
terms-sentence = { $stake ->
    [0] Приятелска партия
   *[other] Залог { $coins } от всеки, в банката до края на партията
}; { $time } за ход
button-resign = Предай партията
button-abort = Прекрати партията
button-keep-playing = Продължи играта
button-claim = Поискай победата
button-replay = Повторение
button-record = Запис
button-rematch = Реванш
button-accept-draw = Приеми реми
button-decline-draw = Откажи
button-accept-takeback = Приеми връщането
button-decline-takeback = Откажи
button-all-moves = Всички ходове

move-piece = { $from } → { $steps }
move-same-piece = { $from } → { $first } и { $second }
move-two-pieces = { $first }, { $second }
move-remove = Махни { $cell }
move-pass = Пас
move-throw = Хвърли каурите
move-skip = Пропусни хвърлянето
move-done = Откажи се от останалото
move-enter = Вкарай фигура с { $value }
move-group = { $count } фигури { $from } → { $steps }
move-homeward = { $square } към дома

notify-shown = Известията и напомнянията ви във всички чатове: когато е ваш ред, съобщавам ви { $place }; напомняне по средата на времето за ход — { $halftime }; последно напомняне (когато остава една десета от времето) — { $lastcall }.
notify-saved = Запазено.
notify-on = включено
notify-off = изключено
notify-halftime = Напомняне по средата на времето: { $state }.
notify-lastcall = Последно напомняне: { $state }.
notify-button-halftime-on = Включи напомнянето по средата
notify-button-halftime-off = Изключи напомнянето по средата
notify-button-lastcall-on = Включи последното напомняне
notify-button-lastcall-off = Изключи последното напомняне
notify-place-chat = в чата на партията (със споменаване на дъската)
notify-place-private = с лично съобщение (на дъската сте посочени без споменаване)
notify-place-both = и в чата на партията, и с лично съобщение
notify-place = Когато е ваш ред, съобщавам ви { $place }.
notify-button-chat = Казвай ми в чата
notify-button-private = Казвай ми лично
notify-button-both = И двете
notify-unreachable = Още не успях да ви пиша лично: отворете личен чат с мен и стартирайте бота (в Discord разрешете лични съобщения от членовете на този сървър) и известията ще идват там.
notify-quiet = Тихи часове: { $from }–{ $to } ({ $zone }); тогава не ви пиша лично, а каквото се натрупа, изпращам, когато свършат.
notify-quiet-none = Няма тихи часове.
notify-button-quiet-off = Изключи тихите часове
notify-place-digest = само в ежедневен личен обзор (на дъската сте посочени без споменаване)
notify-digest = Обзорът идва всеки ден в { $at } ({ $zone }), ако някоя партия чака вашия ход.
notify-button-digest = Ежедневен обзор
