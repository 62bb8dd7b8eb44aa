"""复盘 (``baohuang analyse``): a seat's decisions weighed by the search from its own views only
(R14), a move that does not go out when it could marked a mistake, the command."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from baohuang.bots.analysis import MISTAKE, analyse
from baohuang.bots.base import play_out
from baohuang.bots.heuristic import HeuristicBot
from baohuang.cli import app
from baohuang.engine.game import Game, new_game
from baohuang.engine.plays import Play
from baohuang.engine.record import to_record, write_record
from baohuang.engine.rules import Rules

pytestmark = pytest.mark.slow

CLASSIC = Rules.preset("classic")


def record(seed: str) -> dict[str, Any]:
    """A classic game of heuristic seats."""
    game = new_game(CLASSIC, seed)
    play_out(game, [HeuristicBot(CLASSIC) for _ in range(5)])
    return to_record(game)


def test_the_analysis_sees_only_the_seats_own_views(monkeypatch: pytest.MonkeyPatch) -> None:
    """Only seat 1's views are built while seat 1's game is weighed: the analyst is given
    views, never the game (whose other hands it would otherwise read)."""
    asked: set[int | None] = set()
    view = Game.view

    def spy(self: Game, seat: int | None) -> Any:
        asked.add(seat)
        return view(self, seat)

    data = record("r14")
    monkeypatch.setattr(Game, "view", spy)
    result = analyse(data, 1, deals=4)
    assert asked == {1} and result.decisions


def going_out(seed: str) -> tuple[dict[str, Any], int, int, str, str]:
    """A heuristic game's first turn where the seat to act could play its whole hand, with
    another move open: (the record up to that turn, the action's number, the seat, the play
    that goes out, the other move)."""
    game = new_game(CLASSIC, seed)
    bot = HeuristicBot(CLASSIC)
    while (seat := game.current_seat) is not None:
        view, legal = game.view(seat), game.legal_actions()
        if view.phase == "play" and view.hand:
            out = [a for a in legal if isinstance(a, Play) and a.size == len(view.hand)]
            other = [a for a in legal if a not in out]
            if out and other:
                return to_record(game), len(game.actions), seat, str(out[0]), str(other[0])
        game.apply(bot.choose(view, legal))
    raise AssertionError("nobody could go out with a choice")


def test_not_going_out_when_one_could_is_a_mistake_and_going_out_is_not() -> None:
    """The record ends with the seat's move at a turn where it could play its whole hand: the
    analysis weighs that move best; playing something else there is a loss of a point or
    more, a mistake; going out loses nothing. Each loss is the best mean less the played
    one's."""
    data, index, seat, out, other = going_out("out")
    for move, lost in ((other, True), (out, False)):
        ended = {**data, "actions": [*data["actions"], {"seat": seat, "action": move}]}
        (decision,) = analyse(ended, seat, deals=8, only={index}).decisions
        assert decision.best == out and decision.played == move
        played = next(m for m in decision.moves if m.action == move)
        assert decision.loss == pytest.approx(decision.moves[0].mean - played.mean, abs=1e-3)
        assert decision.mistake is lost and (decision.loss >= MISTAKE) is lost


def test_analyse_command(tmp_path: Path) -> None:
    game = new_game(CLASSIC, "cli")
    play_out(game, [HeuristicBot(CLASSIC) for _ in range(5)])
    path = tmp_path / "game.json"
    write_record(game, path)
    out = tmp_path / "analysis.json"
    runner = CliRunner()
    answer = runner.invoke(
        app, ["analyse", str(path), "--seat", "2", "--deals", "4", "--json", str(out)]
    )
    assert answer.exit_code == 0, answer.output
    assert "个决定" in answer.output and "期望得分" in answer.output
    data = json.loads(out.read_text())
    assert data["seat"] == 2 and data["decisions"] and data["points"] == game.scores[2]
    english = runner.invoke(
        app, ["analyse", str(path), "--seat", "2", "--deals", "2", "--lang", "en"]
    )
    assert "decisions:" in english.output
    assert runner.invoke(app, ["analyse", str(path), "--seat", "7"]).exit_code == 2
    path.write_text('{"format": "nonsense"}')
    broken = runner.invoke(app, ["analyse", str(path)])
    assert broken.exit_code == 1 and "记录有误" in broken.output
