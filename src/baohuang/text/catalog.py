"""The message catalog (界面文字): every user-facing sentence of the terminal, the server and
the browser, Chinese first and English (``--lang en``, the page's language switch).

Each message id names one ``(Chinese, English)`` pair, once, in the module of what it is about
(:mod:`.game`, :mod:`.narration`, :mod:`.results`, :mod:`.rules`, :mod:`.terminal`, :mod:`.page`,
:mod:`.errors`); :func:`t` looks it up and fills its ``{fields}``. The browser gets the same
pairs from ``GET /api/text``. The game's own words are used throughout: 皇帝 emperor, 保皇派
guard, 反贼 rebel, 接风, 进贡 tribute, 明独, 暗独, 头科 二科 三科 二落 大落, 过 pass, 同意/放弃.
"""

from __future__ import annotations

from typing import Any

from .errors import ERRORS
from .game import GAME
from .narration import NARRATION
from .page import PAGE
from .results import RESULTS
from .rules import RULES
from .terminal import TERMINAL

LANGS = ("zh", "en")
DEFAULT_LANG = "zh"

#: The entry modules' tables, each id in exactly one of them.
TABLES = (GAME, NARRATION, RESULTS, RULES, TERMINAL, PAGE, ERRORS)
#: message id -> (Chinese, English)
MESSAGES: dict[str, tuple[str, str]] = {
    key: pair for table in TABLES for key, pair in table.items()
}

#: The game's own word for each role-phase answer the terminal accepts, shown beside it in
#: both languages.
ACTION_WORDS = {
    "accept": "同意/登基",
    "decline": "放弃/让位",
    "solo": "明独",
    "transfer": "转让",
    "show": "明保",
    "rebel": "造反",
    "kick": "踢",
    "grab": "抢独",
    "pass": "过",
}


def t(key: str, lang: str = DEFAULT_LANG, **fmt: Any) -> str:
    """The message ``key`` in ``lang`` (``zh`` or ``en``) with ``fmt`` filled in."""
    zh, en = MESSAGES[key]
    text = en if lang == "en" else zh
    return text.format(**fmt) if fmt else text
