#!/usr/bin/env bash
# Set up everything the tests need (a virtual environment; Debian's PostgreSQL, Chromium, Redis,
# nginx and Node.js when missing) and run every check: ruff, mypy --strict, the import layers
# (lint-imports), pytest.
# `--fast` runs the fast lane alone: the engine, bots, cli and in-process server tests and the
# goldens, without the slow ones and PostgreSQL, on every core (pytest-xdist): 70 s on two quiet
# cores, 2 to 5 minutes on busy ones (docs/testing.md). Other arguments go to pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
fast=false
if [ "${1:-}" = --fast ]; then
    fast=true
    shift
fi
missing=()
# Node.js, in both lanes: tests/cli runs the page's scripts (cards.js, tablelog.js) against the
# engine, and fails without it.
command -v node >/dev/null || missing+=(nodejs)
if ! $fast; then
    compgen -G "/usr/lib/postgresql/*/bin/initdb" >/dev/null || missing+=(postgresql)
    [ -x /usr/bin/chromium ] || missing+=(chromium)
    # Many nodes: a real Redis, and nginx in front of them (deploy/nginx.conf).
    [ -x /usr/bin/redis-server ] || missing+=(redis-server)
    [ -x /usr/sbin/nginx ] || missing+=(nginx)
    # A Chinese font, or the browser tests' screenshots show boxes instead of 保皇.
    [ -e /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc ] || missing+=(fonts-wqy-zenhei)
fi
if [ ${#missing[@]} -gt 0 ]; then
    sudo=""
    [ "$(id -u)" = 0 ] || sudo=sudo
    $sudo apt-get update -q
    DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -q --no-install-recommends "${missing[@]}"
fi
[ -x .venv/bin/python ] || python3 -m venv .venv
.venv/bin/python -m pip install -q --disable-pip-version-check -e '.[dev]'
if $fast; then
    exec .venv/bin/pytest -n auto -m "not e2e and not slow and not postgres" \
        tests/engine tests/bots tests/cli tests/server tests/goldens "$@"
fi
.venv/bin/ruff check .
.venv/bin/ruff format --check .
.venv/bin/mypy
.venv/bin/lint-imports
.venv/bin/pytest "$@"
