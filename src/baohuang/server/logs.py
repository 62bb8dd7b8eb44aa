"""Logs (日志): the server's log lines as text for a person or as JSON lines for a collector.

``baohuang serve --log-format json|text`` hands :func:`log_config` to uvicorn, which applies it
with :func:`logging.config.dictConfig`: the server's own loggers (``baohuang.*``; the table
actors log to ``baohuang.server``), uvicorn's and everything else that reaches the root logger
(warnings and above) go to standard error in the one format.

A JSON line is one object: ``time`` (UTC, ISO 8601), ``level``, ``logger``, ``message``, then the
record's fields: whatever the call passed as ``extra=``, ``table`` (the table's id) for a message
that starts with ``table %s``, and ``exception`` with the traceback when there is one.
"""

from __future__ import annotations

import json
import logging
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
        "handlers": {
            "stderr": {
                "class": "logging.StreamHandler",
                "formatter": chosen.value,
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
