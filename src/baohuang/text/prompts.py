"""What a seat is asked (提示): in the role phases (R8–R12) the question put to it and the words
on each answer, as catalog keys and fields, from its view (``View.to_json``) and the rules'
``selection``. The server sends them beside the view (``prompt``), and the page only puts
them in words (the terminal, where answers are typed, asks in notation: cli/main.py).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

#: R14: a sealed poll's answers, the same two for every seat asked (those a seat may not give
#: are shown disabled), so that what a seat is offered tells nothing of its role.
SEALED_ANSWERS = {"show": ("show", "pass"), "rebel": ("rebel", "pass")}
#: The word on a ``pass`` in each poll; a plain 过 elsewhere.
_DECLINED = {
    "solo": "act.no_solo",
    "rebel": "act.no_rebel",
    "kick": "act.no_kick",
    "grab": "act.no_grab",
}
#: The actions naming a card, and their words.
_WITH_CARD = {"call": "act.call", "solo": "act.solo_card", "tribute": "act.tribute"}


def question(view: Mapping[str, Any], selection: str) -> str:
    """The catalog key of what the seat of ``view`` is asked."""
    phase, poll = view["phase"], view.get("poll")
    if phase == "poll":
        # R9.4, R8.10: 明保 is asked first, then R9.5 造反; the guard and the others read apart.
        if poll in SEALED_ANSWERS:
            return f"ask.{poll}.{'guard' if view.get('role') == 'guard' else 'other'}"
        return f"ask.{poll}"
    legal = view["legal"]
    if phase == "candidate" and selection != "called":
        # R9.3: who holds both R* and B* may also 独保, and yields like anyone (KK/联众) or 转让
        # (weihai); else (R9, R11) 登基 or 让位, or 登基 alone (weihai, R11.2 after a lap).
        if "solo" in legal:
            return "ask.candidate.both" if "transfer" in legal else "ask.candidate.both_yield"
        return "ask.candidate.marked" if "decline" in legal else "ask.candidate.forced"
    return f"ask.{phase}"


def label(action: str, view: Mapping[str, Any], selection: str) -> tuple[str, dict[str, Any]]:
    """The words on the answer ``action``: a catalog key and its fields (``card``)."""
    word, _, card = action.partition(" ")
    if card:
        return _WITH_CARD[word], {"card": card}
    poll = view.get("poll")
    if word == "decline":
        return ("act.decline" if selection == "called" else "act.yield"), {}
    if word == "solo":
        if view["phase"] == "poll":
            return "act.solo", {}
        return ("act.solo_both" if selection == "fixed" else "act.solo_kk"), {}
    if word == "pass":
        if poll == "show":
            return ("act.hide" if view.get("role") == "guard" else "act.no_show"), {}
        return _DECLINED.get(poll or "", "act.pass"), {}
    return f"act.{word}", {}


def prompt(view: Mapping[str, Any], selection: str) -> dict[str, Any] | None:
    """What the seat of ``view`` is asked, outside the play phase, while it has a choice or
    has answered a sealed poll (R14): ``{ask, answers, labels}`` — the question's key, the
    answers to show in order (a sealed poll's both, whether or not this seat may give each),
    and ``{action: [key, fields]}`` for those and the seat's kept answer. ``None`` otherwise."""
    legal, answer = view["legal"], view.get("answer")
    if view["phase"] == "play" or not (legal or answer):
        return None
    sealed = SEALED_ANSWERS.get(view.get("poll") or "") if view.get("asked") else None
    answers = list(sealed or legal)
    shown = [*answers, answer] if answer else answers
    return {
        "ask": question(view, selection),
        "answers": answers,
        "labels": {action: list(label(action, view, selection)) for action in shown},
    }
