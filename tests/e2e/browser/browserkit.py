"""What a person does in the browser client, as helpers for the browser tests."""

from __future__ import annotations

import re
import time
from pathlib import Path
from typing import NamedTuple

from playwright.sync_api import Page, expect
from playwright.sync_api import TimeoutError as PlaywrightTimeout

SHOTS = Path(__file__).parent / "screenshots"
#: How long one click may wait for a page that re-renders under it.
QUICK = 3_000


class Size(NamedTuple):
    """A viewport the pages are tested at (``new_page(*size)``)."""

    width: int
    height: int
    phone: bool

    @property
    def name(self) -> str:
        return f"{self.width}x{self.height}"


#: #50: every point at a laptop's 1280×720 and a phone's 390×844 (the ``size`` fixture).
SIZES = (Size(1280, 720, False), Size(390, 844, True))


def in_view(page: Page, selector: str) -> bool:
    """The first element of ``selector`` lies wholly inside the viewport as scrolled now."""
    box = page.locator(selector).first.bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, selector
    inside_x = box["x"] >= 0 and box["x"] + box["width"] <= size["width"]
    return inside_x and box["y"] >= 0 and box["y"] + box["height"] <= size["height"]


def shot(page: Page, name: str) -> Path:
    SHOTS.mkdir(exist_ok=True)
    path = SHOTS / f"{name}.png"
    for _ in range(20):  # a play still flying to the centre (about a quarter of a second)
        if not page.locator("[data-animating]").count():
            break
        page.wait_for_timeout(50)
    page.screenshot(path=str(path))
    return path


def join(page: Page, name: str) -> None:
    """Open the lobby and enter as a guest."""
    page.goto("/")
    page.fill("#login input[name=name]", name)
    page.click("#login button[type=submit]")
    page.wait_for_selector("form.create")


def create_table(
    page: Page,
    preset: str = "classic",
    bots: int = 4,
    bot_delay: float = 0,
    timer: int = 0,
    games: int = 1,
    private: bool = False,
) -> str:
    """Fill the lobby's 建桌 form (``private``: a 好友房); the creator is seated at the new
    table. Its id."""
    form = page.locator("form.create")
    form.locator("select[name=preset]").select_option(preset)
    form.locator("details.more").evaluate("more => { more.open = true; }")  # 更多选项
    for name, value in (
        ("games", games),
        ("timer", timer),
        ("bots", bots),
        ("bot_delay", bot_delay),
        ("pause", 0),
    ):
        form.locator(f"input[name={name}]").fill(str(value))
    form.locator("input[name=private]").set_checked(private)
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"#/table/\w+$"), wait_until="commit")
    page.wait_for_selector(".seat.me")
    return page.url.rsplit("/", 1)[-1]


def results_rows(page: Page) -> list[tuple[str, int]]:
    """The results window's game table: (name, points) per seat."""
    rows = page.locator(".modal.results table.results-table").first.locator("tbody tr")
    cells = rows.evaluate_all("trs => trs.map(tr => [...tr.cells].map(td => td.innerText))")
    return [(row[0], int(row[3])) for row in cells]


def clock_at(page: Page, seat: int) -> int:
    """The turn countdown shown on ``seat`` (waits for it)."""
    return int(page.locator(f".seat[data-seat='{seat}'] .clock").inner_text())


def my_turn(page: Page) -> bool:
    return page.locator(".mine.my-turn").count() > 0


def take_turn(page: Page, keyboard: bool = False, keep: str | None = None) -> str | None:
    """If this seat is to act: ask for the hint (提示) and follow it. What it did ("play",
    "pass", "dialog:<action>"; or "back to the table" when the last game's results, still
    open, said it was this seat's turn, unless they show ``keep``), or None."""
    try:
        if page.locator(".modal.results .to-table").count():  # the last game's results, open
            if keep and page.locator(keep).count():
                return None
            page.click(".modal.results .to-table", timeout=QUICK)
            return "back to the table"
        if page.locator(".dialog").count():
            page.click(".dialog button.hint", timeout=QUICK)
            choice = page.locator(".dialog .choice.suggested")
            choice.wait_for(timeout=QUICK)
            action = choice.get_attribute("data-action")
            choice.click(timeout=QUICK)
            return f"dialog:{action}"
        if not page.locator("#btn-hint:enabled").count():
            return None
        if keyboard:
            page.keyboard.press("h")
        else:
            page.click("#btn-hint", timeout=QUICK)
        page.wait_for_selector("#btn-play:enabled, #btn-pass.suggested", timeout=QUICK)
        if page.locator("#btn-play:enabled").count():
            if keyboard:
                page.keyboard.press("Enter")
            else:
                page.click("#btn-play", timeout=QUICK)
            return "play"
        if keyboard:
            page.keyboard.press("p")
        else:
            page.click("#btn-pass", timeout=QUICK)
        return "pass"
    except PlaywrightTimeout:
        return None  # the table moved on under us: look again


def my_play_turn(page: Page, limit: float = 60) -> None:
    """Answer role-phase dialogs (by their hint) until this seat is to play or pass."""
    deadline = time.monotonic() + limit
    while not page.locator("#btn-hint:enabled").count() or page.locator(".dialog").count():
        assert time.monotonic() < deadline, f"not this seat's turn after {limit} s: {state(page)}"
        if take_turn(page) is None:
            page.wait_for_timeout(50)


def play(
    pages: list[Page], until: str, limit: float = 90, keyboard: bool = False
) -> dict[str, int]:
    """Take every turn of these pages until each shows ``until``; counts of what they did."""
    done: dict[str, int] = {}
    deadline = time.monotonic() + limit
    while not all(p.locator(until).count() for p in pages):
        assert time.monotonic() < deadline, f"no {until} after {limit} s: {done}, {state(pages[0])}"
        acted = False
        for page in pages:
            if page.locator(until).count():
                continue  # there: a results window showing it stays open
            what = take_turn(page, keyboard, keep=until)
            if what:
                done[what] = done.get(what, 0) + 1
                acted = True
        if not acted:
            time.sleep(0.05)
    return done


def one_game_in_history(page: Page, name: str) -> None:
    """``name`` joins, plays a one-game match with four bots to its results, and opens 战绩
    with that game listed."""
    join(page, name)
    create_table(page, games=1, bots=4, bot_delay=0)
    page.click("button.ready")
    play([page], until=".modal.results", limit=240)
    page.locator(".modal.results button.close").click()
    page.click("#top nav a[href='#/history']")
    expect(page.locator(".history tbody tr")).to_have_count(1)


def state(page: Page) -> str:
    """What the table shows, for a failing test's message."""
    phase = page.locator(".centre .phase").all_inner_texts()
    toasts = page.locator(".toast").all_inner_texts()
    return f"phase {phase}, toasts {toasts}, offline {page.locator('.offline-bar').count()}"


def hand_size(page: Page) -> int:
    return page.locator(".hand .card").count()


def hand_below(page: Page, size: int) -> None:
    """Wait until the hand holds fewer than ``size`` cards (polled from here: a page-side
    wait_for_function polls by eval, which the server's CSP forbids)."""
    deadline = time.monotonic() + 30
    while page.locator(".hand .card").count() >= size:
        assert time.monotonic() < deadline, f"the hand still holds {size} cards or more"
        page.wait_for_timeout(50)


def turn_taken(page: Page, limit: float = 60) -> str:
    """Take this seat's next turn as hinted (a play, a pass or a role answer) and wait until the
    table shows it taken; what it did. A seat can go a whole game without a play (every hint a
    pass, never the lead), so a test that needs a game in progress counts turns."""
    deadline = time.monotonic() + limit
    while True:
        before = shown(page)
        if what := take_turn(page):
            break
        assert time.monotonic() < deadline, f"no turn in {limit} s: {state(page)}"
        time.sleep(0.05)
    # The same seat may answer next (the emperor card, then the call): any change will do.
    while shown(page) == before:
        assert time.monotonic() < deadline, f"the table did not take the {what}: {state(page)}"
        time.sleep(0.05)
    return what


def shown(page: Page) -> tuple[list[str], int, int, int, int]:
    """What a turn taken changes: the phase line, the hand, the hint button, the dialog, the
    results window."""
    return (
        page.locator(".centre .phase").all_inner_texts(),
        hand_size(page),
        page.locator("#btn-hint:enabled").count(),
        page.locator(".dialog .choice").count(),
        page.locator(".modal.results").count(),
    )
