"""The server's defaults that the command line shows before it loads the server (stdlib
only)."""

from __future__ import annotations

#: The zero-config database: a SQLite file in the current directory.
DEFAULT_DATABASE = "sqlite+aiosqlite:///baohuang.db"
