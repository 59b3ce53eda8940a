# Какво отговаря ботът, когато някой е направил нещо, което не може. Всеки отговор казва какво
# да се направи вместо това. $game и $challenge са номера на партии и покани в чата (пишат се
# #n), $name е име на човек, $command е команда, както се пише.

sorry = Не стана: { $text }

unknown-command = Не познавам командата `{ $command }`. Изпратете /help за списъка с команди.
not-a-command = командите започват с `/`; списъкът е в /help.
usage = как се пише: { $usage }.
bad-arguments = { $error }; как се пише: { $usage }.
parse-missing = липсва `{ $option }`
parse-unknown-game = няма игра `{ $name }`; игрите са konane, koan, kolowis, coan-ki и pachisi
parse-repeated = `{ $option }` се среща повече от веднъж
parse-bad-mention = `{ $value }` не е споменаване; посочвайте хората като @име
parse-too-many-users = посочете най-много { $max } { $max ->
    [one] човек
   *[other] души
}
parse-not-a-number = `{ $option }`: трябва цяло число, а не `{ $value }`
parse-out-of-range = `{ $option }`: трябва число от { $min } до { $max }, а не { $value }
parse-bad-duration = `{ $option }`: трябва време от 1 час до 365 дни, например 3d или 12h, а не `{ $value }`
parse-not-yes-or-no = `{ $option }`: трябва yes или no, а не `{ $value }`
parse-bad-game-number = `{ $value }` не е номер на партия; пишете го като #3
parse-not-key-value = пишете ключ=стойност, а не `{ $value }`
parse-too-many-values = най-много { $max } { $option ->
    [options] параметъра
   *[settings] настройки
} наведнъж
parse-too-long = `{ $option }`: твърде дълго, най-много { $max } { $max ->
    [one] знак
   *[other] знака
}
parse-unknown-topic = няма команда `/{ $value }`
parse-unexpected = `{ $value }` не е ясно тук
unknown-game = няма игра `{ $name }`; игрите са konane, koan, kolowis, coan-ki и pachisi.
wrong-players = { $game } се играе от { $allowed }; посочихте { $named } (заедно със себе си).
unknown-person = още не познавам @{ $name }: нека първо напише нещо тук.
computer-stake = партия срещу компютъра не може да е със залог: махнете stake= (монети се печелят и губят само между хора).
computer-and-people = { $game } срещу компютъра е само за вас: `{ $command }`, или поканете човек без `computer`.
computer-no-seat = { $game } има { $seats ->
    [one] { $seats } място
   *[other] { $seats } места
} и посочихте хора за всички: махнете `computer` или посочете по-малко хора и компютърът ще заеме останалите места.
not-challenger-fill = само авторът на поканата { $challenge } може да даде празните места на компютъра; /accept { $challenge } ви включва.
repeated-player = посочете всеки друг играч по веднъж и не посочвайте себе си.
no-game = в този чат няма текуща партия; започнете с /play <игра>.
which-game = тук има няколко партии ({ $games }); добавете номера, например `{ $example }`.
no-such-game = в този чат няма текуща партия { $game }; списъкът е в /games.
game-over = партия { $game } е приключила.
replay-too-large = повторението на партия { $game } би било { $megabytes } MB, повече, отколкото чатът приема ({ $limit } MB); /export { $game } изпраща записа ѝ, а `tabula rules replay` прави анимацията от него.
not-a-player = не играете в партия { $game }; всеки може да я види с /board { $game }.
draw-offered-already = вече предложихте реми в партия { $game }; предложението важи, докато не направите следващия си ход.
draw-lapsed = това предложение за реми в партия { $game } вече не важи: предложилият вече е направил ход или на предложението вече е отговорено. /draw { $game } предлага реми.
draw-own = това е вашето собствено предложение за реми в партия { $game }; отговаря противникът ви.
draw-two-players = реми се договаря само в партии на двама играчи, а партия { $game } се играе в отбори: продължете играта или /resign { $game }.
draw-computer = компютърът не приема реми: продължете партия { $game } или /resign { $game }.
takeback-nothing = в партия { $game } нямате ход за връщане: може да се върне само собственият ви последен ход, преди някой друг да е играл, и никога хвърляне.
takeback-already = вече помолихте да върнете хода си в партия { $game }; отговаря противникът ви.
takeback-lapsed = тази молба за връщане на ход в партия { $game } вече не важи: оттогава е направен ход или на нея вече е отговорено.
takeback-own = тази молба за връщане на ход в партия { $game } е от вашата страна; отговаря другата страна.
takeback-computer = компютърът не позволява връщане на ходове: продължете партия { $game } или /resign { $game }.
not-your-turn = в партия { $game } не е ваш ред: на ход е { $name } ({ $seat }).
no-move-now = в партия { $game } сега никой не може да играе.
illegal = { $reason }
no-challenge = тук няма покана, която да ви чака; започнете с /play <игра>.
which-challenge = чакат няколко покани ({ $challenges }); добавете номера, например `{ $example }`.
not-invited = поканата { $challenge } не е към вас.
decline-open = поканата { $challenge } е отворена за всички: няма какво да откажете (изтича сама).
not-challenger = само авторът може да отмени поканата { $challenge }.
nobody-joined = никой още не се е включил в поканата { $challenge }; тя започва, щом някой се включи.
not-challenger-start = само авторът може да започне поканата { $challenge } по-рано; /accept { $challenge } ви включва.
own-challenge = не можете да приемете собствената си покана { $challenge }; /cancel я оттегля.
same-challenge = същата покана вече чака: покана { $challenge }. За да я промените, първо /cancel { $challenge }.
no-rolling = ботът хвърля заровете вместо вас; напишете или натиснете ход.
bad-button = този бутон не е разпознат; изпратете /board за нова дъска.
no-such-choice = този избор вече не се предлага; изпратете /board за нова дъска.
game-disabled = играта { $game } е изключена тук от модераторите; игрите тук: { $enabled }.
bad-stake = залогът тук е цяло число монети от 0 до { $max }, например stake={ $example }.
coan-ki-stake = в Коан Ки залогът трябва да е кратен на 10, за да е цяла глобата за две единици (10% от залога).
stakes-off = залозите тук са изключени: модераторите са задали max_stake=0; играйте без stake=.
staked-by-moderators = само модераторите започват партии със залог тук; играйте със stake=0.
in-debt = имате { $balance }: без партии със залог, докато балансът ви не стане отново над нулата (играйте със stake=0).
too-poor = имате { $balance } и не можете да заложите { $stake }; балансът е в /wallet.
cannot-afford = { $name } има { $balance } и не може да заложи { $stake }, затова партията не започва; поканата { $challenge } остава отворена.
bad-time = времето за ход тук е от 1 час до { $max }, например time=3d или time=12h.
not-moderator = само модераторите на този сървър или група могат да { $action }.
no-rating-to-reset = { $person } няма рейтинг в { $name } тук, няма какво да се нулира.
season-none = тук още няма сезон; модератор може да отвори сезон с /season konane days=30 size=8.
season-running = сезон { $season } вече е отворен или тече тук; /season го показва.
season-two-players = сезони се играят в игри за двама, а не в { $name }.
season-not-open = сезон { $season } вече не приема играчи; /season го показва.
season-joined = вече сте записани в сезон { $season }.
season-full = сезон { $season } е пълен.
season-too-few = сезон { $season } започва с поне 3 играчи; засега са се записали { $count }.
bad-setting = { $reason }
bad-amount = сумата е цяло число монети от 1 до { $max }.
take-too-much = { $name } има само { $balance }; вземете най-много толкова.
no-clock = в партия { $game } не тече часовник, така че няма какво да се иска.
own-turn = в партия { $game } е ред на вашата страна: играйте, вместо да искате победа.
too-early = { $name } има още { $left } в партия { $game } (до { $until } UTC); след това можете да поискате победата.
not-due-any-more = часовникът на партия { $game } междувременно е спрян; /board показва оставащото време.
already-moved = партия { $game } е започнала: играчите могат да прекратят партия само преди първото хвърляне или ход; /resign е предаване, а модератор може да я прекрати.
vacation-off = отпуските тук са изключени от модераторите.
bad-vacation = вземете от 1 до { $quota } { $quota ->
    [one] ден
   *[other] дни
} отпуск, например /vacation 2.
vacation-quota = този месец сте взели { $used } от { $quota } { $quota ->
    [one] ден
   *[other] дни
} отпуск; вземете най-много останалите.

board-old = Тази дъска е остаряла: партия { $game } е продължила и сега на ход е { $name }. Най-новата дъска е по-долу.
board-old-moved = Тази дъска е остаряла: партия { $game } е продължила; най-новата дъска е по-долу.
cooling-down = Твърде много отхвърлени команди подред. Моля, изчакайте няколко минути.
already-handled = Това вече е направено; резултатът е в чата.
unavailable = Ботът не може да се свърже с базата данни; опитайте след минута.
internal = Нещо в бота се обърка; записано е в дневника. Опитайте след малко.

# Брой монети с думата.
coins = { $n ->
    [one] { $n } монета
   *[other] { $n } монети
}

unknown-language = няма език `{ $given }`; езиците са { $known }.
setting-what-stake = залогът по подразбиране
setting-what-max-stake = най-големият залог
setting-what-grant = началната сума
setting-what-time = времето за ход по подразбиране
setting-what-max-time = най-дългото време за ход
setting-what-open-wait = времето за чакане на отворена покана
setting-money = { $what } е цяло число монети от 0 до { $max }, а не `{ $value }`.
setting-time = { $what } е между 1 час и 365 дни, например 3d или 12h, а не `{ $value }`.
setting-no-games = посочете поне една игра, например games=konane,koan или games=all.
setting-reminders = reminders е on или off, а не `{ $value }`.
setting-pings = pings е on или off, а не `{ $value }`.
setting-staked-games = staked_games е everyone или moderators, а не `{ $value }`.
setting-vacation = vacation е брой дни на месец от 0 до { $max }, а не `{ $value }`.
setting-count = { $key } е цяло число от { $min } до { $max }, а не `{ $value }`.
setting-language = language е един от { $known } или none (английски), а не `{ $value }`.
setting-unknown-key = няма настройка `{ $key }`; настройките са: { $keys }.
setting-stake-above-max = залогът по подразбиране ({ $stake }) е над най-големия ({ $max }); сменете двата наведнъж, например /config stake={ $example } max_stake={ $example }.
setting-time-above-max = времето за ход по подразбиране ({ $default }) е по-дълго от най-дългото ({ $longest }); сменете двете наведнъж, например /config time={ $time } max_time={ $time }.
question-not-yours = само { $person } може да отговори на този въпрос.
partner-confirms = на това предложение отговаря партньорът ви { $partner }: изчакайте отговора или натиснете „Продължи играта“.
question-lapsed = въпросът отпадна (мина минута или беше направен ход); изпратете { $command } отново.

notify-unknown = няма настройка за напомняния `{ $given }`; опитайте `/notify lastcall on` или `/notify halftime off`.
notify-not-yours = това са чужди настройки; вашите ще видите с /notify.
notify-no-private = тук личните съобщения са недостъпни; с /notify chat споменаванията остават в чата.
mygames-none = нямате текуща партия; започнете нова с /play.
notify-bad-quiet = тихите часове се задават така: `/notify quiet 22:00-08:00 Europe/Sofia` (часовата зона — с името ѝ по IANA или UTC); изключват се с `/notify quiet off`.
notify-unknown-zone = няма часова зона `{ $zone }`; използвайте името ѝ по IANA, например Europe/Sofia, или UTC.
notify-bad-digest = часът на обзора се задава така: `/notify digest 08:00 Europe/Sofia` (часовата зона — с името ѝ по IANA или UTC).
link-not-here = може да се свърже само профил в Telegram с профил в Discord; тук това не е достъпно.
link-in-private = показвам кодовете само лично: изпратете /link в личния си чат с мен.
link-bad-code = `{ $given }` не е код: кодовете са от шест букви и цифри. /link без код ви дава нов.
link-unknown = такъв код няма или валидността му е изтекла; изпратете /link в другата платформа за нов.
link-same-platform = този код е издаден тук: изпратете /link с него в { $platform }.
link-already = вече сте свързани с { $name } в { $platform }; /unlink премахва връзката.
link-they-are-linked = профилът, за който е издаден този код, вече е свързан с друг.
unlink-not-linked = профилът ви не е свързан; /link ще го свърже с профила ви в другата платформа.
setting-threads = threads е on или off, а не `{ $value }`.
setting-pages = pages е on или off, а не `{ $value }`.
setting-threads-here = threads=on изисква канал в сървър на Discord или група в Telegram с включени теми (в настройките на групата); този чат не е нито едно от двете.
