//! The vocabularies the corpora are drawn from, written for placemat (word lists,
//! not texts: the generator in `mod.rs` shuffles them into sentences).
//!
//! Each list is one string of whitespace-separated entries, so adding a word is
//! adding a word. None of them contains a sentence; sentences only exist once the
//! seeded generator has picked and ordered words.

/// English: common nouns, verbs, adjectives and function words (plain ASCII).
pub const ENGLISH: &str = "
the a an this that these those some every each no other another same whole
and or but so yet because while when where after before since until although if
in on at by for with from into onto over under between through across behind near
of about around against along among beside beyond during inside outside without
is was are were be been being has had have do does did will would can could may
might must shall should
table chair window door kitchen garden river mountain valley forest street bridge
city village harbor island market station library school office factory farm
machine engine wheel rope ladder bucket hammer needle thread button pocket jacket
letter paper pencil notebook drawer shelf lamp candle mirror blanket pillow clock
morning evening night winter summer spring autumn weather storm cloud rain snow
wind sun moon star sky field meadow stone sand shell wave boat ship sail anchor
coffee tea bread butter cheese apple orange lemon onion potato soup salt sugar
friend neighbor teacher student doctor farmer sailor baker painter writer driver
child mother father sister brother uncle aunt cousin grandmother stranger guest
question answer story reason result problem method pattern signal message number
language alphabet character symbol sentence word page chapter title margin corner
dog cat horse sheep goat rabbit fox owl crow sparrow fish whale bee ant spider
walks runs reads writes builds carries opens closes finds loses keeps gives takes
brings sends paints folds cuts counts measures repeats forgets remembers explains
answers asks waits sleeps wakes listens watches follows leaves returns arrives
grows falls rises turns breaks fixes cleans cooks bakes sells buys borrows lends
walked read wrote built carried opened closed found lost kept gave took brought
sent painted folded counted measured forgot remembered explained asked waited
slept listened watched followed returned arrived grew fell turned fixed cleaned
small large tiny huge narrow wide short long heavy light quiet loud early late
old young new ancient modern warm cold wet dry bright dark clean dusty simple
strange careful patient clever tired hungry happy sad brave gentle busy lazy
red blue green yellow brown gray white black silver golden wooden crooked round
slowly quickly quietly carefully suddenly finally almost always never often
sometimes rarely today tomorrow yesterday here there everywhere nowhere again
one two three four five six seven eight nine ten twelve hundred thousand first
second third last next only enough several many few most less more
";

/// Russian: nouns, verbs, adjectives, adverbs and prepositions.
pub const RUSSIAN: &str = "
и а но или что как когда где если потому хотя пока чтобы тоже уже ещё только
в на под над за перед между через из от до для без про около после у к с о
стол стул окно дверь кухня сад река гора долина лес улица мост город деревня
гавань остров рынок вокзал библиотека школа контора завод поле луг камень песок
ракушка волна лодка корабль парус якорь машина колесо верёвка лестница ведро
молоток игла нитка пуговица карман куртка письмо бумага карандаш тетрадь ящик
полка лампа свеча зеркало одеяло подушка часы утро вечер ночь зима лето весна
осень погода буря облако дождь снег ветер солнце луна звезда небо чай кофе хлеб
масло сыр яблоко апельсин лимон лук картошка суп соль сахар друг сосед учитель
ученик врач фермер моряк пекарь художник писатель водитель ребёнок мать отец
сестра брат дядя тётя бабушка дедушка гость вопрос ответ рассказ причина задача
способ узор сигнал сообщение число язык азбука буква знак слово страница глава
собака кошка лошадь овца коза кролик лиса сова ворона воробей рыба кит пчела
муравей паук дом комната крыша печь огонь вода земля дорога тропинка берег
идёт бежит читает пишет строит несёт открывает закрывает находит теряет хранит
даёт берёт приносит посылает рисует складывает режет считает измеряет повторяет
забывает помнит объясняет спрашивает ждёт спит просыпается слушает смотрит
следует уходит возвращается приходит растёт падает поднимается ломает чинит
моет варит печёт продаёт покупает шёл читал писал строил нёс открыл закрыл нашёл
потерял дал взял принёс послал нарисовал сложил посчитал забыл вспомнил объяснил
спросил ждал спал слушал смотрел вернулся пришёл вырос упал починил
маленький большой крошечный огромный узкий широкий короткий длинный тяжёлый
лёгкий тихий громкий ранний поздний старый молодой новый древний тёплый холодный
мокрый сухой светлый тёмный чистый пыльный простой странный осторожный терпеливый
умный усталый голодный весёлый грустный смелый добрый занятой ленивый красный
синий зелёный жёлтый коричневый серый белый чёрный серебряный золотой деревянный
медленно быстро тихо осторожно вдруг наконец почти всегда никогда часто иногда
редко сегодня завтра вчера здесь там везде нигде снова опять очень совсем
один два три четыре пять шесть семь восемь девять десять сто тысяча первый
второй третий последний следующий несколько много мало
";

/// Chinese: two- and one-character words (no spaces between words in the text).
pub const CHINESE: &str = "
我们 你们 他们 她们 自己 大家 这个 那个 这些 那些 每个 一些 什么 怎么 为什么 哪里
桌子 椅子 窗户 房门 厨房 花园 河流 高山 山谷 森林 街道 桥梁 城市 村庄 港口 海岛
市场 车站 图书馆 学校 办公室 工厂 农场 机器 轮子 绳子 梯子 水桶 锤子 针线 纽扣
口袋 外套 信封 纸张 铅笔 本子 抽屉 书架 台灯 蜡烛 镜子 毯子 枕头 钟表 早上 晚上
夜里 冬天 夏天 春天 秋天 天气 风暴 云彩 雨水 雪花 大风 太阳 月亮 星星 天空 田野
草地 石头 沙子 贝壳 海浪 小船 大船 船帆 铁锚 咖啡 茶叶 面包 黄油 奶酪 苹果 橙子
柠檬 洋葱 土豆 汤 盐 糖 朋友 邻居 老师 学生 医生 农民 水手 面包师 画家 作家 司机
孩子 母亲 父亲 姐姐 妹妹 哥哥 弟弟 叔叔 阿姨 奶奶 爷爷 客人 问题 答案 故事 原因
结果 办法 图案 信号 消息 数字 语言 字母 汉字 符号 句子 词语 页面 章节 标题 角落
小狗 小猫 马 羊 山羊 兔子 狐狸 猫头鹰 乌鸦 麻雀 鱼 鲸鱼 蜜蜂 蚂蚁 蜘蛛 房子 屋顶
炉子 火 水 土地 道路 小路 岸边 走路 跑步 阅读 写字 建造 搬运 打开 关上 找到 丢失
保存 给 拿 带来 寄出 画画 折叠 剪开 数数 测量 重复 忘记 记得 解释 回答 问 等待
睡觉 醒来 听 看 跟着 离开 回来 到达 生长 落下 升起 转身 打破 修理 打扫 做饭 烤
卖 买 借 正在 已经 还 也 都 就 才 又 再 很 非常 有点 特别 一直 常常 有时 从来
总是 今天 明天 昨天 这里 那里 到处 小 大 窄 宽 短 长 重 轻 安静 吵闹 早 晚 旧
年轻 新 古老 温暖 寒冷 湿 干 明亮 黑暗 干净 简单 奇怪 小心 耐心 聪明 累 饿 高兴
难过 勇敢 温柔 忙 懒 红色 蓝色 绿色 黄色 棕色 灰色 白色 黑色 银色 金色 木头
的 了 着 过 在 和 跟 把 被 从 向 对 给 比 如果 因为 所以 但是 虽然 而且 或者
一 二 三 四 五 六 七 八 九 十 百 千 万 第一 最后 下一个 几个 许多 很少
";

/// Korean nouns (followed by a particle in the generated text).
pub const KOREAN_NOUNS: &str = "
책상 의자 창문 문 부엌 정원 강 산 골짜기 숲 거리 다리 도시 마을 항구 섬 시장 역
도서관 학교 사무실 공장 농장 기계 바퀴 밧줄 사다리 양동이 망치 바늘 실 단추
주머니 외투 편지 종이 연필 공책 서랍 선반 등불 초 거울 담요 베개 시계 아침
저녁 밤 겨울 여름 봄 가을 날씨 폭풍 구름 비 눈 바람 해 달 별 하늘 들판 풀밭
돌 모래 조개 파도 배 돛 닻 커피 차 빵 버터 치즈 사과 귤 레몬 양파 감자 국
소금 설탕 친구 이웃 선생님 학생 의사 농부 선원 제빵사 화가 작가 운전사 아이
어머니 아버지 누나 언니 형 오빠 동생 삼촌 이모 할머니 할아버지 손님 질문 대답
이야기 이유 결과 방법 무늬 신호 소식 숫자 언어 글자 한글 기호 문장 낱말 쪽
장 제목 구석 강아지 고양이 말 양 염소 토끼 여우 부엉이 까마귀 참새 물고기
고래 벌 개미 거미 집 방 지붕 난로 불 물 땅 길 오솔길 바닷가 노래 그림 사진
";

/// Korean particles attached to a noun.
pub const KOREAN_PARTICLES: &str = "은 는 이 가 을 를 에 에서 으로 로 와 과 의 도 만 까지 부터 처럼 보다";

/// Korean adverbs and adjectives that stand before a verb.
pub const KOREAN_MODIFIERS: &str = "
천천히 빨리 조용히 조심스럽게 갑자기 마침내 거의 언제나 자주 가끔 드물게 오늘
내일 어제 여기 저기 다시 아주 매우 조금 많이 함께 혼자 벌써 아직 곧 늘 작은 큰
좁은 넓은 짧은 긴 무거운 가벼운 조용한 시끄러운 오래된 젊은 새 따뜻한 차가운
젖은 마른 밝은 어두운 깨끗한 간단한 이상한 똑똑한 피곤한 배고픈 행복한 슬픈
용감한 부드러운 바쁜 게으른 빨간 파란 초록 노란 하얀 검은
";

/// Korean sentence-final verb forms.
pub const KOREAN_VERBS: &str = "
걷습니다 달립니다 읽습니다 씁니다 짓습니다 나릅니다 엽니다 닫습니다 찾습니다
잃어버립니다 줍니다 받습니다 가져옵니다 보냅니다 그립니다 접습니다 자릅니다
셉니다 잽니다 되풀이합니다 잊습니다 기억합니다 설명합니다 묻습니다 기다립니다
잡니다 일어납니다 듣습니다 봅니다 따라갑니다 떠납니다 돌아옵니다 도착합니다
자랍니다 떨어집니다 올라갑니다 고칩니다 청소합니다 요리합니다 굽습니다 팝니다
삽니다 빌립니다 걸었다 읽었다 썼다 지었다 열었다 닫았다 찾았다 주었다 보냈다
그렸다 잊었다 물었다 기다렸다 잤다 들었다 보았다 떠났다 돌아왔다 자랐다
고쳤다 만들었다 노래했다 웃었다 울었다 걸어요 읽어요 써요 열어요 찾아요 줘요
봐요 들어요 기다려요 웃어요 있어요 없어요 좋아요 싫어요 해요 가요 와요
";

/// Emoji, single scalars and multi-scalar sequences (skin tones, ZWJ families,
/// flags, variation selectors, keycaps).
pub const EMOJI: &str = "
😀 😃 😄 😁 😆 😅 😂 🤣 😊 😇 🙂 🙃 😉 😌 😍 🥰 😘 😋 😛 😜 🤪 😎 🤓 🧐 🤔 🤨 😐
😑 😶 🙄 😏 😣 😥 😮 🤐 😯 😪 😫 🥱 😴 😷 🤒 🤕 🤢 🤮 🤧 🥵 🥶 🥴 😵 🤯 🤠 🥳 😭
😱 😤 😡 🤬 👍 👎 👌 ✌️ 🤞 🤟 🤘 👏 🙌 👐 🤲 🙏 💪 👋 👍🏻 👍🏽 👍🏿 👋🏼 🙏🏾 💪🏽
❤️ 🧡 💛 💚 💙 💜 🖤 🤍 🤎 💔 ❣️ 💕 💞 💓 💗 💖 💘 💝 ✨ ⭐ 🌟 💫 🔥 💥 💯 ✅ ❌
🐶 🐱 🐭 🐹 🐰 🦊 🐻 🐼 🐨 🐯 🦁 🐮 🐷 🐸 🐵 🐔 🐧 🐦 🐤 🦆 🦉 🐺 🐗 🐴 🦄 🐝 🐛
🦋 🐌 🐞 🐜 🕷️ 🐢 🐍 🦎 🐙 🦑 🦀 🐡 🐠 🐟 🐬 🐳 🐋 🦈 🌵 🌲 🌳 🌴 🌱 🌿 🍀 🍁 🍂
🍏 🍎 🍐 🍊 🍋 🍌 🍉 🍇 🍓 🍒 🍑 🥭 🍍 🥥 🥝 🍅 🥑 🥦 🌽 🥕 🍞 🧀 🍳 🍕 🍔 🍟 🌮
☕ 🍵 🍺 🍷 🎂 🍰 🍪 🍫 🍬 ⚽ 🏀 🏈 ⚾ 🎾 🏐 🎱 🏓 🎯 🎮 🎲 🧩 🎨 🎬 🎤 🎧 🎸 🎹
🚗 🚕 🚙 🚌 🚎 🏎️ 🚓 🚑 🚒 🚲 🛴 🛶 ⛵ 🚀 ✈️ 🚁 🚂 🏠 🏡 🏢 🏰 🗼 🗽 ⛲ ⛺ 🌋 🗻
☀️ 🌤️ ⛅ 🌧️ ⛈️ 🌩️ ❄️ ☃️ ⛄ 🌈 🌊 💧 ☔ ⏰ ⌛ 📱 💻 ⌨️ 🖨️ 📷 📚 📖 ✏️ 📝 📌 📎
👨‍👩‍👧 👨‍👩‍👧‍👦 👩‍👩‍👦 👨‍💻 👩‍🔬 🧑‍🍳 👩‍🚀 🏳️‍🌈 🧑‍🤝‍🧑 ❤️‍🔥 🐈‍⬛ 🐻‍❄️ 🇫🇷 🇯🇵 🇰🇷 🇺🇦 🇧🇷 🇨🇦 🇳🇬
🇮🇳 🇩🇪 🇲🇽 1️⃣ 2️⃣ 3️⃣ #️⃣ 🆗 🆒 🆕 ™️ ©️ ®️ ‼️ ⁉️
";
