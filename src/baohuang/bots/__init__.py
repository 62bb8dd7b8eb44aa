"""Bots: players that see only their seat's view (R14) — random, heuristic, search — and the
duplicate arena that measures them."""

from .base import BOTS, AutoBot, Bot, RandomBot, bot_step, catch_up, make_bot, play_out

__all__ = ["BOTS", "AutoBot", "Bot", "RandomBot", "bot_step", "catch_up", "make_bot", "play_out"]
