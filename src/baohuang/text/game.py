"""The game's own words (游戏用语), shared by the terminal and the page: seats, roles, places,
outcomes, phases, polls and their answers, cards, bots, the quick signals.

皇帝 emperor, 保皇派 guard, 反贼 rebel, 明独 open solo, 暗独 dark solo, 头科 … 大落, 过 pass.
"""

from __future__ import annotations

#: message id -> (Chinese, English)
GAME: dict[str, tuple[str, str]] = {
    # seats; lists of them (、) and of clauses (，)
    "seat": ("座位{seat}", "seat {seat}"),
    "seat.you": ("座位{seat}（你）", "seat {seat} (you)"),
    "sep.list": ("、", ", "),
    "sep.label": ("：", ": "),
    "sep.clause": ("，", ", "),
    "none": ("无", "none"),
    # roles (R8, R9, R11), solos, places (R6.4), outcomes (R10), a match's games
    "role.emperor": ("皇帝", "emperor"),
    "role.guard": ("保皇派", "guard"),
    "role.rebel": ("反贼", "rebel"),
    "role.unknown": ("未定", "undecided"),
    "role.candidate": ("候选", "candidate"),
    "role.escaped": ("逃跑", "escaped"),
    "role.solo": ("独", "solo"),
    "solo.open": ("明独", "open solo"),
    "solo.dark": ("暗独", "dark solo"),
    "place.1": ("头科", "1st"),
    "place.2": ("二科", "2nd"),
    "place.3": ("三科", "3rd"),
    "place.4": ("二落", "4th"),
    "place.5": ("大落", "5th"),
    "outcome.emperor": ("皇帝方胜", "the emperor's side wins"),
    "outcome.rebels": ("反贼胜", "the rebels win"),
    "outcome.draw": ("平局", "a draw"),
    "outcome.escape": ("有人逃跑，本局不计分", "a player escaped: the game is unscored"),
    "game.header": ("第 {n}/{total} 局", "game {n}/{total}"),
    # a game's phases, the emperor's pile (R8.5), the called card
    "phase.tribute": ("进贡", "tribute"),
    "phase.candidate": ("选皇帝", "choosing the emperor"),
    "phase.call": ("叫牌", "calling"),
    "phase.poll": ("表态", "declaring"),
    "phase.poll.of": ("表态：{poll}", "declaring: {poll}"),
    "phase.play": ("出牌", "playing"),
    "phase.over": ("本局结束", "game over"),
    "pile": ("牌堆", "pile"),
    "pile.empty": ("（空）", "(empty)"),
    "st.called": ("叫牌", "called card"),
    # polls (R9, R11) and the answers of the role phases
    "poll.solo": ("明独", "open solo (明独)"),
    "poll.show": ("明保", "showing the guard (明保)"),
    "poll.rebel": ("造反", "rebellion (造反)"),
    "poll.kick": ("踢", "a kick (踢)"),
    "poll.grab": ("抢独", "grab solo (抢独)"),
    "act.pass": ("过", "pass"),
    "act.escape": ("逃跑", "escape"),
    "act.accept": ("登基", "Take the throne (登基)"),
    "act.decline": ("放弃", "Decline (放弃)"),
    "act.yield": ("让位", "Yield (让位)"),
    "act.call": ("叫 {card}", "Call {card}"),
    "act.solo_card": ("明独（亮四张 {card}）", "Open solo (show four {card})"),
    "act.solo": ("明独", "Open solo (明独)"),
    "act.solo_both": ("独保", "Solo (独保)"),
    "act.solo_kk": ("明独保", "Open solo (明独保)"),
    "act.transfer": ("转让", "Transfer (转让)"),
    "act.show": ("明保", "Show (明保)"),
    "act.hide": ("暗保", "Stay hidden (暗保)"),
    "act.no_show": ("不明保", "Don't show (不明保)"),
    "act.rebel": ("造反", "Rebel (造反)"),
    "act.no_rebel": ("不造反", "No rebellion (不造反)"),
    "act.kick": ("踢", "Kick (踢)"),
    "act.no_kick": ("不踢", "No kick (不踢)"),
    "act.grab": ("抢独", "Grab (抢独)"),
    "act.no_grab": ("不抢", "No grab (不抢)"),
    "act.no_solo": ("不明独", "No open solo (不明独)"),
    "act.tribute": ("进贡 {card}", "Pay {card}"),
    # cards
    "card.big": ("大王", "big joker"),
    "card.small": ("小王", "small joker"),
    "card.big.face": ("大王", "JOKER"),
    "card.small.face": ("小王", "JOKER"),
    # bots
    "bot.name": ("机器人{seat}", "Bot {seat}"),
    # bot levels as a player reads them, weakest first (the registry's names in brackets in
    # English): random, the seeds' 托管 policy, the network alone, heuristic, search, strong
    "bot.random": ("新手", "novice (random)"),
    "bot.auto": ("入门", "beginner (auto)"),
    "bot.learned": ("学徒", "apprentice (learned)"),
    "bot.heuristic": ("普通", "regular (heuristic)"),
    "bot.search": ("高手", "expert (search)"),
    "bot.strong": ("大师", "master (strong)"),
    # the quick signals (心战) a seat may send at a table
    "signal.hurry": ("快点吧，等得花儿都谢了", "Hurry up, please"),
    "signal.nice": ("打得漂亮！", "Nice play!"),
    "signal.partner": ("我是保皇派，别打我！", "I'm on your side!"),
    "signal.sorry": ("不好意思，手滑了", "Sorry, slip of the hand"),
    "signal.thanks": ("谢谢配合", "Thanks for the help"),
    "signal.again": ("再来一局！", "One more game!"),
}
