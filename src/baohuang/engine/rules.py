"""Rule sets (R7): a preset is a named, frozen set of option values.

Code asks the options, never the preset's name. The rules in words, section by section, are in
``docs/rules.md``.
"""

from __future__ import annotations

from collections.abc import Sequence
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
#: revision of R5.2, R6.8, R8.9, R8.10, R9.3, R9.4, R11.2; version 3 of R10.1 (KK/联众 solos),
#: R10.3 (the winner by points) and R11.5 (no 造反 in 联众经典) (docs/rules.md, "Rules versions").
RULES_VERSION = 3


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
    #: R10.3: who receives tribute: the winner (``team``) or QQ's rule (``qq``, tribute only;
    #: the winner is always the sign of the points).
    win_rule: WinRule = "team"
    #: R13: a person on 托管 at the end of a game ends the match there (KK).
    dissolve_on_auto: bool = False

    @staticmethod
    def preset(name: str = "classic", **options: Any) -> Rules:
        """Preset ``name`` with ``options`` overridden: ``Rules.preset("classic", roast=True)``."""
        base = PRESETS.get(name)
        if base is None:
            names = ", ".join(PRESETS)
            raise RulesError("error.rules.preset", preset=name, presets=names)
        return base.with_options(**options)

    def with_options(self, **options: Any) -> Rules:
        """A copy with ``options`` changed; unknown, mistyped or contradictory ones raise."""
        unknown = sorted(set(options) - OPTIONS)
        if unknown:
            names = ", ".join(sorted(OPTIONS))
            raise RulesError("error.rules.option", option=unknown[0], options=names)
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
                    "error.rules.choice", name=name, allowed=allowed, value=repr(value)
                )
            if hint in (bool, str, int) and (
                not isinstance(value, hint) or (hint is int and isinstance(value, bool))
            ):
                raise RulesError(f"error.rules.takes_{hint.__name__}", name=name, value=repr(value))
        lowest = self.lowest_rank
        if self.hold_sixes and lowest > rank_index("6"):
            raise RulesError("error.rules.hold_sixes", ranks_from=self.ranks_from)
        if self.hold_threes and lowest > 0:
            raise RulesError("error.rules.hold_threes", ranks_from=self.ranks_from)
        if lowest > rank_index("6"):
            raise RulesError("error.rules.ranks_from", ranks_from=self.ranks_from)
        if not 0 <= self.removed_sixes <= 4 or (self.removed_sixes and lowest > rank_index("6")):
            raise RulesError("error.rules.removed_sixes", value=self.removed_sixes)
        if self.hold_sixes and self.hold_threes:
            raise RulesError("error.rules.sixes_threes")
        if self.roast and self.qq_jokers:
            raise RulesError("error.rules.roast_qq")
        if (self.emperor_card_aside or self.qq_chain) != (self.selection == "called") or (
            self.emperor_card_aside and self.qq_chain
        ):
            raise RulesError("error.rules.chain")
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
                    "error.rules.family", name=name, selection=selection, actual=self.selection
                )
        if self.kick and not self.rebellion:
            raise RulesError("error.rules.kick")

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
            raise RulesError("error.rules.ranks_from_type", value=repr(self.ranks_from))
        try:
            return rank_index(self.ranks_from)
        except NotationError as exc:
            raise RulesError("error.rules.ranks_from_rank", reason=exc) from None

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
            raise RulesError("error.rules.fields", fields=listed)
        return Rules()._with(data)


def _rank_option(value: Any) -> str:
    try:
        return RANK_SYMBOLS[rank_index(str(value))]
    except NotationError as exc:
        raise RulesError("error.rules.ranks_from_option", reason=exc) from None


#: The options a user may set on any preset (R7).
OPTIONS = frozenset(
    {"roast", "twos_wild", "hold_sixes", "hold_threes", "ranks_from", "tribute", "dissolve_on_auto"}
)

#: How option values given as words (``--option``, ``GET /api/rules``) spell true and false;
#: anything else stays a string.
BOOLEANS = {"true": True, "yes": True, "on": True, "false": False, "no": False, "off": False}


def parse_options(items: Sequence[str]) -> dict[str, bool | str]:
    """``["roast=true", "ranks_from=6"]`` as ``{"roast": True, "ranks_from": "6"}``."""
    options: dict[str, bool | str] = {}
    for item in items:
        key, sep, value = (part.strip() for part in item.partition("="))
        if not (sep and key and value):
            raise RulesError("error.rules.option_syntax", item=item)
        options[key] = BOOLEANS.get(value.lower(), value)
    return options


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
    # R11.5 (revised turn 3): 001 brings in 造反 "在简明玩法中" only; KK (004) adds it to 经典.
    "lianzhong_classic": replace(_KK_CLASSIC, name="lianzhong_classic", rebellion=False),
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
