"""The 规则 page (#/rules/PRESET): every preset's rules in words, in Chinese and English, as
``baohuang rules`` says them (GET /api/rules), with what 明保, 造反, 踢 and 明独保 do to the
score and QQ's tribute rule (R10.3); opened from 建桌 and from a table in a new tab, which
leaves the form or the table as it was."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import Page, expect

from baohuang.engine.rules import PRESETS, Rules

from .browserkit import Size, create_table, in_view, join

NAMES = {"zh": {"classic": "经典", "weihai": "威海", "qq": "QQ"}, "en": {"classic": "Classic"}}


def scoring_words(rules: Rules) -> list[str]:
    """The declarations a preset has, by the words both languages give them (R9.4 明保, R9.5
    造反, R9.6 踢, R9.3 and R11.3 明独保): its scoring section must say what each does."""
    has = {
        "明保": rules.guard_may_show,
        "造反": rules.rebellion,
        "踢": rules.kick,
        "明独保": rules.selection != "called",
    }
    return [word for word, on in has.items() if on]


def rules_shown(page: Page, preset: str) -> dict[str, str]:
    """The rules page of ``preset`` once drawn: each section's text by its id."""
    expect(page.locator(f".rules-page[data-preset='{preset}']")).to_have_count(1)
    sections = page.locator(".rules-section")
    ids = sections.evaluate_all("ss => ss.map(s => s.dataset.section)")
    return dict(zip(ids, sections.all_inner_texts(), strict=True))


def test_every_preset_in_both_languages(new_page: Callable[..., Page], size: Size) -> None:
    page = new_page(*size)
    page.goto("/#/rules")  # no login needed; the default preset first
    rules_shown(page, "classic")
    expect(page.locator("#top nav a.on")).to_have_attribute("href", "#/rules")
    for lang in ("zh", "en"):
        if lang == "en":
            page.click("#top button.lang")
        for name in PRESETS:
            page.click(f".rules-presets a[data-preset='{name}']")
            expect(page).to_have_url(re.compile(f"#/rules/{name}$"))
            said = rules_shown(page, name)
            rules = Rules.preset(name)
            heading = page.locator(".rules-page h1")
            expect(heading).to_contain_text(f"{name}")
            if name in NAMES[lang]:
                expect(heading).to_contain_text(NAMES[lang][name])
            assert list(said) == ["cards", "play", "roles", "scoring"] + ["tribute"] * rules.tribute
            for word in scoring_words(rules):
                assert word in said["scoring"], (name, lang, word, said["scoring"])
            if rules.win_rule == "qq":  # R10.3: tribute by QQ's rule, not by who won
                assert "R10.3" in said["tribute"] and "平贡" in said["tribute"], said["tribute"]
            place = "名次分" if lang == "zh" else "Place points"
            assert place in said["scoring"], said["scoring"]
            assert page.evaluate("document.documentElement.scrollWidth") <= size.width


def test_an_unknown_preset_says_which_there_are(new_page: Callable[..., Page]) -> None:
    page = new_page()
    page.goto("/#/rules/nope")
    error = page.locator(".panel.error")
    expect(error).to_contain_text("nope")
    for name in PRESETS:
        expect(error).to_contain_text(name)


def test_create_form_opens_the_chosen_presets_rules(new_page: Callable[..., Page]) -> None:
    page = new_page()
    join(page, "看规则")
    form = page.locator("form.create")
    form.locator("select[name=preset]").select_option("weihai")
    with page.context.expect_page() as opened:
        form.locator("a.rules-link").click()
    rules = opened.value
    rules.wait_for_load_state()
    expect(rules).to_have_url(re.compile("#/rules/weihai$"))
    said = rules_shown(rules, "weihai")
    assert "踢" in said["scoring"] and "明保" in said["scoring"], said["scoring"]
    assert "烤牌" not in said["play"]
    # the form is left as it was
    expect(form.locator("select[name=preset]")).to_have_value("weihai")
    # an option ticked under 更多选项 rides with the link: R5.1 烤牌 in the rules shown
    form.locator("details.more summary").click()
    form.locator(".options input[name=roast]").check()
    with page.context.expect_page() as opened:
        form.locator("a.rules-link").click()
    roasting = opened.value
    roasting.wait_for_load_state()
    expect(roasting).to_have_url(re.compile(r"#/rules/weihai\?roast=true$"))
    assert "烤牌" in rules_shown(roasting, "weihai")["play"]


def test_the_table_opens_its_own_rules(new_page: Callable[..., Page], size: Size) -> None:
    page = new_page(*size)
    join(page, "桌上看规则")
    create_table(page, preset="qq", bots=4)
    link = page.locator(".topbar a.rules-link")  # the preset's tag
    expect(link).to_have_text("QQ · 规则")
    assert in_view(page, ".topbar a.rules-link")
    with page.context.expect_page() as opened:
        link.click()
    rules = opened.value
    rules.wait_for_load_state()
    expect(rules).to_have_url(re.compile("#/rules/qq$"))
    said = rules_shown(rules, "qq")
    assert "明保" in said["scoring"] and "平贡" in said["tribute"], said
    # the table is still there, seated
    expect(page.locator(".seat.me")).to_have_count(1)
    expect(page).to_have_url(re.compile("#/table/"))
