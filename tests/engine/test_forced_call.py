"""R8.7 and R14: a call the emperor had no choice in (its only callable triple) is made by the
engine and told to the emperor alone (``forced``), so the page shows it instead of making it
silently (#50); nobody else learns that the emperor's hand left no choice."""

from __future__ import annotations

from baohuang.bots.base import RandomBot
from baohuang.cli.terminal import narrate
from baohuang.engine.actions import Call
from baohuang.engine.game import Game, new_game
from baohuang.engine.rules import Rules

CLASSIC = Rules.preset("classic")


def through_the_call(seed: int) -> Game:
    game = new_game(CLASSIC, seed)
    bot = RandomBot(seed)
    while game.phase in ("candidate", "call", "tribute") and game.current_seat is not None:
        game.apply(bot.choose(game.view(game.current_seat), game.legal_actions()))
    return game


def test_r8_7_a_forced_call_is_told_to_the_emperor_alone() -> None:
    forced = chosen = 0
    for seed in range(40):
        game = through_the_call(seed)
        calls = [e for e in game.events if e.kind == "call"]
        if not calls:
            continue  # 明独, or a void deal
        (call,) = calls
        emperor = call.public["seat"]
        made = any(seat == emperor and isinstance(a, Call) for seat, a in game.actions)
        told = [s for s in range(5) if game.events_for(s)[call.seq].get("forced")]
        assert told == ([] if made else [emperor]), seed  # forced exactly when not chosen
        assert "forced" not in game.events_for(None)[call.seq]  # a spectator: nothing
        forced += not made
        chosen += made
        if not made:
            zh = narrate(game.events_for(emperor)[call.seq], "zh", emperor)
            assert any("已替你叫了" in line for line in zh), zh
            other = (emperor + 1) % 5
            others = narrate(game.events_for(other)[call.seq], "zh", other)
            assert not any("替你" in line for line in others)
    assert forced and chosen  # both kinds came up
