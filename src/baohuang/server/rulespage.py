"""``GET /api/rules``: a preset's rules in words for the browser's 规则 page (``#/rules/P``).

The words are :func:`baohuang.engine.describe.page`'s, the same as ``baohuang rules``
prints; the page only lays them out.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from ..engine.describe import page
from ..engine.errors import RulesError
from ..engine.rules import Rules, parse_options
from .refusals import AccountError


def rules_words(preset: str, lang: str, options: Sequence[str] = ()) -> dict[str, Any]:
    """The rules of ``preset`` with ``options`` (``key=value``, as ``--option``) in ``lang``;
    an unknown preset is a 400 ``bad_preset`` naming the presets there are, a bad option a
    400 ``bad_rules`` saying what is wrong."""
    try:
        rules = Rules.preset(preset, **parse_options(options))
        rules.validate()
    except RulesError as exc:
        code = "bad_preset" if exc.code == "error.rules.preset" else "bad_rules"
        raise AccountError(400, code, exc.code, **exc.params) from None
    except TypeError as exc:
        raise AccountError(400, "bad_rules", "error.rules.bad", reason=str(exc)) from None
    return page(rules, lang, options)
