"""Browser tests: Playwright (sync API) drives Debian's Chromium, headless, against the real
server (``baohuang serve`` in a subprocess, tests/helpers/servers.py) with a fresh SQLite
database."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Literal

import pytest
from playwright.sync_api import Browser, Page, sync_playwright

from helpers.servers import LiveServer

from .browserkit import SIZES, Size

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]


@pytest.fixture
def server(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[LiveServer]:
    """A fresh server per test: no other test's tables keep its bots busy. A test marked
    ``@pytest.mark.deals("SEED")`` gets the same table ids and deals every run
    (``serve --test-deals``, docs/testing.md)."""
    database, log = f"sqlite:///{tmp_path / 'server.db'}", tmp_path / "server.log"
    seeded = request.node.get_closest_marker("deals")
    deals = ("--test-deals", str(seeded.args[0])) if seeded else ()
    live = LiveServer(database, log, "--analysis-deals", "2", *deals).start()  # 复盘 in seconds
    yield live
    live.stop()


@pytest.fixture(scope="package")  # Playwright's loop must be gone before asyncio.run tests
def browser() -> Iterator[Browser]:
    if not CHROMIUM.exists():
        pytest.fail(f"no Chromium at {CHROMIUM}: scripts/test.sh installs Debian's chromium")
    with sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS)
        yield chromium
        chromium.close()


@pytest.fixture
def new_page(browser: Browser, server: LiveServer) -> Iterator[Callable[..., Page]]:
    """A factory of pages, each in its own browser context (its own cookies and storage);
    every page must end without a JavaScript error."""
    contexts = []
    errors: list[str] = []

    def make(
        width: int = 1280,
        height: int = 720,
        phone: bool = False,
        reduced_motion: Literal["reduce", "no-preference"] | None = None,
    ) -> Page:
        context = browser.new_context(
            base_url=server.url,
            viewport={"width": width, "height": height},
            is_mobile=phone,
            has_touch=phone,
            device_scale_factor=2 if phone else 1,
            reduced_motion=reduced_motion,
        )
        context.set_default_timeout(15_000)
        contexts.append(context)
        page = context.new_page()
        page.on("pageerror", lambda exc: errors.append(str(exc)))
        return page

    yield make
    for context in contexts:
        context.close()
    assert not errors, errors


@pytest.fixture(params=SIZES, ids=lambda size: size.name)
def size(request: pytest.FixtureRequest) -> Size:
    """The test runs at each of :data:`SIZES`: ``new_page(*size)``."""
    return request.param  # type: ignore[no-any-return]
