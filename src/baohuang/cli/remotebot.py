"""``baohuang bot`` (远程机器人): a bot that joins a table on a running server as a guest and
plays in a free seat until the match is over (:func:`baohuang.client.botseat.remote_bot`)."""

from __future__ import annotations

import asyncio
from enum import StrEnum
from typing import Annotated, Any

import typer

from ..client.errors import ClientError
from .server import need_load_extra


class RemoteBot(StrEnum):
    """The bots that can play a seat."""

    heuristic = "heuristic"
    search = "search"
    strong = "strong"
    random = "random"


class Narration:
    """What the bot tells its terminal, one line a step: its seat, each game's points, the
    refusals it meets, a reconnect."""

    def __init__(self) -> None:
        self.seat: int | None = None
        self.welcomed = False

    def __call__(self, msg: dict[str, Any]) -> None:
        kind, data = msg["t"], msg["d"]
        if kind == "ack" and data.get("token"):
            self.seat = data["seat"]
            typer.echo(f"入座 seated: 座位 seat {self.seat}")
        elif kind == "welcome":
            if self.welcomed:
                typer.echo("重新连上 reconnected")
            self.welcomed = True
        elif kind == "error":
            typer.echo(f"被拒绝 refused: {data['code']} {data['zh']} / {data['message']}")
        elif kind == "event" and data["kind"] == "game_over":
            mine = "" if self.seat is None else f"{data['scores'][self.seat]:+d}, "
            typer.echo(
                f"第 {data['game'] + 1} 局结束 game {data['game'] + 1} over: "
                f"{mine}总分 totals {data['totals']}"
            )
        elif kind == "event" and data["kind"] == "match_over":
            typer.echo(f"整场结束 match over: 总分 totals {data['totals']}")


def bot_command(
    table: Annotated[str, typer.Option(help="牌桌编号 table id")],
    url: Annotated[str, typer.Option(help="服务器地址 server URL")] = "http://127.0.0.1:8000",
    bot: Annotated[RemoteBot, typer.Option(help="机器人 bot")] = RemoteBot.heuristic,
    name: Annotated[str, typer.Option(help="游客昵称 guest nickname")] = "远程机器人",
    seed: Annotated[int, typer.Option(help="机器人种子 bot seed")] = 0,
) -> None:
    """远程机器人：以游客身份加入运行中服务器的牌桌，入座打到整场结束（Ctrl-C 离开）。 A bot that
    joins a table on a running server as a guest, sits in a free seat and plays until the match
    is over (Ctrl-C: leave)."""
    need_load_extra("bot", "远程机器人")
    from websockets.exceptions import WebSocketException

    from ..client.botseat import remote_bot

    try:
        asyncio.run(remote_bot(url, table, bot.value, name, seed, Narration()))
    except ClientError as exc:
        typer.echo(f"机器人无法继续 the bot cannot go on: {exc.text('zh')} / {exc}", err=True)
        raise typer.Exit(1) from None
    except (OSError, WebSocketException) as exc:
        typer.echo(f"与服务器的连接断了 lost the server: {exc}", err=True)
        raise typer.Exit(1) from None
    except KeyboardInterrupt:
        typer.echo("已离开 left the table")
        raise typer.Exit(130) from None
