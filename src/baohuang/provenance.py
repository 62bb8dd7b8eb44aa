"""Where a result comes from: the stamp that the benchmarks' result files (bench/benchkit.py),
``baohuang arena --json``, ``baohuang loadtest --json`` and a training's ``provenance.json``
carry — the commit, the date, the machine, the command line and the settings.

The commit is that of the checkout this package is imported from, with ``-dirty`` when tracked
files differ from it (``unknown`` outside a checkout or without git)."""

from __future__ import annotations

import datetime
import json
import os
import platform
import shlex
import subprocess
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

#: The package's folder: git runs there, so the commit is the code's, wherever the command runs.
PACKAGE = Path(__file__).parent


def _git(*args: str) -> str | None:
    """``git args``'s output in the package's folder, or ``None`` where it fails."""
    try:
        done = subprocess.run(
            ["git", *args], cwd=PACKAGE, capture_output=True, text=True, timeout=30, check=False
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.strip() if done.returncode == 0 else None


def commit() -> str:
    """The checkout's short commit, ``-dirty`` if tracked files have changed (``unknown``
    outside a checkout)."""
    head = _git("rev-parse", "--short", "HEAD")
    if not head:
        return "unknown"
    changes = _git("status", "--porcelain", "--untracked-files=no")
    return head + "-dirty" if changes else head


def cpu_model() -> str:
    """The processor's model name (Linux, macOS), else what :mod:`platform` knows."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8") as info:
            for line in info:
                key, _, value = line.partition(":")
                if key.strip() == "model name" and value.strip():
                    return value.strip()
    except OSError:
        pass
    if sys.platform == "darwin":
        try:
            return subprocess.run(
                ["sysctl", "-n", "machdep.cpu.brand_string"],
                capture_output=True,
                text=True,
                timeout=10,
                check=True,
            ).stdout.strip()
        except (OSError, subprocess.SubprocessError):
            pass
    return platform.processor() or platform.machine()


def machine(**extra: Any) -> dict[str, Any]:
    """The machine the figures come from: Python, the processor, its cores, the platform."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "processor": platform.processor() or platform.machine(),
        "cpu": cpu_model(),
        "cpu_count": os.cpu_count(),
        "platform": platform.platform(),
        **extra,
    }


def command(argv: Sequence[str] | None = None) -> str:
    """The command line (``sys.argv``) as a shell would take it; the installed ``baohuang``
    script by its name."""
    words = list(sys.argv if argv is None else argv)
    if words and Path(words[0]).name == "baohuang":
        words[0] = "baohuang"
    return shlex.join(words)


def plain(value: Any) -> Any:
    """``value`` as JSON: numbers, strings, booleans and ``None`` as they are, mappings and
    sequences item by item, anything else (paths, enums) as its text."""
    if value is None or isinstance(value, bool | int | float):
        return value
    if isinstance(value, str):
        return str(value)
    if isinstance(value, Mapping):
        return {str(k): plain(v) for k, v in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        return [plain(v) for v in value]
    return str(value)


def stamp(settings: Mapping[str, Any]) -> dict[str, Any]:
    """What a result says of itself: the commit, the date (UTC), the machine, the command line
    and ``settings`` (a command's options: ``vars(args)``, the CLI's parameters)."""
    return {
        "commit": commit(),
        "date": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "machine": machine(),
        "command": command(),
        "settings": plain(settings),
    }


def write_stamped(
    path: Path, settings: Mapping[str, Any], data: Mapping[str, Any], indent: int = 1
) -> None:
    """Write ``data`` to ``path`` as JSON, a :func:`stamp` of ``settings`` first under
    ``"stamp"``."""
    document = {"stamp": stamp(settings), **data}
    path.write_text(json.dumps(document, ensure_ascii=False, indent=indent) + "\n")
