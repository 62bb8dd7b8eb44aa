"""The message catalog (baohuang.text): one entry per id in both languages, the words the page
uses, and the narration of every engine event, the same in the terminal and in the page's log."""

from __future__ import annotations

import ast
import json
import re
import shutil
import string
import subprocess
from functools import cache
from pathlib import Path
from typing import Any, get_args

from baohuang import Match, Rules, new_game
from baohuang.bots import RandomBot, play_out
from baohuang.cli.main import open_event
from baohuang.cli.terminal import Narrator
from baohuang.engine.events import EventKind
from baohuang.engine.rules import PRESETS
from baohuang.text import catalog
from baohuang.text.catalog import MESSAGES, TABLES, t
from baohuang.text.narration import NARRATION
from baohuang.text.narrator import Narration, Said
from helpers.nodejs import need_node

TEXT = Path(catalog.__file__).parent
STATIC = TEXT.parent / "server" / "static"

# ------------------------------------------------------------------------------ the entries


def test_every_id_is_in_one_table_and_has_both_languages() -> None:
    assert sum(map(len, TABLES)) == len(MESSAGES)  # no id in two tables
    assert all(zh and en for zh, en in MESSAGES.values())


def test_languages_have_the_same_fields() -> None:
    fields = string.Formatter()
    for key, (zh, en) in MESSAGES.items():
        zh_fields = {name for _, name, _, _ in fields.parse(zh) if name}
        en_fields = {name for _, name, _, _ in fields.parse(en) if name}
        assert zh_fields == en_fields, key
    assert t("role.emperor") == "皇帝" and t("role.emperor", "en") == "emperor"
    assert t("place.5") == "大落" and t("place.1", "en") == "1st"


def test_text_imports_nothing_from_the_rest_of_baohuang() -> None:
    for path in TEXT.glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ImportFrom):
                assert node.level <= 1 and not (node.module or "").startswith("baohuang"), path
            elif isinstance(node, ast.Import):
                assert not any(a.name.startswith("baohuang") for a in node.names), path


#: ``t("id")``, ``t(`prefix.${x}`)``, ``both("id")`` and ``addLog("id", …)`` (a log line's
#: template, told when drawn) in the page's scripts.
JS_ID = re.compile(r"""\b(?:t|both|addLog)\(\s*(["`])([^"`]*)\1""")


def test_every_id_the_page_uses_is_in_the_catalog() -> None:
    used = {m[2] for path in STATIC.glob("*.js") for m in JS_ID.finditer(path.read_text())}
    assert {"title", "act.call", "log.start"} <= used  # the regex finds them
    for key in used:
        if "${" in key:  # built from a prefix: some message must have it
            assert any(k.startswith(key.split("${")[0]) for k in MESSAGES), key
        else:
            assert key in MESSAGES and all(MESSAGES[key]), key


# ------------------------------------------------------------------------------ narration


@cache
def played() -> tuple[tuple[dict[str, Any], ...], ...]:
    """Event logs as each seat, a spectator and an open replay have them: two games of every
    preset between random bots, and an escape (R10.4)."""
    logs: list[list[dict[str, Any]]] = []
    for name in PRESETS:
        match = Match(Rules.preset(name), 2, 1)
        for _ in range(2):
            game = match.game
            play_out(game, [RandomBot(f"{name}/{s}") for s in range(5)])
            logs += [game.events_for(seat) for seat in (*range(5), None)]
            logs.append([open_event(e) for e in game.events])
            if not match.is_over:
                match.next_game()
    escaped = new_game(Rules.preset("kk_simple"), seed=3)
    escaped.apply("escape 2")
    return tuple(map(tuple, [*logs, escaped.events_for(0), HAND_MADE]))


#: Events random games seldom or never show, told in this order to seat 0.
HAND_MADE: list[dict[str, Any]] = [
    {"kind": "void", "deal": 0},  # nobody took the emperor card (R8.6)
    {"kind": "deal", "deal": 1, "counts": [43, 43, 43, 43, 44]},  # a record without its dealer
    {"kind": "tribute_due", "payers": [[3, None], [4, 1]]},  # 清3 (R6.8)
    {"kind": "call", "seat": 0, "card": "9h", "solo": "dark"},  # 暗独 (R8.6)
    {"kind": "call", "seat": 2, "card": "9h", "dark": True},  # an open replay's 暗独
    {"kind": "roles", "emperor": 0, "solo": "dark"},  # R9.3
    {"kind": "open_solo", "seat": 0, "card": "9h", "shown": [], "how": "shown"},  # R8.7
    {"kind": "open_solo", "seat": 1, "card": None, "shown": [], "how": "grabbed"},  # R11.4
    {"kind": "reveal", "seat": 2, "role": "solo"},
    {"kind": "declare", "seat": 1, "poll": "kick", "answer": "pass"},  # R9.6
    {"kind": "candidate", "seat": 3, "pile": ["R*"]},  # R9.3 weihai: 转让
    {"kind": "transfer", "seat": 3, "to": 2, "added": None, "counts": [33, 33, 33, 33, 33]},
    {"kind": "reveal", "seat": 3, "role": "guard"},
    {"kind": "cleared", "seat": 4, "by": 0},
]


def said_ids(said: Said) -> set[str]:
    """The templates in ``said``, those of its nested lines and of its fields included."""
    ids = set()
    for key, fields in said:
        ids.add(key)
        ids |= said_ids(fields.get("payers", []))
        ids |= {"event.auto"} if fields.get("auto") else set()
    return ids


def test_every_event_kind_is_narrated_with_the_catalogs_templates() -> None:
    kinds, used = set(), set()
    for log in played():
        kinds |= {event["kind"] for event in log}
        for lang in ("zh", "en"):
            narrator = Narrator(lang, 0)
            for event in log:
                said = narrator.says(event)
                used |= said_ids(said)
                for key, fields in said:
                    line = narrator.render(key, fields)
                    assert line and "{" not in line, (event, line)
    assert kinds == set(get_args(EventKind))
    assert used == NARRATION.keys()  # every template told, none missing


#: Puts the server's ``says`` in words with static/tablelog.js, in both languages: the
#: catalog on stdin (as GET /api/text gives it) and each log's events with what they say.
NODE_SCRIPT = """
globalThis.localStorage = { getItem: () => null, setItem: () => {} };
globalThis.document = { documentElement: { classList: { toggle() {} } } };
let input = "";
for await (const chunk of process.stdin) input += chunk;
const { catalog, logs } = JSON.parse(input);
globalThis.fetch = async () => ({ ok: true, json: async () => catalog });
const i18n = await import("./i18n.js");
await i18n.loadText();
const { said, render } = await import("./tablelog.js");
const lines = {};
for (const lang of ["zh", "en"]) {
  i18n.setLang(lang);
  lines[lang] = logs.map(([events, says]) =>
    said(events, says).map(([key, fields]) => render(key, fields, (s) => `seat ${s}`)),
  );
}
process.stdout.write(JSON.stringify(lines));
"""


def test_the_page_puts_what_every_event_says_in_words(tmp_path: Path) -> None:
    """The page chooses no templates of its own: it puts the server's ``says`` (the text
    layer's Narration, the terminal's too) in words, every template and field of every log
    (seat copies, spectators, open replays) in both languages, none left as ``{field}``."""
    for script in STATIC.glob("*.js"):
        shutil.copy(script, tmp_path)
    (tmp_path / "package.json").write_text('{"type": "module"}')
    (tmp_path / "page.js").write_text(NODE_SCRIPT)
    logs = []
    for log in played():
        narration = Narration()
        logs.append([list(log), [narration.says_json(event) for event in log]])
    run = subprocess.run(
        [need_node(), "page.js"],
        cwd=tmp_path,
        input=json.dumps({"catalog": MESSAGES, "logs": logs}),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    page = json.loads(run.stdout)
    for lang in ("zh", "en"):
        for (_, says), lines in zip(logs, page[lang], strict=True):
            assert len(lines) == sum(map(len, says))
            for line in lines:
                assert line and not re.search(r"\{\w+\}|undefined|NaN|null", line), line
