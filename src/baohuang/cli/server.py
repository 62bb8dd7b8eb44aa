"""``baohuang serve``, ``db upgrade``, ``protocol``: the server's commands (see main.py). The
server and its libraries are imported only when one of them runs."""

from __future__ import annotations

import asyncio
import importlib.util
import socket
from pathlib import Path
from typing import Annotated, NoReturn

import typer

from ..server.logs import LogFormat, log_config
from ..server.settings import DEFAULT_DATABASE


def serve(
    host: Annotated[str, typer.Option(help="监听地址 address to listen on")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="端口 port")] = 8000,
    database: Annotated[
        str,
        typer.Option(help="数据库 SQLAlchemy URL: sqlite:///FILE or postgresql+asyncpg://…"),
    ] = DEFAULT_DATABASE,
    log_format: Annotated[
        LogFormat,
        typer.Option(
            help="日志格式 log format: text (for a person at a terminal) or json (one JSON object "
            "a line, for a log collector); logs go to standard error"
        ),
    ] = LogFormat.text,
    proxy: Annotated[
        list[str] | None,
        typer.Option(
            help="可信反向代理 a reverse proxy's address whose X-Forwarded-For/-Proto to trust "
            "(repeatable); from anyone else those headers are ignored"
        ),
    ] = None,
    request_timeout: Annotated[
        float,
        typer.Option(help="请求超时 seconds a request's line and headers may take to arrive"),
    ] = 10.0,
    origin: Annotated[
        list[str] | None,
        typer.Option(
            help="允许的网页来源 another origin (https://host) whose pages may open table "
            "sockets (repeatable); this server's own is always allowed"
        ),
    ] = None,
    exempt: Annotated[
        list[str] | None,
        typer.Option(
            help="免限流地址 an address free of the per-address limits (tables, guests, "
            "sockets: a load generator's; repeatable)"
        ),
    ] = None,
    redis: Annotated[
        str | None,
        typer.Option(
            help="多节点 Redis URL (redis://host:6379/0): run as one node of many sharing "
            "--database (PostgreSQL); without it, one process"
        ),
    ] = None,
    node: Annotated[
        str | None,
        typer.Option(help="节点名 this node's name among the others (default: host:port)"),
    ] = None,
    metrics_token: Annotated[
        str | None,
        typer.Option(
            envvar="BAOHUANG_METRICS_TOKEN",
            help="指标口令 /metrics answers only requests with 'Authorization: Bearer TOKEN' "
            "(a node reachable without the reverse proxy: compose.yaml publishes its port)",
        ),
    ] = None,
    api_docs: Annotated[
        bool,
        typer.Option(help="接口文档 serve the OpenAPI pages at /docs and /openapi.json"),
    ] = False,
    bot_workers: Annotated[
        int | None,
        typer.Option(
            help="机器人进程数 processes the bots think in, off the tables' event loop "
            "(default: one per core; 0: in the server's own process, no admission)",
            min=0,
        ),
    ] = None,
    bot_share: Annotated[
        float | None,
        typer.Option(
            help="每人机器人算力 cores of bot thinking one user's open tables may ask for "
            "(default 2; a table of strong bots: ~0.1 at the default delay, ~1 at zero delay)",
            min=0.0,
        ),
    ] = None,
    bot_budget: Annotated[
        float | None,
        typer.Option(
            help="节点机器人算力 cores of bot thinking this node's open tables may ask for "
            "(default: 8 per bot worker)",
            min=0.0,
        ),
    ] = None,
    analysis_deals: Annotated[
        int,
        typer.Option(help="复盘推演 deals dealt for each decision of a 复盘 (analysis)", min=2),
    ] = 32,
    test_deals: Annotated[
        str | None,
        typer.Option(
            hidden=True,
            help="TESTS ONLY: draw every table id, seed and deal from this seed, so that a "
            "run repeats (anyone who knows it can compute the deals)",
        ),
    ] = None,
    lease: Annotated[
        float,
        typer.Option(
            help="租约 seconds a node's hold on its tables lasts unrenewed: a dead node's "
            "tables move to another node after at most this",
            min=1.0,
        ),
    ] = 5.0,
) -> None:
    """启动保皇服务器（大厅、牌桌、网页）。 Run the game server: lobby, tables, browser client."""
    import uvicorn

    from ..server.app import create_app
    from ..server.botpool import workers_for
    from ..server.cluster.nodes import Node
    from ..server.slowclients import timed_requests

    refused = cannot_listen(host, port)
    if refused is not None:  # before the banner: uvicorn would only say so after it
        typer.echo(
            f"无法在 {host}:{port} 监听（{refused}）：换一个 --port 或停掉占用它的程序。 "
            f"Cannot listen on {host}:{port} ({refused}): choose another --port or stop what "
            "holds it.",
            err=True,
        )
        raise typer.Exit(1)
    cluster = None
    if redis is not None:
        if database.startswith("sqlite"):
            typer.echo(
                "多个节点要共用 PostgreSQL：加上 --database postgresql://…  "
                "Many nodes share one PostgreSQL database: add --database postgresql://…",
                err=True,
            )
            raise typer.Exit(2)
        cluster = Node(redis, node or f"{socket.gethostname()}:{port}", lease)
    if test_deals is not None:
        if cluster is not None:
            typer.echo("--test-deals 只用于单节点 is for one node only", err=True)
            raise typer.Exit(2)
        typer.echo(
            "测试模式：发牌可以预先算出，切勿给真人使用。 TEST MODE (--test-deals): deals can be "
            "computed in advance; never serve people with it.",
            err=True,
        )
    ready_database(database)  # a database that cannot work says so in one line, not at startup
    shown = masked(database)
    typer.echo(f"保皇 Baohuang 服务器 server: http://{host}:{port}  (数据库 database: {shown})")
    if cluster is not None:
        typer.echo(f"节点 node {cluster.name} (Redis {redis}, lease {lease:g} s)")
    uvicorn.run(
        create_app(
            database,
            origins=origin or (),
            node=cluster,
            exempt=exempt or (),
            metrics_token=metrics_token,
            api_docs=api_docs,
            bot_workers=workers_for() if bot_workers is None else bot_workers,
            bot_share=bot_share,
            bot_budget=bot_budget,
            analysis_deals=analysis_deals,
            test_deals=test_deals,
        ),
        host=host,
        port=port,
        # A half-sent request holds no socket for ever, nor one address too many.
        http=timed_requests(request_timeout, [*(proxy or ()), *(exempt or ())]),
        proxy_headers=bool(proxy),
        forwarded_allow_ips=proxy or [],
        ws_max_size=65536,
        ws_per_message_deflate=False,  # compression cost a fifth of the server's time
        log_level="warning",
        log_config=log_config(log_format),
    )


def cannot_listen(host: str, port: int) -> str | None:
    """Why ``host:port`` cannot be listened on (as uvicorn binds it), or ``None``."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    with socket.socket(family, socket.SOCK_STREAM) as probe:
        probe.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            probe.bind((host, port))
        except OSError as exc:
            return exc.strerror or str(exc)
    return None


#: ``baohuang db``: the database.
db = typer.Typer(help="数据库 The database: schema migrations.", no_args_is_help=True)


@db.command("upgrade")
def db_upgrade(
    database: Annotated[
        str,
        typer.Option(help="数据库 SQLAlchemy URL: sqlite:///FILE or postgresql+asyncpg://…"),
    ] = DEFAULT_DATABASE,
) -> None:
    """升级数据库结构（启动服务器时也会升级）。 Upgrade the schema (serve does it on start too)."""
    revision = ready_database(database)
    typer.echo(f"数据库已是最新结构 the database is at revision {revision}: {masked(database)}")


def protocol(
    out: Annotated[Path, typer.Option(help="输出目录 folder to write into")] = Path("docs"),
) -> None:
    """生成协议文档（JSON Schema 与 Markdown）。 Write the protocol's JSON Schema and docs."""
    from ..protocol.schema import write

    for path in write(out):
        typer.echo(str(path))


# ---------------------------------------------------------------------- the optional extras


def masked(database: str) -> str:
    """``database`` as shown on a terminal or in a log: its password as ``***``."""
    from sqlalchemy.engine import make_url

    return repr(make_url(database))


def ready_database(database: str) -> str:
    """Upgrade the schema of ``--database`` (its revision now), or stop with one clear line
    saying why it cannot work: not a URL, a kind of database SQLAlchemy does not know, an
    SQLite file in a folder that does not exist, PostgreSQL without its extra installed, or a
    database that does not answer."""
    from sqlalchemy.engine import make_url
    from sqlalchemy.exc import ArgumentError, NoSuchModuleError, SQLAlchemyError

    from ..server.store import database_url, upgrade

    def stop(zh: str, en: str, code: int = 2) -> NoReturn:
        """One line and the exit status: 2 for a --database written wrong, 1 otherwise."""
        typer.echo(f"{zh}  {en}", err=True)
        raise typer.Exit(code)

    try:
        url = make_url(database_url(database))
        url.get_dialect()
    except NoSuchModuleError:  # an ArgumentError too: first
        stop(
            f"不认识的数据库 {url.drivername!r}",
            f"unknown kind of database {url.drivername!r}: use sqlite:///FILE or "
            "postgresql://USER:PASSWORD@HOST/NAME",
        )
    except ArgumentError:
        stop(
            f"--database 不是数据库地址：{database!r}",
            f"--database is not a database URL: {database!r} (sqlite:///FILE or "
            "postgresql://USER:PASSWORD@HOST/NAME)",
        )
    folder = Path(url.database or "").parent
    on_disk = url.get_backend_name() == "sqlite" and url.database not in (None, "", ":memory:")
    if on_disk and not folder.is_dir():
        stop(f"没有文件夹 {folder}", f"no folder {folder} for the SQLite file {url.database}")
    if url.drivername == "postgresql+asyncpg" and importlib.util.find_spec("asyncpg") is None:
        stop(
            "PostgreSQL 需要安装 baohuang[postgres]",
            "PostgreSQL needs the [postgres] extra: pip install 'baohuang[postgres]'",
            code=1,
        )
    try:
        return asyncio.run(upgrade(database))
    except (OSError, SQLAlchemyError) as exc:
        reason = str(getattr(exc, "orig", None) or exc).splitlines()[0]
        stop(f"连不上数据库 {url!r}", f"cannot use the database {url!r}: {reason}", code=1)


def need_load_extra(command: str, zh: str) -> None:
    """Stop with a clear message when httpx, the [load] extra, is not installed: ``baohuang
    command`` (``zh`` in Chinese) needs it."""
    if importlib.util.find_spec("httpx") is None:
        typer.echo(
            f"baohuang {command} needs the [load] extra (missing httpx): "
            f"pip install 'baohuang[load]'  ({zh}需要安装 baohuang[load])",
            err=True,
        )
        raise typer.Exit(1)
