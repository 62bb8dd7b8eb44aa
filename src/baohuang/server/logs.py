"""Logs (日志): the server's log lines as text for a person or as JSON lines for a collector.

``baohuang serve --log-format json|text`` hands :func:`log_config` to uvicorn, which applies it
with :func:`logging.config.dictConfig`: the server's own loggers (``baohuang.*``; the table
actors log to ``baohuang.server``), uvicorn's and everything else that reaches the root logger
(warnings and above) go to standard error in the one format.

A JSON line is one object: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, then the
record's fields: whatever the call passed as ``extra=``, ``table`` (the table's id) for a message
that starts with ``table %s``, and ``exception`` with the traceback when there is one. A
warning or error repeated within seconds is written once a window (:class:`Repeats`).
"""

from __future__ import annotations

import json
import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from enum import StrEnum
from typing import Any


class LogFormat(StrEnum):
    text = "text"
    json = "json"


#: The attributes every log record has: what is left are the call's own fields.
_STANDARD = frozenset(vars(logging.LogRecord("", logging.INFO, "", 0, "", None, None))) | {
    "message",
    "asctime",
    "color_message",
    "taskName",
}
#: The text format, for a person at a terminal.
TEXT_FORMAT = "%(asctime)s %(levelname)s %(name)s: %(message)s"


def fields(record: logging.LogRecord) -> dict[str, Any]:
    """A record's own fields: ``extra=`` ones, and ``table`` for a ``table %s …`` message."""
    found = {
        key: value
        for key, value in vars(record).items()
        if key not in _STANDARD and not key.startswith("_")
    }
    if (
        "table" not in found
        and isinstance(record.msg, str)
        and record.msg.startswith("table %s")
        and isinstance(record.args, tuple)
        and record.args
    ):
        found["table"] = record.args[0]
    return found


class JsonFormatter(logging.Formatter):
    """One JSON object per record, on one line (see the module docstring)."""

    def format(self, record: logging.LogRecord) -> str:
        when = datetime.fromtimestamp(record.created, UTC)
        entry: dict[str, Any] = {
            "time": when.isoformat(timespec="milliseconds").replace("+00:00", "Z"),
            "level": record.levelname,
            "logger": record.name,
            "message": record.getMessage(),
        }
        for key, value in fields(record).items():
            entry.setdefault(key, value)
        if record.exc_info:
            entry["exception"] = self.formatException(record.exc_info)
        if record.stack_info:
            entry["stack"] = self.formatStack(record.stack_info)
        return json.dumps(entry, ensure_ascii=False, separators=(",", ":"), default=str)


#: Seconds within which a warning or error like one already written is left out.
REPEAT_WINDOW = 10.0


class Repeats(logging.Filter):
    """Leave out a warning or error written already (the same logger, level and message
    template) within :data:`REPEAT_WINDOW` seconds: a database outage made every table log
    the same failure, over and over. The next one let through says how many were left out
    (its ``repeated`` field). Information lines always pass."""

    def __init__(self, clock: Callable[[], float] = time.monotonic) -> None:
        super().__init__()
        self.clock = clock
        #: By (logger, level, template): when one last went through, and how many since.
        self.seen: dict[tuple[str, int, str], tuple[float, int]] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno < logging.WARNING:
            return True
        key = (record.name, record.levelno, str(record.msg))
        now = self.clock()
        last, left_out = self.seen.get(key, (-REPEAT_WINDOW, 0))
        if now - last < REPEAT_WINDOW:
            self.seen[key] = (last, left_out + 1)
            return False
        if left_out:
            record.repeated = left_out
            record.msg = f"{record.msg} (and {left_out} like it left out)"
        self.seen[key] = (now, 0)
        if len(self.seen) > 10_000:  # templates are few; this only bounds the odd case
            self.seen.clear()
        return True


def log_config(log_format: LogFormat | str = LogFormat.text) -> dict[str, Any]:
    """A :func:`logging.config.dictConfig` for the server (uvicorn's ``log_config``)."""
    chosen = LogFormat(log_format)
    passed_on = {"handlers": [], "propagate": True}
    return {
        "version": 1,
        # The loggers made at import (``baohuang.server``) must keep working.
        "disable_existing_loggers": False,
        "formatters": {
            "json": {"()": JsonFormatter},
            "text": {"format": TEXT_FORMAT},
        },
        "filters": {"repeats": {"()": Repeats}},
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": chosen.value,
                "filters": ["repeats"],
                "stream": "ext://sys.stderr",
            },
        },
        "loggers": {
            "baohuang": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
            "uvicorn": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
            "uvicorn.error": passed_on,
            "uvicorn.access": passed_on,
        },
        "root": {"handlers": ["stderr"], "level": "WARNING"},
    }
