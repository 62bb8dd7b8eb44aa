"""Results (R10): a game's and a match's scores, in the terminal's tables and the page's
results window."""

from __future__ import annotations

#: message id -> (Chinese, English)
RESULTS: dict[str, tuple[str, str]] = {
    "results.title": ("第 {n} 局结果：{outcome}", "Game {n} result: {outcome}"),
    "results.final": ("最终得分：{outcome}", "Final scores: {outcome}"),
    "totals.title": ("比赛总分（{games} 局）", "Match totals ({games} games)"),
    "totals.so_far": ("本场至今（{games} 局）", "The match so far ({games} games)"),
    # the results window stays open while the next game goes on behind it
    "results.next_game": ("第 {n} 局已经开始", "Game {n} has begun"),
    "col.place": ("名次", "Place"),
    "col.seat": ("座位", "Seat"),
    "col.player": ("玩家", "Player"),
    "col.role": ("身份", "Role"),
    "col.points": ("得分", "Points"),
    "col.total": ("总分", "Total"),
    "col.game": ("第{n}局", "G{n}"),
    # T and its multipliers (R10.1, R10.2), escapes (R10.4), 托管 (R13)
    "results.t": ("皇帝方名次分 T = {t}", "T (place points of the emperor's side) = {t}"),
    "results.t_final": ("T = {t}", "T = {t}"),
    "results.rule": (
        "皇帝得 2T（独打 4T），保皇派得 T，反贼各得 −T（T 乘过倍数）",
        "The emperor gets 2T (4T alone), the guard T, each rebel −T (T after the factors)",
    ),
    "factor.open_solo": ("明独", "open solo (明独)"),
    "factor.rebellion": ("造反", "rebellion (造反)"),
    "factor.open_guard": ("明保", "guard shown (明保)"),
    "factor.kicked": ("踢", "kick (踢)"),
    "factor.open_solo_fixed": ("明独：T 为 ±8", "open solo: T is ±8"),
    "flag.open_guard": ("明保", "guard shown (明保)"),
    "flag.rebellion": ("造反成功 ×2", "rebellion succeeded (造反) ×2"),
    "flag.kicked": ("踢 ×2", "kick (踢) ×2"),
    # R10.3 (revised turn 3): in QQ the winner is by points, tribute by QQ's rule
    "results.tribute_qq.emperor": (
        "皇帝方得分 {points}；按QQ规则本局皇帝方收贡，下一局反贼进贡",
        "The emperor's side scored {points}; by QQ's rule it receives tribute (收贡): the "
        "rebels pay next game",
    ),
    "results.tribute_qq.rebels": (
        "皇帝方得分 {points}；按QQ规则本局皇帝方进贡，下一局皇帝和保皇派进贡",
        "The emperor's side scored {points}; by QQ's rule it pays tribute (进贡) next game",
    ),
    "results.tribute_qq.draw": (
        "皇帝方得分 {points}；按QQ规则本局平贡，下一局不进贡",
        "The emperor's side scored {points}; by QQ's rule nobody pays tribute next game (平贡)",
    ),
    "results.escaped": (
        "{name} 逃跑，扣 30 分；其他玩家本局不计分",
        "{name} escaped: −30 for them; the others are not scored this game",
    ),
    "results.unscored.all_auto": (
        "所有玩家都在托管，本局不计分",
        "Every player was on auto-play (托管): this game is not scored",
    ),
    "results.dissolved": (
        "有玩家在托管，比赛到此结束",
        "A player was on auto-play (托管): the match ends here",
    ),
}
