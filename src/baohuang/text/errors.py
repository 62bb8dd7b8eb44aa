"""Error messages (错误信息): every error a user can meet, by message id, Chinese first.

The engine's errors (:class:`baohuang.engine.errors.BaohuangError`), the server's refusals
and the tools' failures name one of these ids and fill its ``{fields}``; the catalog merges
them into its messages. Fields are plain ``{name}`` (the browser fills them too).
"""

from __future__ import annotations

_CARD_HELP = (
    "请写点数加花色，如 9h、Ts、10s，或 B、R、B*、R*",
    "write rank+suit like 9h, Ts, 10s, or B, R, B*, R*",
)
_TWO_KINDS = ("一套牌只能是同一点数加王（R3）", "a play is one rank plus jokers (R3)")


def _wrong_phase(zh: str, en: str) -> tuple[str, str]:
    """An action that does not belong to the phase the game is in (its word in both languages)."""
    return (
        f"现在是{zh}阶段，你不能 {{action}}；可以：{{options}}",
        f"you cannot {{action}} now, in the {en} phase; legal: {{options}}",
    )


#: message id -> (Chinese, English)
ERRORS: dict[str, tuple[str, str]] = {
    # notation (R2): cards, plays, actions
    "error.card.rank": (
        "没有点数 '{rank}'：点数为 {ranks}（10 也可写作 T）",
        "unknown rank '{rank}': ranks are {ranks} (or 10)",
    ),
    "error.card.bad": (
        f"牌 '{{card}}' 写法有误：{_CARD_HELP[0]}",
        f"bad card '{{card}}': {_CARD_HELP[1]}",
    ),
    "error.card.bad_in": (
        f"'{{text}}' 中的牌 '{{card}}' 写法有误：{_CARD_HELP[0]}",
        f"bad card '{{card}}' in '{{text}}': {_CARD_HELP[1]}",
    ),
    "error.play.no_cards": ("出牌至少要一张", "a play needs at least one card"),
    "error.play.empty": (
        "没有出牌：请写 BB999 这样的点数，或 过",
        "empty play: write ranks like BB999, or pass",
    ),
    "error.play.rank": (
        "'{text}' 中的 '{rank}' 不是点数：点数为 {ranks}",
        "bad rank '{rank}' in play '{text}': ranks are {ranks}",
    ),
    "error.play.mixed": (
        f"'{{text}}' 混了点数 {{ranks}}：{_TWO_KINDS[0]}",
        f"play '{{text}}' mixes ranks {{ranks}}: {_TWO_KINDS[1]}",
    ),
    "error.play.mixed_cards": (
        f"这些牌混了点数 {{a}} 和 {{b}}：{_TWO_KINDS[0]}",
        f"cards mix ranks {{a}} and {{b}}: {_TWO_KINDS[1]}",
    ),
    "error.play.too_many": (
        "'{text}' 的同种牌比四副牌还多",
        "play '{text}' has more cards of a kind than four decks hold",
    ),
    "error.play.no_such": (
        "没有这样的牌：{count} 张点数 {rank}，{twos} 张补位的 2，{small} 个小王，{big} 个大王",
        "no such play: {count} of rank {rank}, {twos} filler 2s, {small} B, {big} R",
    ),
    "error.action.empty": (
        "没有输入：请出牌（BB999 或 9h 9h 9s B B）或 过",
        "empty action: type a play (BB999 or 9h 9h 9s B B) or pass",
    ),
    "error.action.escape_seat": (
        "'{word}' 后面要跟座位 0-4，如 '逃跑 3'",
        "'{word}' takes a seat 0-4, like 'escape 3'",
    ),
    "error.action.one_card": (
        "'{word}' 后面要跟一张牌，如 '{word} 9h'",
        "'{word}' takes one card, like '{word} 9h'",
    ),
    "error.action.no_cards": ("'{text}' 里没有牌", "no cards in '{text}'"),
    # the game: actions that are not legal now
    "error.game.over": ("本局已结束，不能再行动", "the game is over: no more actions"),
    "error.game.no_seat": ("没有座位{seat}", "no seat {seat}"),
    "error.game.escape_self": (
        "只能自己逃跑：输入 逃跑",
        "you may only escape yourself: type escape",
    ),
    "error.game.not_to_act": (
        "座位{seat}现在不能行动",
        "seat {seat} may not act now",
    ),
    "error.game.not_a_play": (
        "现在是出牌阶段：{action} 不是出牌也不是过",
        "it is the play phase: {action} is not a play or pass",
    ),
    "error.game.must_lead": (
        "这一轮由你发牌，不能过",
        "you lead this round (发牌): you cannot pass",
    ),
    "error.game.phase.tribute": _wrong_phase("进贡", "tribute"),
    "error.game.phase.candidate": _wrong_phase("选皇帝", "candidate"),
    "error.game.phase.call": _wrong_phase("叫牌", "call"),
    "error.game.phase.poll": _wrong_phase("表态", "poll"),
    "error.game.phase.play": _wrong_phase("出牌", "play"),
    "error.game.phase.over": _wrong_phase("结束", "over"),
    "error.game.twos_wild": (
        "{play}：只有“2 可以配牌”的规则下，2 才能配别的点数（R5.2）",
        "{play}: 2s fill a set of another rank only with twos_wild (R5.2)",
    ),
    "error.game.too_few": (
        "你只有 {held} 张 {card}，出不了 {n} 张",
        "you hold {held} × {card}, cannot play {n}",
    ),
    "error.game.not_held": ("你手里没有 {play} 这些牌", "you do not hold the cards for {play}"),
    "error.game.not_beat": (
        "{play} 管不上 {lead}（R4：张数相同，每张都要更大）",
        "{play} does not beat {lead} (R4: same size, every card higher)",
    ),
    "error.game.final_play": (
        "{play}：{rank} 必须留到最后一手一次出完（{rule}）",
        "{play}: {rank}s must be the final play, all at once ({rule})",
    ),
    # rules (R7)
    "error.rules.preset": (
        "没有预设 '{preset}'：可选 {presets}",
        "unknown preset '{preset}': presets are {presets}",
    ),
    "error.rules.option": (
        "没有选项 '{option}'：可选 {options}",
        "unknown option '{option}': options are {options}",
    ),
    "error.rules.choice": (
        "{name} 只能是 {allowed} 之一，不是 {value}",
        "{name} must be one of {allowed}, not {value}",
    ),
    "error.rules.takes_bool": (
        "选项 {name} 要填 true 或 false，不是 {value}",
        "option {name} takes true or false, not {value}",
    ),
    "error.rules.takes_str": (
        "选项 {name} 要填 一个字符串，不是 {value}",
        "option {name} takes a string, not {value}",
    ),
    "error.rules.takes_int": (
        "选项 {name} 要填 一个整数，不是 {value}",
        "option {name} takes a whole number, not {value}",
    ),
    "error.rules.hold_sixes": (
        "憋6（hold_sixes）要有 6，可牌从 {ranks_from} 开始",
        "hold_sixes needs 6s, but ranks start at {ranks_from}",
    ),
    "error.rules.hold_threes": (
        "清3（hold_threes）要有 3，可牌从 {ranks_from} 开始",
        "hold_threes needs 3s, but ranks start at {ranks_from}",
    ),
    "error.rules.ranks_from": (
        "ranks_from 只能是 3、4、5 或 6，不是 {ranks_from}",
        "ranks_from may be 3, 4, 5 or 6, not {ranks_from}",
    ),
    "error.rules.ranks_from_type": (
        "ranks_from 要填一个点数，如 3 或 6，不是 {value}",
        "ranks_from must be a rank like 3 or 6, not {value}",
    ),
    "error.rules.ranks_from_rank": ("ranks_from：{reason}", "ranks_from: {reason}"),
    "error.rules.ranks_from_option": ("选项 ranks_from：{reason}", "option ranks_from: {reason}"),
    "error.rules.removed_sixes": (
        "removed_sixes 只能是 0-4，且牌里要有 6，不是 {value}",
        "removed_sixes must be 0-4 with 6s in the pack, not {value}",
    ),
    "error.rules.sixes_threes": (
        "憋6 和 清3 不能同时用：只剩 6 和 3 的手牌永远出不完（R6.7、R6.8 都要求最后一手出完）",
        "hold_sixes and hold_threes together: a hand of 6s and 3s could never go out, since "
        "each must be the final play (R6.7, R6.8)",
    ),
    "error.rules.roast_qq": (
        "烤牌（R5.1）和 QQ 王规则（R5.2）是两种不同的王牌规则，只能用一种",
        "roast (R5.1) and the QQ joker rule (R5.2) are two different joker rules",
    ),
    "error.rules.chain": (
        "叫牌定保皇派时，皇牌要么放在一边（R8.1），要么用 QQ 的传法（R8.9），二者选一；"
        "其他玩法都不用",
        "a called guard's chain either sets the emperor card aside (R8.1) or is the QQ chain "
        "(R8.9), one of them, and only when the guard is called",
    ),
    "error.rules.family": (
        "{name} 只用于 selection={selection}，不是 {actual}",
        "{name} needs selection={selection}, not {actual}",
    ),
    "error.rules.kick": (
        "踢（R9.6）跟在造反（R9.5）之后：要先开造反",
        "kick (踢, R9.6) follows rebellion (造反, R9.5): turn rebellion on",
    ),
    "error.rules.fields": ("规则里没有这些字段：{fields}", "unknown rules field(s) {fields}"),
    "error.rules.bad": ("规则有误：{reason}", "bad rules: {reason}"),
    "error.rules.option_syntax": (
        "--option 要写成 键=值，如 roast=true，不是 '{item}'",
        "--option takes key=value, like roast=true, not '{item}'",
    ),
    # records (牌谱)
    "error.record.at": ("第 {index} 个动作：{reason}", "action {index}: {reason}"),
    "error.record.unreadable": ("读不了 {path}：{reason}", "cannot read {path}: {reason}"),
    "error.record.not_json": (
        "{path} 不是 JSON 牌谱：{reason}",
        "{path} is not a JSON record: {reason}",
    ),
    "error.record.format": (
        "不是 {format} 牌谱文件",
        'not a {format} file (no "format": "{format}")',
    ),
    "error.record.version": (
        "不支持牌谱版本 {version}（应为 {versions} 之一）",
        "record version {version} is not supported (want one of {versions})",
    ),
    "error.record.field": (
        "牌谱缺少字段 '{field}' 或类型不对",
        "record field '{field}' is missing or has the wrong type",
    ),
    "error.record.newer": (
        "牌谱的规则版本 {made} 比本程序的（{engine}）还新",
        "the record's rules_version {made} is newer than this engine's ({engine})",
    ),
    "error.record.rules_version": (
        "牌谱字段 'rules_version' 应为整数，不是 {value}",
        "record field 'rules_version' must be a whole number, not {value}",
    ),
    "error.record.events": ("牌谱字段 'events' 应为列表", "record field 'events' must be a list"),
    "error.record.event_differs": (
        "第 {seq} 个事件不符：重放为 {replayed}，牌谱为 {recorded}",
        "event {seq} differs: replayed {replayed}, recorded {recorded}",
    ),
    "error.record.event_count": (
        "牌谱有 {recorded} 个事件，重放得到 {replayed} 个",
        "the record has {recorded} events, the replay {replayed}",
    ),
    "error.record.predates": (
        "这份牌谱早于规则修订（记录时规则版本 {made}，本程序为版本 {engine}；"
        "修订见 docs/rules.md），无法重放：{reason}",
        "this record predates a rules change (made under rules version {made}, this engine "
        "plays version {engine}; docs/rules.md lists the changes) and does not replay: {reason}",
    ),
    "error.record.setup": (
        "规则或上一局结果有误：{reason}",
        "bad rules or previous result: {reason}",
    ),
    "error.record.entry": ("需要座位和动作", "entry needs a seat and an action"),
    "error.record.wrong_seat": (
        "记的是座位{recorded}，但该座位{actor}行动",
        "recorded for seat {recorded}, but seat {actor} is to act",
    ),
    "error.record.action": ("座位{seat} '{action}'：{reason}", "seat {seat}, '{action}': {reason}"),
    "error.record.unfinished": (
        "牌谱有结果，但动作没有打完这一局",
        "the record has a result, but its actions do not finish the game",
    ),
    "error.record.result": (
        "重放结果 {replayed} 与牌谱记录 {recorded} 不符",
        "replayed result {replayed} differs from the recorded {recorded}",
    ),
    "error.record.deal": (
        "牌谱的第 {number} 次发牌缺失或有误：{reason}",
        "the record's deal {number} is missing or malformed: {reason}",
    ),
    "error.record.deal_pack": (
        "牌谱的第 {number} 次发牌不是这副牌的五手牌",
        "the record's deal {number} is not five hands of this pack",
    ),
    # accounts and the HTTP API
    "error.account.name": ("名字要 1 到 20 个可见字符", "a name has 1 to 20 printable characters"),
    "error.account.password": ("密码要 8 到 200 个字符", "a password has 8 to 200 characters"),
    "error.account.registered": (
        "{name} 是已注册的名字：请登录，或换一个昵称",
        "'{name}' is a registered name: log in, or choose another nickname",
    ),
    "error.account.name_taken": ("{name} 已被注册", "'{name}' is taken"),
    "error.account.login_limit": (
        "登录失败次数太多：请稍后再试",
        "too many failed logins: try again later",
    ),
    "error.account.bad_login": ("用户名或密码不对", "wrong name or password"),
    "error.account.busy": (
        "服务器正忙着核对别人的密码：请过几秒再试",
        "the server is busy checking other passwords: try again in a few seconds",
    ),
    "error.account.login_required": ("请先登录", "log in first"),
    "error.rate.guests": (
        "创建游客太频繁了（最多 {limit}），请稍后再试",
        "too many guests from this address: at most {limit}, try again later",
    ),
    "error.rate.registrations": (
        "注册太频繁了（最多 {limit}），请稍后再试",
        "too many registrations from this address: at most {limit}, try again later",
    ),
    "error.rate.tables": (
        "建桌太频繁了（最多 {limit}），请稍后再试",
        "too many tables from this address: at most {limit}, try again later",
    ),
    "error.rate.rooms": (
        "查房号太频繁了（最多 {limit}），请稍后再试",
        "too many room-code lookups from this address: at most {limit}, try again later",
    ),
    "error.room.code_needed": (
        "这是好友房：请用房号或邀请链接加入",
        "this is a friends' table: join with its room code or invite link",
    ),
    "error.room.bad_code": (
        "“{code}”不是房号：房号是 6 位数字或字母（没有 0、1、O、I）",
        "'{code}' is not a room code: a room code is 6 letters and digits (no 0, 1, O or I)",
    ),
    "error.room.not_found": (
        "没有房号为 {code} 的牌桌：请核对房号，或向房主要邀请链接",
        "no table has the room code {code}: check the code, or ask for the invite link",
    ),
    "error.not_found.table": ("没有牌桌 {name}", "no table {name}"),
    "error.not_found.user": ("没有用户 {name}", "no user {name}"),
    "error.not_found.game": ("没有对局 {name}", "no game {name}"),
    # the table protocol's refusals
    "error.server.closed": ("{note}", "{note}"),
    "error.server.not_hello": ("请先发送 {hello}", "say {hello} first"),
    "error.server.bad_message": ("消息格式不对：{what}", "{what}"),
    "error.server.rate_limited": (
        "消息太快了（最多 {limit}），这条没有处理",
        "too many messages: at most {limit} (this one was dropped)",
    ),
    "error.server.hello_twice": ("每个连接只能问候一次", "say hello once per connection"),
    "error.server.token_invalid": ("座位令牌无效", "this seat token is not valid at this table"),
    "error.server.token_other": ("这不是你的座位令牌", "this seat token belongs to another player"),
    "error.server.not_seated": ("请先入座", "take a seat first"),
    "error.server.nickname": ("请先登录或取昵称", "log in or choose a nickname first"),
    "error.server.seated": ("你已经坐在座位{seat}了", "you already sit in seat {seat}"),
    "error.server.at_table": ("你已经在这张桌上了", "you already sit at this table"),
    "error.server.table_full": ("座位已满", "the table is full"),
    "error.server.seat_taken": ("座位{seat}已有人", "seat {seat} is taken"),
    "error.server.no_bot": ("座位{seat}没有机器人", "no bot in seat {seat}"),
    "error.server.bot_creator": (
        "只有建桌的人可以请走机器人",
        "only the table's creator may remove its bots",
    ),
    "error.server.bot_missing": (
        "本服务器没有机器人 '{bot}'（学习型需要安装 rl 扩展）",
        "this server has no '{bot}' bot (the learned one needs the rl extra)",
    ),
    "error.analysis.seat": ("座位要在 0 到 4 之间，不是 {seat}", "the seat is 0 to 4, not {seat}"),
    "error.analysis.busy": (
        "你已有一个复盘在进行：等它完成再开始下一个",
        "you have an analysis under way: wait for it before asking for another",
    ),
    "error.analysis.full": (
        "复盘排队已满，请稍后再试",
        "too many analyses are waiting: try again later",
    ),
    "error.server.bot_share": (
        "你开的机器人桌已用满你的机器人算力（已用 {used}，上限 {share} 核，这张桌要 {wanted}）："
        "给机器人设出牌等待（bot_delay）、选便宜一些的机器人，或先结束一桌",
        "your bot tables already use your share of the bots' cores ({used} of {share}; this "
        "table asks {wanted}): give the bots a delay (bot_delay), choose a cheaper level, or "
        "finish a table first",
    ),
    "error.server.bot_budget": (
        "本服务器的机器人算力已满（这张桌要 {wanted} 核）：请稍后再试，或给机器人设出牌等待、"
        "选便宜一些的机器人",
        "this server's bots are at capacity (this table asks {wanted} cores): try again later, "
        "or give the bots a delay or choose a cheaper level",
    ),
    "error.server.match_on": ("{op}：比赛正在进行", "{op}: the match is in progress"),
    "error.server.auto_no_game": (
        "对局中才能托管",
        "Auto-play (托管) is only for a game in progress",
    ),
    "error.server.auto_on": (
        "正在托管：请先取消托管",
        "Auto-play (托管) is on: switch it off first",
    ),
    "error.server.signal": (
        "没有这条快捷语 '{signal}'：可选 {signals}",
        "unknown signal '{signal}': signals are {signals}",
    ),
    "error.server.signal_gap": ("发言太快了", "one signal at a time, please"),
    "error.server.no_game": ("现在没有进行中的对局", "no game is in progress"),
    "error.server.stale": (
        "指令基于第 {seen} 个事件，牌局已到第 {last} 个",
        "made against event {seen}, the game has moved on to {last}",
    ),
    "error.server.turn_of": ("现在轮到座位{seat}", "it is seat {seat}'s turn"),
    "error.server.not_turn": ("还没轮到你", "it is not your turn"),
    "error.server.poll_answered": (
        "你已表态，等待其他玩家",
        "you have answered; waiting for the others",
    ),
    "error.server.poll_not_asked": ("这次表态不问你", "this poll does not ask you"),
    "error.server.escape": ("要逃跑请离开牌桌", "to escape, leave the table"),
    "error.server.start_private": (
        "只有好友房可以一键补机器人开始：请在空位加机器人并准备",
        "only a friends' table starts with bots at one click: add bots and get ready",
    ),
    "error.server.start_creator": (
        "只有房主可以补机器人开始：请点“准备”，等房主开始",
        "only the table's creator may start it with bots: get ready and wait for them",
    ),
    # the load test
    "error.loadtest.unreachable": (
        "连不上服务器 {url}：{reason}",
        "cannot reach the server at {url}: {reason}",
    ),
    "error.loadtest.bot": (
        "没有机器人 '{bot}'：可选 {bots}",
        "unknown bot '{bot}': bots are {bots}",
    ),
    "error.loadtest.refused": ("错误 {code}：{message}", "error {code}: {message}"),
    "error.loadtest.http": ("{path}：{status} {body}", "{path}: {status} {body}"),
}
