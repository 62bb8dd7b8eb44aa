"""Fixtures shared by every test folder, hypothesis' profile, the folder markers, and the
``--update-goldens`` option (tests/goldens)."""

from __future__ import annotations

import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from hypothesis import settings

from helpers.servers import Postgres

# The machine is shared: never fail a test on hypothesis' per-example deadline.
settings.register_profile("baohuang", deadline=None)
settings.load_profile("baohuang")

TESTS = Path(__file__).parent
#: Each test folder's marker (pyproject.toml registers them): ``-m engine``, ``-m "not e2e"``.
FOLDERS = ("engine", "bots", "cli", "server", "e2e", "env", "learn", "goldens")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--update-goldens",
        action="store_true",
        help="write tests/goldens/goldens.json from this tree instead of checking it "
        "(a change that alters the goldens says so in its commit: docs/testing.md)",
    )


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark each test with its folder, and those in tests/e2e/browser with ``browser`` too."""
    for item in items:
        if not item.path.is_relative_to(TESTS):
            continue  # README.md's examples
        parts = item.path.relative_to(TESTS).parts
        if parts[0] in FOLDERS:
            item.add_marker(parts[0])
        if parts[:2] == ("e2e", "browser"):
            item.add_marker("browser")


@pytest.fixture(params=["sqlite", pytest.param("postgresql", marks=pytest.mark.postgres)])
def database(request: pytest.FixtureRequest, tmp_path: Path) -> str:
    """A fresh database of each kind the server runs on: SQLite, then PostgreSQL."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'test.db'}"
    cluster: Postgres = request.getfixturevalue("postgres")
    return cluster.database(f"d{uuid.uuid4().hex[:12]}")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A real PostgreSQL cluster for the server tests (installed by scripts/test.sh)."""
    cluster = Postgres().start()
    yield cluster
    cluster.stop()
