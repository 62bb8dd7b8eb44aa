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
    #: How the emperor and guard are chosen: R8 (called triple), R9 (marked jokers), R11 (叫保).
    selection: Selection = "called"
    #: Lowest rank in the pack (``"3"``; ``"6"`` drops 3s, 4s and 5s).
    ranks_from: str = "3"
    #: Set one big joker aside as the emperor card (R8.1).
    emperor_card_aside: bool = True
    #: R5.1 烤牌: more joker power beats a joker-hung play at any size.
    roast: bool = False
    #: R5.2: a 2 may fill a set of another rank (QQ).
    twos_wild: bool = False
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

    @staticmethod
    def preset(name: str = "classic", **options: Any) -> Rules:
        """Preset ``name`` with ``options`` overridden: ``Rules.preset("classic", roast=True)``."""
        base = PRESETS.get(name)
        if base is None:
            planned = sorted(PLANNED_PRESETS)
            raise RulesError(
                f"unknown preset {name!r}: available {', '.join(sorted(PRESETS))}"
                + (f" (planned: {', '.join(planned)})" if name in PLANNED_PRESETS else "")
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
            if hint in (bool, str) and not isinstance(value, hint):
                kind = "true or false" if hint is bool else "a string"
                raise RulesError(f"option {name} takes {kind}, not {value!r}")
        lowest = self.lowest_rank
        if self.hold_sixes and lowest > rank_index("6"):
            raise RulesError(f"hold_sixes needs 6s, but ranks start at {self.ranks_from}")
        if self.hold_threes and lowest > 0:
            raise RulesError(f"hold_threes needs 3s, but ranks start at {self.ranks_from}")
        if lowest > rank_index("6"):
            raise RulesError(f"ranks_from may be 3, 4, 5 or 6, not {self.ranks_from}")
        unsupported = [name for name in ("twos_wild", "hold_threes") if getattr(self, name)]
        if self.selection != "called":
            unsupported.append(f"selection={self.selection}")
        if unsupported:
            raise RulesError(f"not supported by this engine version yet: {', '.join(unsupported)}")

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
OPTIONS = frozenset({"roast", "twos_wild", "hold_sixes", "hold_threes", "ranks_from", "tribute"})

PRESETS: dict[str, Rules] = {
    "classic": Rules(),
}

#: The presets of R7 that later engine versions add (RULES.md R7, R9–R11).
PLANNED_PRESETS = frozenset(
    {"weihai", "kk_simple", "lianzhong_simple", "kk_classic", "lianzhong_classic", "qq"}
)
