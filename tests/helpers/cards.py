"""Seats and cards as docs/rules.md R1–R2 name them, restated apart from the engine's constants."""

from __future__ import annotations

from baohuang import Card

SEATS = 5
THREE, SIX, TWO, SMALL, BIG = 0, 3, 12, 13, 14  # rank indices (R2): B is SMALL, R is BIG
R, B, R_STAR, B_STAR = (Card.parse(text) for text in ("R", "B", "R*", "B*"))
RANKS = "3456789TJQKA2BR"
