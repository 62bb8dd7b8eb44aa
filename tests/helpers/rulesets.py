"""The rules objects tests run under: every preset (R7) and `classic` with options changed."""

from __future__ import annotations

import dataclasses
import itertools

from baohuang import Rules

PRESET_NAMES = (
    "classic",
    "weihai",
    "kk_simple",
    "lianzhong_simple",
    "kk_classic",
    "lianzhong_classic",
    "qq",
)
PRESETS = {name: Rules.preset(name) for name in PRESET_NAMES}
CLASSIC = PRESETS["classic"]
#: QQ with its 3s back and 清3 (R6.8, R7's option).
QQ_THREES = Rules.preset("qq", ranks_from=3, hold_threes=True)
ROAST = Rules.preset("classic", roast=True)
HOLD_SIXES = Rules.preset("classic", hold_sixes=True)
ROAST_HOLD_SIXES = Rules.preset("classic", roast=True, hold_sixes=True)
ALL_RULES = (CLASSIC, ROAST, HOLD_SIXES, ROAST_HOLD_SIXES)


def variant(**options: bool) -> Rules:
    """`classic` with beating and holding options set, ``qq_jokers`` too (not a user option).

    Not validated: move generation takes any combination, even hold_sixes with hold_threes,
    which a game refuses (rules.py).
    """
    return dataclasses.replace(CLASSIC, **options)


TWOS_WILD = variant(twos_wild=True)
QQ_JOKERS = variant(qq_jokers=True)
#: The R5.2 beating of the `qq` preset (with 3s in the pack, so hold_threes may join).
QQ = variant(qq_jokers=True, twos_wild=True)
HOLD_THREES = variant(hold_threes=True)
#: Every combination of the options that change beating or legal plays: the joker rule (R4,
#: R5.1 roast or the R5.2 QQ rule) × twos_wild × hold_sixes × hold_threes.
OPTION_RULES = tuple(
    variant(roast=roast, qq_jokers=qq, twos_wild=twos, hold_sixes=sixes, hold_threes=threes)
    for (roast, qq), twos, sixes, threes in itertools.product(
        [(False, False), (True, False), (False, True)], *[[False, True]] * 3
    )
)


def rules_id(rules: Rules) -> str:
    """A short test id naming the options that differ from `classic`."""
    changed = [f"{k}={v}" for k, v in rules.to_dict().items() if v != getattr(CLASSIC, k)]
    return ",".join(changed) or "classic"
