"""The narration of engine events (docs/record-format.md), one template per line told.

The terminal (:class:`baohuang.cli.terminal.Narrator`) and the page's log
(``server/static/tablelog.js``) choose these templates the same way and fill their
``{fields}``, each in its own words: a seat field (``seat``, ``to``, ``from``, ``by``, ``leader``,
``dealer``, ``guard_seat``) as the seat's name, ``seats`` and ``rebels`` as a list of names,
cards as cards, ``place``, ``outcome`` and ``poll`` as the words of ``place.*``, ``outcome.*``
and ``poll.*``, ``payers`` as the ``event.tribute_due.payer*`` lines joined, ``auto`` (a
candidate with no callable triple, R8.5) as ``event.auto`` or nothing.
"""

from __future__ import annotations

#: message id -> (Chinese, English)
NARRATION: dict[str, tuple[str, str]] = {
    # the deal and the tribute (R7, R12, R6.8)
    "event.deal": ("发牌（第 {deal} 副）：各家 {counts} 张", "deal #{deal}: {counts} cards each"),
    "event.deal.dealer": (
        "发牌（第 {deal} 副）：各家 {counts} 张（从 {dealer} 开始发牌）",
        "deal #{deal}: {counts} cards each (dealt from {dealer})",
    ),
    "event.hand": ("你的手牌：{hand}", "your hand: {hand}"),
    "event.hand_of": ("{seat} 的手牌：{hand}", "{seat}'s hand: {hand}"),
    "event.tribute_due": ("进贡：{payers}", "tribute (进贡): {payers}"),
    "event.tribute_due.payer": ("{seat} 交 {n} 张", "{seat} pays {n}"),
    "event.tribute_due.payer_to": (
        "{seat} 交 {n} 张给 {to}（清3）",
        "{seat} pays {n} to {to} (清3)",
    ),
    "event.tribute_paid": ("{seat} 进贡", "{seat} pays tribute"),
    "event.tribute_paid.card": ("{seat} 进贡 {card}", "{seat} pays tribute: {card}"),
    "event.tribute": ("{from} 的贡牌交给 {to}", "{from}'s tribute goes to {to}"),
    "event.tribute.card": (
        "{from} 的贡牌 {card} 交给 {to}",
        "{from}'s tribute {card} goes to {to}",
    ),
    # choosing the emperor (R8, R9.3, R11.2)
    "event.candidate": (
        "{seat} 是皇帝候选人，牌堆：{pile}",
        "{seat} is the candidate, pile: {pile}",
    ),
    "event.decline": ("{seat} 放弃{auto}", "{seat} declines{auto}"),
    "event.decline.added": (
        "{seat} 放弃，并加上一张 {added}{auto}",
        "{seat} declines and adds {added}{auto}",
    ),
    "event.decline.holder": (
        "{seat} 拿着皇牌 大王★，让位给 {to}{auto}",
        "{seat} holds the emperor card R* and yields (让位) to {to}{auto}",
    ),
    "event.auto": ("（没有可叫的三张，自动放弃）", " (no callable triple: automatic)"),
    "event.accept": (
        "{seat} 同意，收下牌堆，当皇帝",
        "{seat} accepts, takes the pile and is the emperor",
    ),
    "event.accept.holder": (
        "{seat} 拿着皇牌 大王★，登基当皇帝",
        "{seat} holds the emperor card R* and takes the throne (登基)",
    ),
    "event.void": (
        "没有人当皇帝：这副牌作废，重新发牌",
        "nobody became emperor: the deal is void, dealing anew",
    ),
    "event.transfer": (
        "{seat} 转让：把皇牌 大王★ 交给 {to}",
        "{seat} transfers the emperor card R* to {to} (转让)",
    ),
    "event.transfer.reveal": ("{seat} 拿着保牌 小王★，是保皇派", "{seat} holds B*: the guard"),
    # the guard: called (R8.6) or marked (R9.3, R9.4); an open replay names it
    "event.call": (
        "{seat} 叫 {card}：持有第四张 {card} 的是保皇派",
        "{seat} calls {card}: the holder of the 4th {card} is the guard",
    ),
    "event.call.forced": (
        "你只有 {card} 这一张牌有三张，已替你叫了",
        "{card} is the only card you hold three of: called for you",
    ),
    "event.call.guard": (
        "你持有第四张 {card}：你是保皇派（只有你自己知道）",
        "you hold the 4th {card}: you are the guard (only you know)",
    ),
    "event.call.dark": (
        "你持有全部四张 {card}：暗独，一个人对四家",
        "you hold all four {card}: dark solo (暗独), alone against four",
    ),
    "event.roles.guard": (
        "你拿着保牌 小王★：你是保皇派（只有你自己知道）",
        "you hold B*: you are the guard (only you know)",
    ),
    "event.roles.dark": (
        "你同时拿着 大王★ 和 小王★：暗独，一个人对四家",
        "you hold both R* and B*: dark solo (暗独), alone against four",
    ),
    "event.guard_is": ("保皇派是 {guard_seat}", "the guard is {guard_seat}"),
    "event.dark": ("皇帝一个人打：暗独", "the emperor plays alone: dark solo (暗独)"),
    # 明独 (R8.7, R9.2, R11.3, R11.4), the polls and their answers (R9, R11)
    "event.open_solo": (
        "{seat} 明独！亮出 {shown}，分数和进贡加倍",
        "{seat} declares open solo (明独)! shows {shown}; scores and tribute doubled",
    ),
    "event.open_solo.declared": (
        "{seat} 明独！一个人公开对四家",
        "{seat} declares open solo (明独): alone against four, openly",
    ),
    "event.open_solo.grabbed": (
        "{seat} 抢独！当皇帝，一个人公开对四家，其余都是反贼",
        "{seat} grabs the solo (抢独): emperor alone against four, everyone else a rebel",
    ),
    "event.poll": ("问{poll}：{seats} 依次表态", "asking for {poll}: {seats} in turn"),
    "event.poll.sealed": (
        "问{poll}：{seats} 同时表态，都表态后一起公布",
        "asking for {poll}: {seats} answer at once, told together when all are in",
    ),
    "event.declare.show": ("{seat} 明保：我是保皇派", "{seat} shows (明保): I am the guard"),
    "event.declare.rebel": ("{seat} 造反！", "{seat} rebels (造反)!"),
    "event.declare.pass.solo": ("{seat} 不明独", "{seat}: no open solo (不明独)"),
    "event.declare.pass.show": ("{seat} 不明保", "{seat}: no showing (不明保)"),
    "event.declare.pass.rebel": ("{seat} 不造反", "{seat}: no rebellion (不造反)"),
    "event.declare.pass.kick": ("{seat} 不踢", "{seat}: no kick (不踢)"),
    "event.declare.pass.grab": ("{seat} 不抢独", "{seat}: no grab (不抢独)"),
    # the rebels' names were told by their 造反 answers
    "event.rebellion.success": (
        "造反成功：分数加倍",
        "the rebellion succeeds (造反): the score is doubled",
    ),
    "event.rebellion.failed": ("造反不成", "the rebellion fails (造反)"),
    "event.kick": ("{seat} 踢！分数再加倍", "{seat} kicks (踢): the score is doubled once more"),
    "event.reveal.guard": ("{seat} 亮明身份：保皇派", "{seat} is revealed as the guard"),
    "event.reveal.solo": (
        "{seat} 亮明身份：暗独，一个人对四家",
        "{seat} is revealed as a dark solo (暗独), alone against four",
    ),
    # playing (R6), 清3 (R6.8), 逃跑 (R10.4), the end
    "event.round": ("{leader} 领出", "{leader} leads"),
    "event.round.jiefeng": (
        "{leader} 接风，领出",
        "{leader} leads: the last play went out (接风)",
    ),
    "event.play": (
        "{seat} 出 {play}（{cards}），剩 {left} 张",
        "{seat} plays {play} ({cards}), {left} left",
    ),
    "event.pass": ("{seat} 过", "{seat} passes"),
    "event.cleared": (
        "{by} 清3：压过了 {seat} 的牌，下一局 {seat} 要给 {by} 进贡一张最大的牌",
        "{by} clears the 3s (清3) of {seat}: next game {seat} pays {by} its highest card",
    ),
    "event.escape": (
        "{seat} 逃跑：得 -30 分，本局结束，其他人不计分",
        "{seat} escapes (逃跑): -30 points, the game ends unscored for the others",
    ),
    "event.out": ("{seat} 出完了：{place}", "{seat} is out: {place}"),
    "event.game_over": ("本局结束：{outcome}", "game over: {outcome}"),
}
