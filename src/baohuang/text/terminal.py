"""The terminal game's words (终端): the status of the seat to act, prompts and help, the
``simulate``, ``arena`` and ``replay`` commands. ``baohuang play --lang en`` switches to English.
"""

from __future__ import annotations

#: message id -> (Chinese, English)
TERMINAL: dict[str, tuple[str, str]] = {
    # status of the seat to act
    "st.hand": ("手牌（{n} 张）", "hand ({n} cards)"),
    "st.role": ("身份", "role"),
    "st.counts": ("各家牌数", "cards per seat"),
    "st.current": ("当前牌", "current play"),
    "st.lead": ("{seat} 出的 {play}（{cards}）", "{play} ({cards}) by {seat}"),
    # prompts and input
    "prompt.candidate": (
        "你是皇帝候选人，牌堆 {pile}：{options}？",
        "you are the candidate, pile {pile}: {options}?",
    ),
    "prompt.call": ("请叫牌：{options}", "call: {options}"),
    "prompt.call.call": ("call {card}（叫三张）", "call {card} (a triple)"),
    "prompt.call.shown": ("solo {card}（明独）", "solo {card} (open solo, 明独)"),
    "prompt.call.solo": ("solo（明独保）", "solo (open solo, 明独保)"),
    "prompt.or": ("或", "or"),
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
    "prompt.escape_sure": (
        "确定逃跑吗？逃跑记 -30 分，本局结束（输入 是 确定）> ",
        "Escape for good? It scores -30 and ends the game (type yes to confirm)> ",
    ),
    "play.escape_kept": ("不逃了，接着打", "not escaping: play on"),
    "play.auto_pass": ("要不起，自动过", "nothing beats it: passed by itself"),
    "help.legal": ("合法动作（共 {n} 种）：{actions}", "legal actions ({n}): {actions}"),
    "help.more": ("……还有 {n} 种", "... and {n} more"),
    "prompt.choose": ("请选择：{options}", "choose: {options}"),
    "prompt.poll.solo": (
        "明独吗？solo（明独）或 pass（过）",
        "declare open solo? solo (明独) or pass",
    ),
    "prompt.poll.show.guard": (
        "你是保皇派：明保还是暗保？show（明保）或 pass（暗保）",
        "you are the guard: show yourself? show (明保) or pass (暗保)",
    ),
    "prompt.poll.show.other": (
        "保皇派在选明保还是暗保：你不是保皇派，请 pass（过）",
        "the guard chooses whether to show itself (明保): you are not the guard, so pass",
    ),
    "prompt.poll.rebel.guard": (
        "问造反：你是保皇派，请 pass（不造反）",
        "asking for rebellion (造反): you are the guard, so pass",
    ),
    "prompt.poll.rebel.other": (
        "造反吗？两家以上造反就成功：rebel（造反）或 pass（不造反）",
        "rebel (造反)? two or more rebels succeed: rebel or pass",
    ),
    "prompt.poll.kick": ("踢吗？kick（踢）或 pass（不踢）", "kick (踢)? kick or pass"),
    "prompt.poll.grab": (
        "抢独吗？grab（抢独）或 pass（不抢）",
        "grab the solo (抢独)? grab or pass",
    ),
    "help.commands": (
        "输入：出牌 BB999、9 9 9 B B 或 9h 9h 9s B B；过/pass；同意/登基/accept；"
        "放弃/让位/decline；call 9h 叫牌；solo 9h 或 solo 明独；transfer 转让；show 明保；"
        "rebel 造反；kick 踢；grab 抢独；pass 也就是 暗保/不造反/不踢/不抢；tribute 2h 进贡；"
        "逃跑/escape（-30 分）；help/? 帮助；quit 退出",
        "enter: a play BB999, 9 9 9 B B or 9h 9h 9s B B; pass/过; accept/同意/登基; "
        "decline/放弃/让位; call 9h; solo 9h or solo (明独); transfer (转让); show (明保); "
        "rebel (造反); kick (踢); grab (抢独); pass also means staying hidden (暗保), "
        "no rebellion, no kick, no grab; tribute 2h; escape/逃跑 (-30 points); help/? for help; "
        "quit to leave",
    ),
    "err.notation": ("输入有误：{msg}", "bad input: {msg}"),
    "err.illegal": ("不合规则：{msg}", "not legal: {msg}"),
    "bye": ("已退出。", "left the game."),
    "play.intro": (
        "保皇 · {preset} · 种子 {seed} · 你坐座位0，另外四家是{bots}机器人。"
        "输入 help 或 ? 查看合法动作",
        "Baohuang · {preset} · seed {seed} · you are seat 0 against four {bots} bots. "
        "Type help or ? for the legal actions",
    ),
    "err.bot": ("没有机器人 {name}：可选 {names}", "unknown bot {name}: bots are {names}"),
    "err.bot_extra": (
        "机器人 {name} 需要安装 baohuang[rl]：pip install 'baohuang[rl]'",
        "the {name} bot needs the [rl] extra: pip install 'baohuang[rl]'",
    ),
    "err.bot_model": ("{name}：读不了模型（{reason}）", "{name}: cannot read the model ({reason})"),
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
    "sim.rebellion": ("造反成功率", "successful rebellions (造反)"),
    "sim.open_guard": ("明保率", "open guards (明保)"),
    "sim.kick": ("踢率", "kicks (踢)"),
    "sim.yields": ("平均每局放弃/让位次数", "declines / yields per game"),
    "sim.escapes": ("逃跑率", "escapes (逃跑)"),
    "sim.void": ("废牌率（作废副数/发牌副数）", "void deals / deals"),
    "sim.decisions": ("平均每局决策数", "decisions per game"),
    "sim.plays": ("平均每局出牌数", "plays per game"),
    "sim.games_rate": ("局/秒", "games/s"),
    "sim.decisions_rate": ("决策/秒", "decisions/s"),
    "sim.records": ("对局记录已写入 {path}", "records written to {path}"),
    # arena
    "arena.progress": ("复式赛", "arena"),
    "arena.title": (
        "复式赛：{bots}（{preset}，{games} 副牌 × {seatings} 种座位，种子 {seed}）",
        "duplicate arena: {bots} ({preset}, {games} deals × {seatings} seatings, seed {seed})",
    ),
    "arena.col.bot": ("机器人", "bot"),
    "arena.col.mean": ("每局得分", "points/game"),
    "arena.col.ci": ("95% 置信区间", "95% CI"),
    "arena.col.emperor": ("皇帝胜率、得分", "emperor wins, points"),
    "arena.col.guard": ("保皇派胜率、得分", "guard wins, points"),
    "arena.col.rebel": ("反贼胜率、得分", "rebel wins, points"),
    "arena.col.solo": ("独打胜率、得分", "solo wins, points"),
    "arena.col.ms": ("平均决策 ms", "decision ms"),
    "arena.col.p95": ("p95 决策 ms", "p95 ms"),
    "arena.bots": (
        "--bots 要写 2 到 5 个不同的机器人，用逗号分开，如 heuristic,random，不是 {bots}",
        "--bots takes 2 to 5 different bots separated by commas, like heuristic,random, not {bots}",
    ),
    "arena.json": ("结果已写入 {path}", "results written to {path}"),
    # replay
    "replay.title": ("回放 {path}", "replay of {path}"),
    "replay.seed": ("发牌种子 {seed}", "dealt from seed {seed}"),
    "replay.seed.game": (
        "发牌种子 {seed}：种子 {base} 的第 {n} 局",
        "dealt from seed {seed}: game {n} of seed {base}",
    ),
    "replay.match": (
        "第 {n}/{games} 局，比赛种子 {base}",
        "game {n} of {games}, match seed {base}",
    ),
    "replay.unfinished": ("记录中的对局没有打完", "the recorded game is not finished"),
    "replay.error": ("记录有误：{msg}", "bad record: {msg}"),
    "analyse.title": (
        "复盘 {path}：座位{seat}，每步 {deals} 副推演的牌",
        "analysis of {path}: seat {seat}, {deals} deals a decision",
    ),
    "analyse.progress": ("复盘中", "analysing"),
    "analyse.no_seat": ("座位要在 0 到 4 之间，不是 {seat}", "the seat is 0 to 4, not {seat}"),
    "analyse.col.move": ("步", "move"),
    "analyse.col.phase": ("阶段", "phase"),
    "analyse.col.played": ("打出", "played"),
    "analyse.col.best": ("最佳", "best"),
    "analyse.col.moves": ("期望得分（最佳在前）", "expected points (best first)"),
    "analyse.col.loss": ("损失", "loss"),
    "analyse.mistake": ("失误", "mistake"),
    "analyse.summary": (
        "共 {decisions} 个决定：最佳 {best:.0%}，失误 {mistakes} 次，"
        "损失合计 {lost:.2f} 分；本局得分 {points}",
        "{decisions} decisions: best {best:.0%}, {mistakes} mistakes, {lost:.2f} points lost "
        "in all; points this game {points}",
    ),
    "analyse.outlook": ("每步之后的期望得分", "expected points after each decision"),
}
