"""A bot worker process (机器人进程): bots think here, off the table node's event loop and GIL.

Run as ``python -m baohuang.server.botworker`` by :class:`~baohuang.server.botpool.BotPool`, it
reads one JSON request a line on standard input and writes one JSON reply a line on standard
output, in order:

- ``{"id", "key", "level", "rules", "seed", "view", "legal", "until", "history"?}``: the bot
  ``key`` (a table's seat) chooses among ``legal`` (notation) from ``view`` (a seat's view's
  JSON, R14); replies ``{"id", "action"}``. A bot it does not hold is made from ``level``,
  ``rules`` and ``seed`` and shown ``history`` first (:func:`~baohuang.bots.base.catch_up`);
  without ``history`` the reply is ``{"id", "unknown": true}`` and the pool asks again with it.
  A request read after ``until`` (``time.monotonic()`` seconds, one clock for every process of
  the machine) is not thought about: ``{"id", "late": true}``. A bot that fails replies
  ``{"id", "error"}`` and is forgotten.
- ``{"drop": key}``: forget that bot; ``{"forget": table_id}``: forget the table's bots.

The process runs at a lower priority than the node (:data:`NICE`), so the tables' own work
comes first when the cores are busy, and holds at most :data:`MAX_BOTS` bots (the least
recently used go; one asked again is rebuilt from its history).
"""

from __future__ import annotations

import logging
import os
import sys
import time
from collections import OrderedDict
from typing import Any

import orjson

from ..bots.base import Bot, catch_up, make_bot
from ..engine.actions import Action, parse_action
from ..engine.rules import Rules
from ..engine.views import View

log = logging.getLogger("baohuang.botworker")

#: How much lower than the node the workers run (``nice``): tables first, then thinking.
NICE = 5
#: Bots one worker holds at most.
MAX_BOTS = 2048


class Worker:
    """The bots of one worker process, by key, and the requests' answers."""

    def __init__(self) -> None:
        self.bots: OrderedDict[str, Bot] = OrderedDict()
        self.rules: dict[bytes, Rules] = {}

    def handle(self, request: dict[str, Any]) -> dict[str, Any] | None:
        """The reply to ``request`` (``None`` for ``drop`` and ``forget``)."""
        if "drop" in request:
            self.bots.pop(request["drop"], None)
            return None
        if "forget" in request:
            prefix = f"{request['forget']}/"
            for key in [k for k in self.bots if k.startswith(prefix)]:
                del self.bots[key]
            return None
        number, key = request["id"], request["key"]
        if time.monotonic() > request["until"]:
            return {"id": number, "late": True}
        bot = self.bots.get(key)
        if bot is None:
            if "history" not in request:
                return {"id": number, "unknown": True}
            bot = self._make(request)
        self.bots.move_to_end(key)
        try:
            view = View.from_json(request["view"])
            legal = [parse_action(text) for text in request["legal"]]
            action: Action = bot.choose(view, legal)
        except Exception as exc:  # a bot's bug: this move is the node's fallback's
            log.exception("bot %s failed", key)
            self.bots.pop(key, None)
            return {"id": number, "error": f"{type(exc).__name__}: {exc}"[:300]}
        return {"id": number, "action": str(action)}

    def _make(self, request: dict[str, Any]) -> Bot:
        rules_key = orjson.dumps(request["rules"], option=orjson.OPT_SORT_KEYS)
        rules = self.rules.get(rules_key)
        if rules is None:
            rules = self.rules[rules_key] = Rules.from_dict(request["rules"])
        bot = make_bot(request["level"], rules, request["seed"])
        seat = request["view"]["seat"]
        catch_up(bot, request["history"], seat)
        self.bots[request["key"]] = bot
        while len(self.bots) > MAX_BOTS:
            self.bots.popitem(last=False)
        return bot


def main() -> None:
    logging.basicConfig(level=logging.WARNING, format="botworker %(levelname)s %(message)s")
    os.nice(NICE)
    worker = Worker()
    out = sys.stdout.buffer
    for line in sys.stdin.buffer:
        reply = worker.handle(orjson.loads(line))
        if reply is not None:
            out.write(orjson.dumps(reply) + b"\n")
            out.flush()


if __name__ == "__main__":
    main()
