"""The stamp a result file carries (:mod:`baohuang.provenance`): what the tests of every
``--json`` check of it."""

from __future__ import annotations

import datetime
import re
from typing import Any

#: A short commit, ``-dirty`` when tracked files had changed; ``unknown`` outside a checkout.
COMMIT = re.compile(r"[0-9a-f]{4,40}(-dirty)?|unknown")
#: A stamp's fields.
FIELDS = ("commit", "date", "machine", "command", "settings")


def check_stamp(data: dict[str, Any], **settings: Any) -> dict[str, Any]:
    """``data`` has a stamp with the commit, the date (UTC), the machine, the command line and
    the settings, ``settings`` among them; the stamp."""
    stamp: dict[str, Any] = data["stamp"]
    assert set(stamp) == set(FIELDS), stamp
    assert COMMIT.fullmatch(stamp["commit"]), stamp["commit"]
    date = datetime.datetime.fromisoformat(stamp["date"])
    assert date.utcoffset() == datetime.timedelta(0)
    assert abs(datetime.datetime.now(datetime.UTC) - date) < datetime.timedelta(hours=1)
    machine = stamp["machine"]
    assert machine["python"] and machine["cpu"] and machine["platform"], machine
    assert machine["cpu_count"] >= 1
    assert isinstance(stamp["command"], str) and stamp["command"]
    for name, value in settings.items():
        assert stamp["settings"][name] == value, (name, stamp["settings"])
    return stamp
