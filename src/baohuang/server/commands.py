"""``baohuang serve`` and ``baohuang loadtest``: the server's commands (see cli.py)."""

from __future__ import annotations

from pathlib import Path
from typing import Annotated

import typer

from .store import DEFAULT_DATABASE


def serve(
    host: Annotated[str, typer.Option(help="监听地址 address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="端口 port")] = 8000,
    database: Annotated[
        str,
        typer.Option(help="数据库 SQLAlchemy URL: sqlite:///FILE or postgresql+asyncpg://…"),
    ] = DEFAULT_DATABASE,
) -> None:
    """启动保皇服务器（大厅、牌桌、网页）。 Run the game server: lobby, tables, browser client."""
    import uvicorn

    from .app import create_app

    typer.echo(f"保皇 Baohuang 服务器 server: http://{host}:{port}  (数据库 database: {database})")
    uvicorn.run(
        create_app(database),
        host=host,
        port=port,
        ws_max_size=65536,
        ws_per_message_deflate=False,  # compression cost a fifth of the server's time
        log_level="warning",
    )


def protocol(
    out: Annotated[Path, typer.Option(help="输出目录 folder to write into")] = Path("docs"),
) -> None:
    """生成协议文档（JSON Schema 与 Markdown）。 Write the protocol's JSON Schema and docs."""
    from .schema import write

    for path in write(out):
        typer.echo(str(path))
