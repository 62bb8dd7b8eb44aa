"""The ``baohuang`` command starts without the server's libraries: ``serve``, ``db``,
``loadtest`` and ``bot`` load them (and the protocol client) only when they run."""

from __future__ import annotations

import json
import subprocess
import sys

from typer.testing import CliRunner

from baohuang.cli import app

#: What importing the command line must not load.
SERVER_LIBRARIES = {
    "sqlalchemy",
    "fastapi",
    "httpx",
    "websockets",
    "uvicorn",
    "starlette",
    "alembic",
    "torch",
    "numpy",
}


def python(code: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=60)


def test_importing_the_cli_loads_no_server_library() -> None:
    code = (
        "import baohuang.cli, sys; print(sorted(m for m in sys.modules "
        f"if m.split('.')[0] in {sorted(SERVER_LIBRARIES)!r}))"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert done.stdout.strip() == "[]"


def test_the_server_commands_help_loads_no_server_library() -> None:
    code = (
        "import sys, json; from baohuang.cli import app\n"
        "for args in (['serve', '--help'], ['loadtest', '--help'], ['bot', '--help']):\n"
        "    try:\n"
        "        app(args=args, prog_name='baohuang')\n"
        "    except SystemExit:\n"
        "        pass\n"
        "loaded = {m.split('.')[0] for m in sys.modules}\n"
        f"print(json.dumps(sorted(loaded & {SERVER_LIBRARIES!r})))"
    )
    done = python(code)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout.splitlines()[-1]) == []
    assert "--table" in done.stdout and "--chaos" in done.stdout and "--database" in done.stdout


def test_bot_needs_a_table_and_the_load_extra() -> None:
    result = CliRunner().invoke(app, ["bot"])
    assert result.exit_code == 2 and "--table" in result.output
    code = (
        "import sys; sys.modules['httpx'] = None; from baohuang.cli import app; "
        "app(args=['bot', '--table', 'x', '--url', 'http://127.0.0.1:9'], prog_name='baohuang')"
    )
    done = python(code)
    assert done.returncode == 1
    assert "pip install 'baohuang[load]'" in done.stderr and "httpx" in done.stderr
