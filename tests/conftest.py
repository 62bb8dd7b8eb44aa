"""Fixtures shared by every test folder, hypothesis' profile, and the folder markers."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from hypothesis import settings

from helpers.servers import Postgres

# The machine is shared: never fail a test on hypothesis' per-example deadline.
settings.register_profile("baohuang", deadline=None)
settings.load_profile("baohuang")


@pytest.fixture(scope="session")
def postgres() -> Iterator[Postgres]:
    """A real PostgreSQL cluster for the server tests (installed by scripts/test.sh)."""
    cluster = Postgres().start()
    yield cluster
    cluster.stop()
