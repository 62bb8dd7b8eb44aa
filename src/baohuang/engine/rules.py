"""Rule sets (R7): a preset is a named, frozen set of option values.

Code asks the options, never the preset's name. The rules in words, section by section, are in
``docs/rules.md``.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields, replace
from typing import Any, Literal, get_args, get_origin, get_type_hints

from .cards import RANK_SYMBOLS, rank_index
from .errors import NotationError
from .errors import RulesError as RulesError

Selection = Literal["called", "fixed", "kk_classic"]
Scoring = Literal["classic", "kk", "weihai"]
WinRule = Literal["team", "qq"]

#: The engine's reading of the rules, stored in every record (docs/record-format.md). Raised
#: whenever a rule changes so that a recorded game could play differently: version 2 is the
#: revision of R5.2, R6.8, R8.9, R8.10, R9.3, R9.4, R11.2 (docs/rules.md, "Rules versions").
RULES_VERSION = 2


@dataclass(frozen=True, slots=True)
class Rules:
    """Every option of R7, with the `classic` values as defaults."""

    #: The preset these options started from.
    name: str = "classic"
    #: How the emperor and guard are chosen: ``called`` R8 (a called triple), ``fixed`` R9
    #: (marked jokers R* and B*), ``kk_classic`` R11 (marked R*, 叫保).
    selection: Selection = "called"
    #: Lowest rank in the pack (``"3"``; ``"6"`` drops 3s, 4s and 5s).
    ranks_from: str = "3"
    #: How many copies of 6s (six of spades) leave the pack (weihai: 3, R7).
    removed_sixes: int = 0
    #: R8.1: set one big joker aside as the emperor card.
    emperor_card_aside: bool = True
    #: R8.9: the QQ chain: nothing aside, the starter first, every decliner adds a card.
    qq_chain: bool = False
    #: R8.10: QQ 明保: the called guard may show itself; emperor 1st and guard 2nd, or lose.
    qq_open_guard: bool = False
    #: R9.2: anyone may declare 明独 before the emperor is settled (weihai).
    open_solo_anyone: bool = False
    #: R9.3: the R* holder may yield to the 上家 (KK/联众 simple).
    yielding: bool = False
    #: R9.5: 造反, two or more rebels reveal the guard and double the score.
    rebellion: bool = False
    #: R9.6: 踢, the side opposing a declaration doubles the score once more (weihai).
    kick: bool = False
    #: R11.4: 抢独, a strong hand claims open solo from the emperor (KK/联众 classic).
    grab_solo: bool = False
    #: R5.1 烤牌: more joker power beats a joker-hung play at any size.
    roast: bool = False
    #: R5.2: a 2 may fill a set of another rank (QQ).
    twos_wild: bool = False
    #: R5.2: the QQ joker rule: b big and s small jokers need 2b + s big jokers to beat.
    qq_jokers: bool = False
    #: R6.7 憋6: a play with a 6 must empty the hand.
    hold_sixes: bool = False
    #: R6.8 清3: 3s obey R6.7, and the play leaving only 3s must go unbeaten.
    hold_threes: bool = False
    #: R12 进贡 between the games of a match.
    tribute: bool = True
    #: R10 scoring family.
    scoring: Scoring = "classic"
    #: R10.3: the QQ win rule instead of the team score's sign.
    win_rule: WinRule = "team"
    #: R13: a person on 托管 at the end of a game ends the match there (KK).
    dissolve_on_auto: bool = False

    @staticmethod
    def preset(name: str = "classic", **options: Any) -> Rules:
        """Preset ``name`` with ``options`` overridden: ``Rules.preset("classic", roast=True)``."""
        base = PRESETS.get(name)
        if base is None:
            names = ", ".join(PRESETS)
            raise RulesError(
                f"unknown preset {name!r}: presets are {names}", f"没有预设 {name!r}：可选 {names}"
            )
        return base.with_options(**options)

    def with_options(self, **options: Any) -> Rules:
        """A copy with ``options`` changed; unknown, mistyped or contradictory ones raise."""
        unknown = sorted(set(options) - OPTIONS)
        if unknown:
            names = ", ".join(sorted(OPTIONS))
            raise RulesError(
                f"unknown option {unknown[0]!r}: options are {names}",
                f"没有选项 {unknown[0]!r}：可选 {names}",
            )
        return self._with(options)

    def _with(self, values: dict[str, Any]) -> Rules:
        if "ranks_from" in values:
            values = {**values, "ranks_from": _rank_option(values["ranks_from"])}
        rules = replace(self, **values)
        rules.validate()
        return rules

    def validate(self) -> None:
        """Reject mistyped values, contradictions and options this engine does not play yet."""
        for name, hint in get_type_hints(Rules).items():
            value = getattr(self, name)
            if get_origin(hint) is Literal and value not in get_args(hint):
                allowed = ", ".join(get_args(hint))
                raise RulesError(
                    f"{name} must be one of {allowed}, not {value!r}",
                    f"{name} 只能是 {allowed} 之一，不是 {value!r}",
                )
            if hint in (bool, str, int) and (
                not isinstance(value, hint) or (hint is int and isinstance(value, bool))
            ):
                en, zh = {
                    bool: ("true or false", "true 或 false"),
                    str: ("a string", "一个字符串"),
                    int: ("a whole number", "一个整数"),
                }[hint]
                raise RulesError(
                    f"option {name} takes {en}, not {value!r}",
                    f"选项 {name} 要填 {zh}，不是 {value!r}",
                )
        lowest = self.lowest_rank
        if self.hold_sixes and lowest > rank_index("6"):
            raise RulesError(
                f"hold_sixes needs 6s, but ranks start at {self.ranks_from}",
                f"憋6（hold_sixes）要有 6，可牌从 {self.ranks_from} 开始",
            )
        if self.hold_threes and lowest > 0:
            raise RulesError(
                f"hold_threes needs 3s, but ranks start at {self.ranks_from}",
                f"清3（hold_threes）要有 3，可牌从 {self.ranks_from} 开始",
            )
        if lowest > rank_index("6"):
            raise RulesError(
                f"ranks_from may be 3, 4, 5 or 6, not {self.ranks_from}",
                f"ranks_from 只能是 3、4、5 或 6，不是 {self.ranks_from}",
            )
        if not 0 <= self.removed_sixes <= 4 or (self.removed_sixes and lowest > rank_index("6")):
            raise RulesError(
                f"removed_sixes must be 0-4 with 6s in the pack, not {self.removed_sixes}",
                f"removed_sixes 只能是 0-4，且牌里要有 6，不是 {self.removed_sixes}",
            )
        if self.hold_sixes and self.hold_threes:
            raise RulesError(
                "hold_sixes and hold_threes together: a hand of 6s and 3s could never go out, "
                "since each must be the final play (R6.7, R6.8)",
                "憋6 和 清3 不能同时用：只剩 6 和 3 的手牌永远出不完"
                "（R6.7、R6.8 都要求最后一手出完）",
            )
        if self.roast and self.qq_jokers:
            raise RulesError(
                "roast (R5.1) and the QQ joker rule (R5.2) are two different joker rules",
                "烤牌（R5.1）和 QQ 王规则（R5.2）是两种不同的王牌规则，只能用一种",
            )
        if (self.emperor_card_aside or self.qq_chain) != (self.selection == "called") or (
            self.emperor_card_aside and self.qq_chain
        ):
            raise RulesError(
                "a called guard's chain either sets the emperor card aside (R8.1) or is the QQ "
                "chain (R8.9), one of them, and only when the guard is called",
                "叫牌定保皇派时，皇牌要么放在一边（R8.1），要么用 QQ 的传法（R8.9），二者选一；"
                "其他玩法都不用",
            )
        family_only = {
            "open_solo_anyone": "fixed",
            "yielding": "fixed",
            "kick": "fixed",
            "grab_solo": "kk_classic",
            "qq_open_guard": "called",
        }
        for name, selection in family_only.items():
            if getattr(self, name) and self.selection != selection:
                raise RulesError(
                    f"{name} needs selection={selection}, not {self.selection}",
                    f"{name} 只用于 selection={selection}，不是 {self.selection}",
                )
        if self.kick and not self.rebellion:
            raise RulesError(
                "kick (踢, R9.6) follows rebellion (造反, R9.5): turn rebellion on",
                "踢（R9.6）跟在造反（R9.5）之后：要先开造反",
            )

    @property
    def marked(self) -> str:
        """The marked jokers in the pack: ``"RB"`` (R* and B*, R9), ``"R"`` (R*, R11) or none."""
        return {"called": "", "fixed": "RB", "kk_classic": "R"}[self.selection]

    @property
    def guard_may_show(self) -> bool:
        """Whether the guard is asked 明保 (R9.4 fixed family, R8.10 QQ)."""
        return self.selection == "fixed" or self.qq_open_guard

    @property
    def lowest_rank(self) -> int:
        """The rank index of ``ranks_from``."""
        if not isinstance(self.ranks_from, str):
            raise RulesError(
                f"ranks_from must be a rank like 3 or 6, not {self.ranks_from!r}",
                f"ranks_from 要填一个点数，如 3 或 6，不是 {self.ranks_from!r}",
            )
        try:
            return rank_index(self.ranks_from)
        except NotationError as exc:
            raise RulesError(f"ranks_from: {exc}", f"ranks_from：{exc.text('zh')}") from None

    def to_dict(self) -> dict[str, Any]:
        """Every field, JSON-serialisable (as stored in a record)."""
        return asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output (as stored in a record)."""
        names = {f.name for f in fields(Rules)}
        unknown = sorted(set(data) - names)
        if unknown:
            listed = ", ".join(unknown)
            raise RulesError(f"unknown rules field(s) {listed}", f"规则里没有这些字段：{listed}")
        return Rules()._with(data)


def _rank_option(value: Any) -> str:
    try:
        return RANK_SYMBOLS[rank_index(str(value))]
    except NotationError as exc:
        zh = f"选项 ranks_from：{exc.text('zh')}"
        raise RulesError(f"option ranks_from: {exc}", zh) from None


#: The options a user may set on any preset (R7).
OPTIONS = frozenset(
    {"roast", "twos_wild", "hold_sixes", "hold_threes", "ranks_from", "tribute", "dissolve_on_auto"}
)

_KK_SIMPLE = Rules(
    selection="fixed",
    ranks_from="6",
    emperor_card_aside=False,
    yielding=True,
    rebellion=True,
    tribute=False,
    scoring="kk",
)
_KK_CLASSIC = Rules(
    selection="kk_classic",
    emperor_card_aside=False,
    rebellion=True,
    grab_solo=True,
    tribute=False,
    scoring="kk",
)

PRESETS: dict[str, Rules] = {
    "classic": Rules(),
    "weihai": Rules(
        name="weihai",
        selection="fixed",
        ranks_from="6",
        removed_sixes=3,
        emperor_card_aside=False,
        open_solo_anyone=True,
        rebellion=True,
        kick=True,
        hold_sixes=True,
        tribute=False,
        scoring="weihai",
    ),
    "kk_simple": replace(_KK_SIMPLE, name="kk_simple", dissolve_on_auto=True),
    "lianzhong_simple": replace(_KK_SIMPLE, name="lianzhong_simple"),
    "kk_classic": replace(_KK_CLASSIC, name="kk_classic", dissolve_on_auto=True),
    "lianzhong_classic": replace(_KK_CLASSIC, name="lianzhong_classic"),
    "qq": Rules(
        name="qq",
        ranks_from="4",
        emperor_card_aside=False,
        qq_chain=True,
        qq_open_guard=True,
        twos_wild=True,
        qq_jokers=True,
        win_rule="qq",
    ),
}
