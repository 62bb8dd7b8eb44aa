"""The rules engine (R1–R14): cards and plays in R2 notation, move generation, rules and their
presets, the game state machine, scoring, per-seat views, matches and records.

Pure Python with no third-party imports; everything above (bots, server, clients) sees a game
only through :mod:`~baohuang.engine.views` and its event log.
"""
