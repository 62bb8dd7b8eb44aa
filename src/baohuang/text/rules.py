"""The rules in words (规则): ``baohuang rules`` (its one-line summaries and
:func:`baohuang.engine.describe.describe`'s sentences), the presets (R7) and their options."""

from __future__ import annotations

#: message id -> (Chinese, English)
RULES: dict[str, tuple[str, str]] = {
    # the presets (R7) and the rules' options, as the lobby and the summaries name them
    "preset.classic": ("经典", "Classic"),
    "preset.weihai": ("威海", "Weihai"),
    "preset.kk_simple": ("KK简明", "KK Simple"),
    "preset.lianzhong_simple": ("联众简明", "Lianzhong Simple"),
    "preset.kk_classic": ("KK经典", "KK Classic"),
    "preset.lianzhong_classic": ("联众经典", "Lianzhong Classic"),
    "preset.qq": ("QQ", "QQ"),
    "opt.roast": ("烤牌", "roast (烤牌)"),
    "opt.twos_wild": ("2 当百搭", "wild 2s (2 当百搭)"),
    "opt.qq_jokers": ("QQ 王规则", "QQ joker rule"),
    "opt.hold_sixes": ("憋6", "hold sixes (憋6)"),
    "opt.hold_threes": ("清3", "hold threes (清3)"),
    "opt.ranks_from": ("最小点数", "lowest rank"),
    "opt.qq_chain": ("QQ 传底牌", "the QQ chain (底牌)"),
    "opt.qq_open_guard": ("QQ 明保", "QQ guard showing (明保)"),
    "opt.open_solo_anyone": ("人人可明独", "open solo by anyone (明独)"),
    "opt.yielding": ("让位", "yielding (让位)"),
    "opt.rebellion": ("造反", "rebellion (造反)"),
    "opt.kick": ("踢", "kick (踢)"),
    "opt.grab_solo": ("抢独", "grab solo (抢独)"),
    "opt.tribute": ("进贡", "tribute (进贡)"),
    "opt.dissolve_on_auto": ("有人托管就散局", "a player on auto-play (托管) ends the match"),
    "opt.none": ("没有附加规则", "no extra rules"),
    # baohuang rules: headings, one-line summaries, and describe()'s sentences
    "rules.title": ("保皇规则：{preset}", "Baohuang rules: {preset}"),
    "rules.presets": ("规则预设", "rule presets"),
    "rules.open": ("查看规则", "Read the rules"),
    "rules.preset_name": ("{name}（{code}）", "{name} ({code})"),
    "rules.col.preset": ("预设", "preset"),
    "rules.col.summary": ("简介", "summary"),
    "rules.more": (
        "查看一种预设：baohuang rules 预设名 [--option 键=值]",
        "one preset in full: baohuang rules PRESET [--option key=value]",
    ),
    "rules.docs_error": ("写不了 {path}：{msg}", "cannot write {path}: {msg}"),
    "rules.option_alone": (
        "--option 要跟一个预设一起用，如 baohuang rules classic --option roast=true",
        "--option needs a preset, like: baohuang rules classic --option roast=true",
    ),
    "rules.summary": (
        "{cards}；{hands}；{family}；{features}",
        "{cards}; {hands}; {family}; {features}",
    ),
    "rules.cards": ("{n} 张牌", "{n} cards"),
    "desc.h.cards": ("牌", "Cards and deal"),
    "desc.h.play": ("出牌", "Playing"),
    "desc.h.roles": ("皇帝和保皇派", "Emperor and guard"),
    "desc.h.scoring": ("计分", "Scoring"),
    "desc.h.tribute": ("进贡", "Tribute (进贡)"),
    "desc.family.called": ("叫牌定保皇派（R8）", "the guard is called (R8)"),
    "desc.family.fixed": ("皇牌 大王★ 和保牌 小王★ 定身份（R9）", "marked jokers R* and B* (R9)"),
    "desc.family.kk_classic": ("皇牌 大王★ 加叫保（R11）", "marked R* and a called guard (R11)"),
    "desc.pack": (
        "用 {decks} 副牌：点数 {low} 到 2，加上大王、小王，共 {size} 张。",
        "{decks} decks: ranks {low} to 2 and the jokers, {size} cards in all.",
    ),
    "desc.no_low": ("不用 {ranks}。", "No {ranks}."),
    "desc.removed_sixes": (
        "{decks} 副牌的黑桃6（6s）再去掉 {n} 张。",
        "{n} of the {decks} sixes of spades (6s) are removed too.",
    ),
    "desc.marked.R": (
        "一张大王做了记号，是皇牌 大王★（出牌时就是大王）。",
        "One big joker is marked: the emperor card R* (it plays as R).",
    ),
    "desc.marked.B": (
        "一张小王做了记号，是保牌 小王★（出牌时就是小王）。",
        "One small joker is marked: the guard card B* (it plays as B).",
    ),
    "desc.deal.aside": (
        "一张大王先放在一边当皇牌，其余 {dealt} 张从随机一家开始按出牌顺序逐张发完：{hands}。",
        "One big joker is set aside as the emperor card; the other {dealt} are dealt one by one "
        "in play order from a random seat: {hands}.",
    ),
    "desc.deal.starter": (
        "没有牌放在一边，从起手家开始按出牌顺序逐张发完 {dealt} 张：{hands}；"
        "第一局起手家是随机一家，以后是上一局的皇帝。",
        "Nothing is set aside: all {dealt} cards are dealt one by one in play order from the "
        "starter: {hands}; the starter is a random seat in the first game, then the previous "
        "game's emperor.",
    ),
    "desc.deal.dealer": (
        "从庄家开始按出牌顺序逐张发完 {dealt} 张：{hands}；第一局庄家是座位0，以后是上一局的皇帝。",
        "All {dealt} cards are dealt one by one in play order from the dealer: {hands}; the "
        "dealer is seat 0 in the first game, then the previous game's emperor.",
    ),
    "desc.hands.even": ("每家 {n} 张", "{n} cards each"),
    "desc.hands.uneven": ("各家 {sizes} 张", "{sizes} cards per hand"),
    "desc.power": (
        "大小：{order} < 小王 B < 大王 R；花色不分大小。",
        "Power: {order} < small joker B < big joker R; suits never matter.",
    ),
    "desc.order": (
        "出牌顺序：座位 i 之后是座位 i+1；后一家是下家，前一家是上家。",
        "Play order: seat i, then seat i+1; the next seat is your next player (下家), the one "
        "before your previous player (上家).",
    ),
    "desc.sets": (
        "一套牌：同一点数的任意张，可以挂任意张王（挂花）；纯王也行，如 R、BB、RBBB。"
        "顺子和杂牌都不行。",
        "A play is any number of cards of one rank plus any number of jokers (挂花); pure jokers "
        "like R, BB, RBBB are plays too. No straights, no mixed ranks.",
    ),
    "desc.twos_wild": (
        "2 可以混进别的点数，当那个点数用（R5.2）。",
        "A 2 may fill a set of another rank and counts as that rank (R5.2).",
    ),
    "desc.beat": (
        "压牌：张数相同，两套牌都从大到小排好，每张都要严格大过对应的那张（R4）。"
        "如 8888 压 7777，RBBB 压 AAAA；不挂王的牌压不住挂王的；挂大王的牌没人压得住。",
        "To beat a play: the same number of cards, each card strictly higher than the card in "
        "the same place, both sorted high to low (R4). So 8888 beats 7777 and RBBB beats AAAA; "
        "a plain set never beats a joker-hung one; a play with a big joker is never beaten.",
    ),
    "desc.beat_qq": (
        "压牌：张数相同，点数更高；对方挂了 b 张大王、s 张小王，就要至少 2b+s 张大王，"
        "自己的小王不算（QQ 王规则，R5.2）。",
        "To beat a play: the same number of cards and a higher rank; against b big and s small "
        "jokers you need at least 2b+s big jokers, your small ones do not count (QQ rule, R5.2).",
    ),
    "desc.roast": (
        "烤牌（R5.1）：对方挂王时可以用张数不同的牌压：王的分量（小王 1，大王 2）要更大，"
        "非王部分要么都没有，要么张数相同、点数更高。如 R 压 B，BBB 压 R。",
        "Roast (烤牌, R5.1): a play with jokers may be beaten at another size by more joker "
        "power (B 1, R 2) and a non-joker part that is empty when the other's is, or else of "
        "the same count and a higher rank. R beats B, BBB beats R.",
    ),
    "desc.rounds": (
        "皇帝先出第一轮。有牌的人轮流压牌或过，过了轮回来还可以压；其余人都过了，"
        "最后出牌的人领下一轮（R6）。",
        "The emperor leads the first round. In turn each player with cards beats the play or "
        "passes, and may play again when the turn comes back; when all others have passed, the "
        "last player leads the next round (R6).",
    ),
    "desc.jiefeng": (
        "接风：一轮最后一手是某人出完的牌，就由他下家里还有牌的人领出（R6.5）。",
        "Taking over the lead (接风): when a round's last play went out, the next player still "
        "holding cards leads (R6.5).",
    ),
    "desc.places": (
        "先出完的依次是头科、二科、三科、二落，最后剩牌的是大落。",
        "Players out first to last are 1st (头科), 2nd (二科), 3rd (三科), 4th (二落); the last "
        "one holding cards is 5th (大落).",
    ),
    "desc.hold_sixes": (
        "憋6（R6.7）：带 6 的牌必须是最后一手，所有的 6 一起最后出（可以挂王）。",
        "Hold sixes (憋6, R6.7): a play with a 6 must be the last play of the hand, so all "
        "6s go out together at the end (jokers may hang on).",
    ),
    "desc.hold_threes": (
        "清3（R6.8）：3 也要最后一起出；出完一手后剩下的牌能和 3 一起一手出完（{rest}），"
        "这手牌就不能被压，被压了就是被清3，下一局要给清3的人进贡一张最大的牌。",
        "Hold threes (清3, R6.8): 3s also go out last, together; the play after which all that "
        "is left could go out with the 3s in one play ({rest}) must go unbeaten; whoever beats "
        "it clears the 3s and gets the cleared player's highest card as tribute next game.",
    ),
    "desc.hold_threes.jokers": ("3 加王", "3s and jokers"),
    "desc.hold_threes.twos": ("3 加王，2 也可以配", "3s and jokers, 2s filling in"),
    "desc.triple": (
        "可叫的三张：同一张牌（点数和花色都相同，不是 2 也不是王）有三张或更多。",
        "A callable triple is three or more copies of one suited card (same rank and suit, "
        "not a 2, not a joker).",
    ),
    "desc.r8.candidate": (
        "随机一家先当皇帝候选人，拿到皇牌（放在一边的大王）。没有可叫三张的候选人自动放弃。",
        "A random seat is the first candidate and gets the emperor card (the joker set aside). "
        "A candidate with no callable triple declines automatically.",
    ),
    "desc.r8.decline": (
        "候选人 同意（当皇帝，收下皇牌和传来的 2）或 放弃：把它们交给上家，"
        "并添上自己的一张 2（有的话；第一个候选人第一次不添）。",
        "The candidate accepts (同意: emperor, taking the pile of the emperor card and the 2s "
        "handed along) or declines (放弃), handing the pile plus one own 2, if any, to the "
        "previous player (上家; the first candidate adds none on its first turn).",
    ),
    "desc.r8.void": (
        "五家都放弃，第一个候选人收下牌堆再选一次；再放弃，这副牌作废，重新发牌。",
        "If all five decline, the first candidate gets the pile and chooses once more; if it "
        "declines again the deal is void and dealt anew.",
    ),
    "desc.r8.call": (
        "皇帝叫一张可叫的三张（叫牌）：持有第四张的人是保皇派，只有他自己知道；"
        "他打出这张牌就亮明身份。",
        "The emperor calls one of its callable triples: the holder of the 4th copy is the "
        "guard (保皇派), known only to themself until they play that card.",
    ),
    "desc.r8.dark": (
        "第四张也在皇帝手里：暗独，一个人对四家，别人不知道。",
        "If the emperor holds the 4th copy too, it is a dark solo (暗独): alone against four, "
        "in secret.",
    ),
    "desc.r8.qq_candidate": (
        "起手家先当皇帝候选人，牌堆（底牌）是空的。没有可叫三张的候选人自动放弃。",
        "The starter is the first candidate, with an empty pile (底牌). A candidate with no "
        "callable triple declines automatically.",
    ),
    "desc.r8.qq_decline": (
        "候选人 同意（当皇帝，收下牌堆）或 放弃：往牌堆添一张牌再交给上家，起手家添最大的"
        "（大王，没有就小王，再没有就一张 2），其他人添一张 2（没有就小王，再没有就大王）。",
        "The candidate accepts (同意: emperor, taking the pile) or declines (放弃), adding a card "
        "to the pile and handing it to the previous player (上家): the starter its biggest (R, "
        "else B, else a 2), anyone else a 2 (else B, else R).",
    ),
    "desc.r8.show": (
        "明保：叫牌之后，从皇帝的下家起依次问每一家；保皇派可以亮出叫的那张牌明保，别人只能过。"
        "明保以后，皇帝头科、保皇派二科才收贡，否则进贡（R10.3 只定进贡）；分数 ×2。",
        "Showing the guard (明保): after the call every other seat is asked in turn from the "
        "emperor's next player (下家); the guard may show its copy of the called card, the "
        "others can only pass. Once the guard is shown the emperor's side receives tribute "
        "only with the emperor 1st and the guard 2nd, and pays it otherwise (R10.3 decides "
        "tribute only); points ×2.",
    ),
    "desc.r8.open": (
        "明独：亮出同一张牌的四张（不是 2 也不是王），一个人公开对四家。",
        "Open solo (明独): show four copies of one suited card (not a 2, not a joker) and play "
        "alone against four, openly.",
    ),
    "desc.r9.cards": (
        "拿到皇牌 大王★ 的人是皇帝，拿到保牌 小王★ 的人是保皇派（保牌不能转手）。",
        "The holder of R* is the emperor, the holder of B* the guard (B* cannot be handed on).",
    ),
    "desc.r9.open_anyone": (
        "先问明独：从拿 大王★ 的人开始按出牌顺序，每家都可以宣布明独（不需要 大王★）；"
        "第一个宣布的人当皇帝，一个人公开对四家。",
        "First, open solo (明独): from the R* holder in play order anyone may declare it, R* "
        "or not; the first to declare is the emperor, alone against four, openly.",
    ),
    "desc.r9.yield": (
        "拿 大王★ 的人可以登基，也可以让位给上家：第一个让位的只交 大王★，之后每个让位的再添一张 2"
        "（没有 2 就添最大的非王牌）。两圈都没人登基，重新发牌。",
        "The R* holder may take the throne (登基) or yield (让位) to the previous player (上家): "
        "the first yielder hands on only R*, each later one adds a 2 (or, without one, its "
        "highest non-joker). "
        "Two laps without an emperor: the cards are dealt anew.",
    ),
    "desc.r9.forced": (
        "拿 大王★ 的人必须登基，不能让位。",
        "The R* holder must take the throne (登基); no yielding.",
    ),
    "desc.r9.both.transfer": (
        "同时拿到 大王★ 和 小王★ 的人可以：独保（明独，一个人公开对四家）；登基不声明"
        "（暗独：又是皇帝又是保皇派，别人不知道）；或者 转让（把 大王★ 交给上家，上家必须登基，"
        "自己还是保皇派，因为只有拿着 小王★ 才能转让，大家就知道了）。",
        "A player holding both R* and B* chooses: an open solo (独保), alone against four, "
        "openly; to take the throne without a word (登基), a dark solo (暗独): emperor and guard "
        "at once, in secret; or to transfer R* (转让) to the previous player (上家), who must be "
        "emperor, staying the guard, known to all since only B*'s holder may transfer.",
    ),
    "desc.r9.both.yield": (
        "同时拿到 大王★ 和 小王★ 的人可以：独保（明独，一个人公开对四家）；登基不声明"
        "（暗独：又是皇帝又是保皇派，别人不知道）；或者像别人一样让位：只交 大王★，保牌留在手里，"
        "自己是保皇派，看起来和别人让位一样。",
        "A player holding both R* and B* chooses: an open solo (独保), alone against four, "
        "openly; to take the throne without a word (登基), a dark solo (暗独): emperor and guard "
        "at once, in secret; or to yield like anyone, handing on R* alone and keeping B* as the "
        "guard: the yield looks like anyone else's.",
    ),
    "desc.r9.guard": (
        "皇帝定下以后，先从皇帝的下家起依次问明保：保皇派可以明保（亮明身份）或暗保（过），"
        "别人只能过，看不出谁是保皇派；打出 小王★ 也就亮明了。",
        "Once the emperor is settled, every other seat is asked first whether to show the guard "
        "(明保), in turn from the emperor's next player (下家): the guard may show itself (明保) "
        "or stay hidden (暗保, a pass), "
        "the others can only pass, so nobody learns who the guard is; playing B* reveals it "
        "too.",
    ),
    "desc.r11.card": (
        "拿皇牌 大王★ 的人可以登基，也可以让位给上家（不添 2）；没有可叫三张的人自动让位。"
        "传完一圈后，能当的就必须当皇帝，除非手里有同一张牌四张（还可以让）；两圈都没人当，"
        "重新发牌。",
        "The R* holder may take the throne (登基) or yield (让位) to the previous player (上家), "
        "adding no 2s; a "
        "player without a callable triple yields automatically. After one lap a candidate able "
        "to be emperor must be, unless it holds four identical cards (it may still yield); if "
        "nobody is emperor after the second lap, the cards are dealt anew.",
    ),
    "desc.r11.call": (
        "皇帝叫一张可叫的三张：持第四张的人是保皇派；第四张也在自己手里，或者叫四张相同的牌，"
        "就是暗独保（一个人打，别人不知道）；也可以宣布明独保，一个人公开对四家。",
        "The emperor calls a callable triple: the holder of the 4th copy is the guard; holding "
        "it too, or calling four identical cards, is a dark solo (暗独保, alone, in secret); or "
        "the emperor declares open solo (明独保), alone against four, openly.",
    ),
    "desc.r11.grab": (
        "抢独：皇帝没有明独保时，其余各家依次被问；有三张以上的王、又有同一张牌四张的人"
        "可以抢独。往上家方向离皇帝最近的抢独者当皇帝，一个人公开对四家，"
        "其余（包括原来的皇帝）都是反贼。",
        "Grab solo (抢独): unless the emperor declared open solo, every other seat is asked in "
        "turn; a player with three or more jokers and four copies of one suited card may claim "
        "it. The claimant nearest the emperor going round by previous players (上家) becomes the "
        "emperor, alone "
        "against four, openly; everyone else, the old emperor too, is a rebel.",
    ),
    "desc.rebellion": (
        "造反：从皇帝的下家开始按出牌顺序问皇帝以外的每一家；反贼可以造反，保皇派只能不造反，"
        "外人看不出是谁不造反。两家以上造反就成功：保皇派（或暗独）的身份公开。",
        "Rebellion (造反): every seat but the emperor is asked in play order from the emperor's "
        "next player (下家); a rebel may rebel, the guard may only pass, and a pass looks the "
        "same whoever "
        "makes it. Two or more rebels make it succeed: the guard (or a dark solo) is revealed.",
    ),
    "desc.kick": (
        "踢：明独、明保或造反成功之后，跟这个声明对立的一方可以踢；只要有一家踢，就算踢了。",
        "Kick (踢): after an open solo, a shown guard (明保) or a successful rebellion, the side "
        "opposing that "
        "declaration may kick; one kick is enough.",
    ),
    "desc.place_points": ("名次分：{points}。", "Place points: {points}."),
    "desc.team": (
        "T 是皇帝方（皇帝和保皇派；一个人打时只有皇帝）的名次分之和。",
        "T, the team score, is the sum of the place points of the emperor's side (emperor and "
        "guard; the emperor alone when solo).",
    ),
    "desc.win": (
        "胜负看皇帝方得分的正负：为正皇帝方胜，为负反贼胜，为零平局（即 T > 0、T < 0、T = 0）。",
        "Who wins is the sign of the emperor side's points: positive, the emperor's side wins; "
        "negative, the rebels; zero, a draw (T > 0, T < 0, T = 0).",
    ),
    "desc.points.guard": (
        "有保皇派时：皇帝得 {emperor}，保皇派得 {guard}，每个反贼得 {rebel}。",
        "With a guard: the emperor scores {emperor}, the guard {guard}, each rebel {rebel}.",
    ),
    "desc.example": (
        "例：皇帝头科（{pe}）、保皇派二落（{pg}），T = {t}：皇帝 {e}，保皇派 {g}，每个反贼 {r}。",
        "Example: emperor 1st ({pe}), guard 4th ({pg}), T = {t}: emperor {e}, guard {g}, "
        "each rebel {r}.",
    ),
    "desc.points.solo": (
        "一个人打（暗独）：皇帝得 {emperor}，按皇帝的名次是 {table}；其余每家得 {rebel}。",
        "Alone (dark solo, 暗独): the emperor scores {emperor}, that is {table} by its place; "
        "each other player {rebel}.",
    ),
    "desc.open.factor": ("{name}：分数 ×{factor}。", "{name}: scores ×{factor}."),
    "desc.open.table": (
        "{name}：皇帝头科得 {win}，其余每家 {others_win}；"
        "皇帝不是头科得 {lose}，其余每家 {others_lose}。",
        "{name}: the emperor scores {win} if 1st, each other {others_win}; otherwise "
        "the emperor scores {lose}, each other {others_lose}.",
    ),
    # the open solo as each family calls it (R8.7; R9.2, R9.3; R11.3, R11.4)
    "desc.open.name.called": ("明独", "Open solo (明独)"),
    "desc.open.name.fixed": ("明独（独保、明独保）", "Open solo (明独, 独保, 明独保)"),
    "desc.open.name.kk_classic": ("明独保（抢独也是）", "Open solo (明独保, or grabbed: 抢独)"),
    "desc.x.rebellion": ("造反成功", "a successful rebellion (造反)"),
    "desc.x.open_guard": ("明保", "a shown guard (明保)"),
    "desc.x.kicked": ("踢", "a kick (踢)"),
    "desc.x.item": ("{what} ×{factor}", "{what} ×{factor}"),
    "desc.x.either": (
        "{first}或{second} ×{factor}（只算一次）",
        "{first} or {second} ×{factor} (once)",
    ),
    "desc.multipliers": ("加倍（可以叠加）：{items}。", "Multipliers (they stack): {items}."),
    "desc.multipliers.solo": ("一个人打时的加倍：{items}。", "Multipliers for a solo — {items}."),
    "desc.x.dark": ("暗独", "Dark solo (暗独)"),
    "desc.x.solo": ("{who} {items}", "{who}: {items}"),
    "desc.x.open_guard_none": (
        "明保、暗保都不改变分数。",
        "Showing the guard (明保) or not (暗保) does not change the score.",
    ),
    "desc.escape": (
        "逃跑（R10.4）：中途离开的人得 {points} 分，本局结束，其他人不计分。",
        "Escape (逃跑, R10.4): a player who leaves a game for good scores {points}; the game "
        "ends unscored for the others.",
    ),
    "desc.tribute.when": (
        "下一局发完牌、定皇帝之前，上一局输的一方进贡：交出自己最大的牌，不还贡；平局不进贡。",
        "After the next game's deal, before the emperor is chosen, the losing side of the last "
        "game pays its highest cards; none are returned (不还贡); a draw pays nothing.",
    ),
    "desc.tribute.qq": (
        "QQ：谁进贡按QQ规则，与胜负无关（R10.3）：皇帝头科，皇帝方收贡，保皇派大落则平贡；"
        "保皇派头科，皇帝二科收贡，三科平贡，二落或大落进贡；明保以后皇帝头科、保皇派二科"
        "才收贡，否则进贡；其余 T > 0 收贡，T < 0 进贡，T = 0 平贡。所以一方可以得分赢了还要进贡。",
        "In QQ who pays is QQ's rule, not who won (R10.3): emperor 1st, the emperor's side "
        "receives (收贡) unless the guard is last (nobody pays, 平贡); guard 1st, it receives if "
        "the emperor is 2nd, nobody pays if 3rd (平贡), it pays (进贡) if 4th or 5th; after a "
        "shown guard (明保) it receives only with the emperor 1st and the guard 2nd; otherwise "
        "T > 0 receives, T < 0 pays, T = 0 nobody pays. A side can win on points and still pay.",
    ),
    "desc.tribute.emperor": (
        "皇帝方赢（有保皇派）：每个反贼进贡 {n} 张；保皇派拿 {total} 张里大小居中的一张，"
        "其余归皇帝。",
        "The emperor's side wins with a guard: each rebel pays {n}; the guard takes the middle "
        "card of the {total}, the emperor the rest.",
    ),
    "desc.tribute.rebels": (
        "反贼赢：皇帝进贡 {emperor} 张，保皇派 {guard} 张；"
        "反贼按名次各拿一张，名次最好的拿最大的。",
        "The rebels win: the emperor pays {emperor}, the guard {guard}; the rebels take one "
        "each, the best placed the highest.",
    ),
    "desc.tribute.solo_win": (
        "一个人打赢：其余每家进贡 {n} 张给皇帝。",
        "A solo emperor wins: each other player pays the emperor {n}.",
    ),
    "desc.tribute.solo_loss": (
        "一个人打输：皇帝进贡 {n} 张，每家一张，名次好的拿大的。",
        "A solo emperor loses: the emperor pays {n}, one to each other player, better "
        "finishers taking higher cards.",
    ),
    "desc.tribute.open": (
        "明独：以上张数都 ×{factor}。",
        "Open solo (明独): every number ×{factor}.",
    ),
}
