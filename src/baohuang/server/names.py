"""Names (昵称): one rule on every database for when two names are the same.

A name's key is its Unicode compatibility form (NFKC: ｚｈａｎｇ is zhang), case-folded
(Élodie is élodie, ДИМА is дима, Straße is strasse), then its confusable skeleton (UTS #39, by
ICU's SpoofChecker: Cyrillic Аlice is Latin alice, l and 1 and I alike), folded again. A
member's name is unique by its key, and no guest may take a name whose key a member's has.
The key is computed here, never by the database (SQLite's ``lower()`` folds ASCII only).
"""

from __future__ import annotations

import functools
import unicodedata

import icu  # type: ignore[import-untyped]


@functools.cache
def _checker() -> icu.SpoofChecker:
    return icu.SpoofChecker()


def name_key(name: str) -> str:
    """The key two names share exactly when a reader could take one for the other."""
    folded = unicodedata.normalize("NFKC", name).strip().casefold()
    skeleton: str = _checker().getSkeleton(0, folded)
    return unicodedata.normalize("NFKC", skeleton).casefold()
