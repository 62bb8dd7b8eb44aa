"""The terminal game's message catalog (界面文字): Chinese first, English with ``--lang en``.

Every user-facing sentence has a message id; :func:`t` looks it up and fills its fields. The
game's own words are used throughout: 皇帝 emperor, 保皇派 guard, 反贼 rebel, 接风, 进贡 tribute,
明独, 暗独, 头科 二科 三科 二落 大落, 过 pass, 同意/放弃.
"""

from __future__ import annotations

from typing import Any

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"

_ZH = 0
_EN = 1

#: message id -> (Chinese, English)
MESSAGES: dict[str, tuple[str, str]] = {
    # seats, roles, places, outcomes
    "seat": ("座位{seat}", "seat {seat}"),
    "seat.you": ("座位{seat}（你）", "seat {seat} (you)"),
    "role.emperor": ("皇帝", "emperor"),
    "role.guard": ("保皇派", "guard"),
    "role.rebel": ("反贼", "rebel"),
    "role.unknown": ("未定", "undecided"),
    "solo.open": ("明独", "open solo"),
    "solo.dark": ("暗独", "dark solo"),
    "place.1": ("头科", "1st"),
    "place.2": ("二科", "2nd"),
    "place.3": ("三科", "3rd"),
    "place.4": ("二落", "4th"),
    "place.5": ("大落", "5th"),
    "outcome.emperor": ("皇帝方胜", "the emperor's side wins"),
    "outcome.rebels": ("造反派胜", "the rebels win"),
    "outcome.draw": ("平局", "a draw"),
    "none": ("无", "none"),
    # events (R8, R6, R12)
    "ev.deal": ("发牌（第 {deal} 副）：各家 {counts} 张", "deal #{deal}: {counts} cards each"),
    "ev.your_hand": ("你的手牌：{hand}", "your hand: {hand}"),
    "ev.hand_of": ("{seat} 的手牌：{hand}", "{seat}'s hand: {hand}"),
    "ev.tribute_due": ("进贡：{payers}", "tribute (进贡): {payers}"),
    "ev.tribute_payer": ("{seat} 交 {n} 张", "{seat} pays {n}"),
    "ev.tribute_paid": ("{seat} 进贡", "{seat} pays tribute"),
    "ev.tribute_paid_card": ("{seat} 进贡 {card}", "{seat} pays tribute: {card}"),
    "ev.tribute_move": ("{src} 的贡牌交给 {dst}", "{src}'s tribute goes to {dst}"),
    "ev.tribute_move_card": (
        "{src} 的贡牌 {card} 交给 {dst}",
        "{src}'s tribute {card} goes to {dst}",
    ),
    "ev.candidate": ("{seat} 是皇帝候选人，牌堆：{pile}", "{seat} is the candidate, pile: {pile}"),
    "ev.decline": ("{seat} 放弃", "{seat} declines"),
    "ev.decline_added": ("{seat} 放弃，并加上一张 {card}", "{seat} declines and adds {card}"),
    "ev.decline_auto": ("（没有可叫的三张，自动放弃）", " (no callable triple: automatic)"),
    "ev.void": (
        "五家都放弃：这副牌作废，重新发牌",
        "everyone declined: the deal is void, dealing anew",
    ),
    "ev.accept": (
        "{seat} 同意，当皇帝，收下 {pile}",
        "{seat} accepts and is emperor, takes {pile}",
    ),
    "ev.call": (
        "皇帝 {seat} 叫 {card}：持有第四张 {card} 的是保皇派",
        "emperor {seat} calls {card}: the holder of the 4th {card} is the guard",
    ),
    "ev.you_guard": (
        "你持有第四张 {card}：你是保皇派（只有你自己知道）",
        "you hold the 4th {card}: you are the guard (only you know)",
    ),
    "ev.you_dark": (
        "你持有全部四张 {card}：暗独，一个人对四家",
        "you hold all four {card}: dark solo (暗独), alone against four",
    ),
    "ev.guard_is": ("保皇派是 {seat}", "the guard is {seat}"),
    "ev.dark_solo": ("皇帝持有全部四张：暗独", "the emperor holds all four: dark solo (暗独)"),
    "ev.open_solo": (
        "皇帝 {seat} 明独！亮出 {shown}，分数和进贡加倍",
        "emperor {seat} declares open solo (明独)! shows {shown}; scores and tribute doubled",
    ),
    "ev.round": ("{seat} 领出", "{seat} leads"),
    "ev.jiefeng": ("{seat} 接风，领出", "{seat} leads by 接风 (the last play went out)"),
    "ev.play": (
        "{seat} 出 {play}（{cards}），剩 {left} 张",
        "{seat} plays {play} ({cards}), {left} left",
    ),
    "ev.pass": ("{seat} 过", "{seat} passes"),
    "ev.reveal": (
        "{seat} 打出叫牌，亮明身份：保皇派",
        "{seat} played the called card: revealed as the guard",
    ),
    "ev.out": ("{seat} 出完了：{place}", "{seat} is out: {place}"),
    "ev.game_over": ("本局结束：{outcome}", "game over: {outcome}"),
    # status of the seat to act
    "st.hand": ("手牌（{n} 张）", "hand ({n} cards)"),
    "st.role": ("身份", "role"),
    "st.called": ("叫牌", "called card"),
    "st.counts": ("各家牌数", "cards per seat"),
    "st.current": ("当前牌", "current play"),
    "st.lead": ("{seat} 出的 {play}（{cards}）", "{play} ({cards}) by {seat}"),
    # prompts and input
    "prompt.candidate": (
        "你是皇帝候选人，牌堆 {pile}：同意 还是 放弃？",
        "you are the candidate, pile {pile}: accept or decline?",
    ),
    "prompt.call": (
        "请叫牌：call 9h（叫三张）或 solo 9h（明独）",
        "call a triple (call 9h) or declare open solo (solo 9h)",
    ),
    "prompt.tribute": (
        "请进贡一张最大的牌：tribute 2h",
        "pay your highest card as tribute: tribute 2h",
    ),
    "prompt.lead": (
        "轮到你领出：出牌如 BB999 或 9h 9h 9s B B",
        "your lead: a play like BB999 or 9h 9h 9s B B",
    ),
    "prompt.follow": ("压过 {play}，或者 过", "beat {play}, or pass"),
    "prompt.input": ("你> ", "you> "),
    "help.legal": ("合法动作（共 {n} 种）：{actions}", "legal actions ({n}): {actions}"),
    "help.more": ("……还有 {n} 种", "... and {n} more"),
    "help.commands": (
        "输入：出牌 BB999 或 9h 9h 9s B B；过/pass；同意/accept；放弃/decline；"
        "call 9h；solo 9h；tribute 2h；help/? 帮助；quit 退出",
        "enter: a play BB999 or 9h 9h 9s B B; pass/过; accept/同意; decline/放弃; "
        "call 9h; solo 9h; tribute 2h; help/? for help; quit to leave",
    ),
    "err.notation": ("输入有误：{msg}", "bad input: {msg}"),
    "err.illegal": ("不合规则：{msg}", "not legal: {msg}"),
    "bye": ("已退出。", "left the game."),
    "game.header": ("第 {n}/{total} 局", "game {n}/{total}"),
    "play.intro": (
        "保皇 · {preset} · 种子 {seed} · 你坐座位0，另外四家是随机机器人。"
        "输入 help 或 ? 查看合法动作",
        "Baohuang · {preset} · seed {seed} · you are seat 0 against four random bots. "
        "Type help or ? for the legal actions",
    ),
    # tables
    "results.title": ("第 {n} 局结果：{outcome}", "game {n} result: {outcome}"),
    "results.final": ("最终得分：{outcome}", "final scores: {outcome}"),
    "col.place": ("名次", "place"),
    "col.seat": ("座位", "seat"),
    "col.role": ("身份", "role"),
    "col.points": ("得分", "points"),
    "col.total": ("总分", "total"),
    "totals.title": ("比赛总分（{games} 局）", "match totals ({games} games)"),
    # simulate
    "sim.progress": ("模拟对局", "simulating"),
    "sim.title": (
        "模拟 {games} 局（{preset}，种子 {seed}，随机机器人）",
        "{games} games ({preset}, seed {seed}, random bots)",
    ),
    "sim.metric": ("指标", "metric"),
    "sim.value": ("数值", "value"),
    "sim.win": ("皇帝方胜率", "emperor side wins"),
    "sim.draw": ("平局率", "draws"),
    "sim.loss": ("皇帝方负率", "emperor side losses"),
    "sim.dark": ("暗独率", "dark solo (暗独) rate"),
    "sim.open": ("明独率", "open solo (明独) rate"),
    "sim.void": ("废牌率（作废副数/发牌副数）", "void deals / deals"),
    "sim.decisions": ("平均每局决策数", "decisions per game"),
    "sim.plays": ("平均每局出牌数", "plays per game"),
    "sim.games_rate": ("局/秒", "games/s"),
    "sim.decisions_rate": ("决策/秒", "decisions/s"),
    "sim.records": ("对局记录已写入 {path}", "records written to {path}"),
    # replay
    "replay.title": ("回放 {path}（种子 {seed}）", "replay of {path} (seed {seed})"),
    "replay.unfinished": ("记录中的对局没有打完", "the recorded game is not finished"),
    "replay.error": ("记录有误：{msg}", "bad record: {msg}"),
}


def t(key: str, lang: str = DEFAULT_LANG, **fmt: Any) -> str:
    """The message ``key`` in ``lang`` (``zh`` or ``en``) with ``fmt`` filled in."""
    texts = MESSAGES[key]
    text = texts[_EN] if lang == "en" else texts[_ZH]
    return text.format(**fmt) if fmt else text
