"""The ``baohuang`` command starts without the server's libraries: ``serve``, ``db``,
``loadtest`` and ``bot`` load them (and the protocol client) only when they run."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest
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


@pytest.mark.parametrize(
    ("database", "said", "status"),
    [
        ("not a url", "is not a database URL", 2),
        ("nosuch://x", "unknown kind of database 'nosuch'", 2),
        ("sqlite:////no/such/folder/x.db", "no folder /no/such/folder", 2),
        ("postgresql://me:secret@127.0.0.1:9/x", "cannot use the database", 1),
    ],
)
def test_a_database_that_cannot_work_says_why_in_one_line(
    database: str, said: str, status: int
) -> None:
    for command in (["db", "upgrade"], ["serve", "--port", "0"]):
        result = CliRunner().invoke(app, [*command, "--database", database])
        assert result.exit_code == status, result.output
        assert said in result.output and len(result.output.strip().splitlines()) == 1
        assert "Traceback" not in result.output and "secret" not in result.output


def test_learned_bots_say_which_extra_and_what_is_wrong_with_a_model(tmp_path: Path) -> None:
    code = (
        "import sys; sys.modules['numpy'] = None; from baohuang.cli import app; "
        "app(args=['arena', '--bots', 'learned,heuristic', '--games', '2', '--lang', 'en'], "
        "prog_name='baohuang')"
    )
    done = python(code)
    assert done.returncode == 2 and "pip install 'baohuang[rl]'" in done.stderr, done.stderr
    broken = tmp_path / "model.npz"
    broken.write_text("not a model")
    for path, said in ((tmp_path / "none.npz", "No such file"), (broken, "cannot read")):
        args = ["arena", "--bots", f"learned:{path},heuristic", "--games", "2", "--lang", "en"]
        result = CliRunner().invoke(app, args)
        assert result.exit_code == 2 and said in result.output, result.output
        assert "Traceback" not in result.output
