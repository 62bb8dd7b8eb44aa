"""Node.js, for the tests that run the page's scripts (server/static/*.js) against the engine."""

from __future__ import annotations

import shutil

import pytest


def need_node() -> str:
    """The ``node`` program. A test that needs it fails without it, rather than skip: a lane
    without Node.js would pass without checking the page's scripts at all."""
    found = shutil.which("node")
    if found is None:
        pytest.fail(
            "Node.js is missing (no `node` on PATH): this test runs the page's scripts. "
            "bash scripts/test.sh installs Debian's nodejs package; or: apt-get install nodejs",
            pytrace=False,
        )
    return found
