"""Rule sets (R7): a preset is a named, frozen set of option values.

Code asks the options, never the preset's name.
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
            raise RulesError(
                f"unknown option {unknown[0]!r}: options are {', '.join(sorted(OPTIONS))}"
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
                raise RulesError(
                    f"{name} must be one of {', '.join(get_args(hint))}, not {value!r}"
                )
            if hint in (bool, str, int) and (
                not isinstance(value, hint) or (hint is int and isinstance(value, bool))
            ):
                kind = {bool: "true or false", str: "a string", int: "a whole number"}[hint]
                raise RulesError(f"option {name} takes {kind}, not {value!r}")
        lowest = self.lowest_rank
        if self.hold_sixes and lowest > rank_index("6"):
            raise RulesError(f"hold_sixes needs 6s, but ranks start at {self.ranks_from}")
        if self.hold_threes and lowest > 0:
            raise RulesError(f"hold_threes needs 3s, but ranks start at {self.ranks_from}")
        if lowest > rank_index("6"):
            raise RulesError(f"ranks_from may be 3, 4, 5 or 6, not {self.ranks_from}")
        if not 0 <= self.removed_sixes <= 4 or (self.removed_sixes and lowest > rank_index("6")):
            raise RulesError(
                f"removed_sixes must be 0-4 with 6s in the pack, not {self.removed_sixes}"
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
                "roast (R5.1) and the QQ joker rule (R5.2) are two different joker rules"
            )
        if self.emperor_card_aside != (self.selection == "called"):
            raise RulesError(
                "the emperor card is set aside (R8.1) exactly when the guard is called"
            )
        family_only = {
            "open_solo_anyone": "fixed",
            "yielding": "fixed",
            "kick": "fixed",
            "grab_solo": "kk_classic",
        }
        for name, selection in family_only.items():
            if getattr(self, name) and self.selection != selection:
                raise RulesError(f"{name} needs selection={selection}, not {self.selection}")
        if self.kick and not self.rebellion:
            raise RulesError("kick (踢, R9.6) follows rebellion (造反, R9.5): turn rebellion on")

    @property
    def marked(self) -> str:
        """The marked jokers in the pack: ``"RB"`` (R* and B*, R9), ``"R"`` (R*, R11) or none."""
        return {"called": "", "fixed": "RB", "kk_classic": "R"}[self.selection]

    @property
    def lowest_rank(self) -> int:
        """The rank index of ``ranks_from``."""
        if not isinstance(self.ranks_from, str):
            raise RulesError(f"ranks_from must be a rank like 3 or 6, not {self.ranks_from!r}")
        try:
            return rank_index(self.ranks_from)
        except NotationError as exc:
            raise RulesError(f"ranks_from: {exc}") from None

    def to_dict(self) -> dict[str, Any]:
        return asdict(self)

    @staticmethod
    def from_dict(data: dict[str, Any]) -> Rules:
        """Rules from :meth:`to_dict` output (as stored in a record)."""
        names = {f.name for f in fields(Rules)}
        unknown = sorted(set(data) - names)
        if unknown:
            raise RulesError(f"unknown rules field(s) {', '.join(unknown)}")
        return Rules()._with(data)


def _rank_option(value: Any) -> str:
    try:
        return RANK_SYMBOLS[rank_index(str(value))]
    except NotationError as exc:
        raise RulesError(f"option ranks_from: {exc}") from None


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
    "qq": Rules(name="qq", ranks_from="4", twos_wild=True, qq_jokers=True, win_rule="qq"),
}
