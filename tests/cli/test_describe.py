"""describe(): every preset's rules in words (R7–R12), with the engine's own numbers.

The facts asserted here are docs/rules.md's (pack sizes of R7, place points and multipliers of R10,
tribute counts of R12); the engine agreeing with them is tested elsewhere, and the deal of a
real game is compared with the described hands below.
"""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from typer.testing import CliRunner

from baohuang import Rules, new_game
from baohuang.cli import app
from baohuang.engine.describe import (
    BLOCK_BEGIN,
    BLOCK_END,
    describe,
    hand_sizes,
    markdown_blocks,
    pack_size,
    refresh_markdown,
    summary,
)
from baohuang.engine.rules import PRESETS

LANGS = ("zh", "en")

#: Per preset: phrases each language's description must hold (R7 pack and deal, R8/R9/R11
#: terms, R10 numbers) and phrases it must not (terms of other families or options).
FACTS: dict[str, dict[str, tuple[list[str], list[str]]]] = {
    "classic": {
        "zh": (
            ["共 216 张", "其余 215 张", "每家 43 张", "可叫的三张", "同意", "放弃", "暗独",
             "明独：分数 ×2", "+16/+8/0/-8/-16", "每个反贼进贡 1 张", "皇帝进贡 2 张",
             "皇帝进贡 4 张", "明独：以上张数都 ×2"],
            ["R*", "B*", "造反", "踢", "抢独", "憋6", "清3", "烤牌", "不用"],
        ),
        "en": (
            ["216 cards in all", "the other 215", "43 cards each", "callable triple",
             "dark solo (暗独)", "Open solo (明独): scores ×2", "each rebel pays 1",
             "the emperor pays 2, the guard 1", "the emperor pays 4", "every number ×2"],
            ["R*", "Rebellion", "Kick", "Grab"],
        ),
    },
    "weihai": {
        "zh": (
            ["共 165 张", "不用 3、4、5", "黑桃6（6s）再去掉 3 张", "每家 33 张", "皇牌 大王★",
             "保牌 小王★", "先问明独", "必须登基", "独保", "转让", "明保", "暗保", "造反", "踢",
             "憋6", "+16/+8/0/-8/-16", "皇帝头科得 +32，其余每家 -8",
             "皇帝不是头科得 -32，其余每家 +8", "造反成功或明保 ×2（只算一次）；踢 ×2"],
            ["可叫的三张", "让位给上家", "抢独", "进贡"],
        ),
        "en": (
            ["165 cards in all", "No 3, 4, 5.", "3 of the 4 sixes of spades", "33 cards each",
             "R*", "B*", "登基", "转让", "known to all", "明保", "暗保",
             "asked first whether to show the guard (明保)",
             "Rebellion (造反)", "Kick (踢)",
             "Hold sixes", "+32 if 1st, each other -8", "scores -32, each other +8",
             "a successful rebellion (造反) or a shown guard (明保) ×2 (once), a kick (踢) ×2"],
            ["callable triple", "Grab", "Tribute"],
        ),
    },
    "kk_simple": {
        "zh": (
            ["共 168 张", "不用 3、4、5", "各家 34/34/34/33/33 张", "从庄家开始", "皇牌 大王★",
             "保牌 小王★", "让位给上家", "两圈都没人登基", "独保", "像别人一样让位",
             "先从皇帝的下家起", "明保", "造反", "+16/+8/0/-8/-16",
             "皇帝头科得 +32，其余每家 -8", "皇帝不是头科得 -32，其余每家 +8",
             "加倍（可以叠加）：造反成功 ×2。"],
            ["黑桃6", "踢", "抢独", "先问明独", "憋6", "进贡", "转让", "明独：分数 ×2"],
        ),
        "en": (
            ["168 cards in all", "34/34/34/33/33 cards per hand", "yield (让位)",
             "Two laps", "+32 if 1st, each other -8", "scores -32, each other +8",
             "Multipliers (they stack): a successful rebellion (造反) ×2."],
            ["Kick", "Grab", "Tribute", "Open solo (明独): scores ×2"],
        ),
    },
    "kk_classic": {
        "zh": (
            ["共 216 张", "各家 44/43/43/43/43 张", "皇牌 大王★", "可叫的三张", "让位给上家",
             "暗独保", "明独保", "抢独", "造反", "皇帝头科得 +32，其余每家 -8", "造反成功 ×2"],
            ["B*", "不用", "明保", "踢", "进贡", "明独：分数 ×2"],
        ),
        "en": (
            ["216 cards in all", "44/43/43/43/43 cards per hand", "callable triple",
             "暗独保", "明独保", "Grab solo (抢独)", "+32 if 1st, each other -8",
             "a successful rebellion (造反) ×2"],
            ["B*", "Kick", "Tribute", "scores ×2"],
        ),
    },
    # R11.5 (revised turn 3): no 造反 in 联众经典
    "lianzhong_classic": {
        "zh": (
            ["共 216 张", "皇牌 大王★", "暗独保", "明独保", "抢独", "皇帝头科得 +32，其余每家 -8"],
            ["造反", "明保", "踢", "进贡", "加倍"],
        ),
        "en": (
            ["216 cards in all", "明独保", "Grab solo (抢独)", "+32 if 1st, each other -8"],
            ["Rebellion", "rebellion", "Kick", "Tribute", "Multipliers"],
        ),
    },
    "qq": {
        "zh": (
            ["共 200 张", "不用 3。", "没有牌放在一边", "每家 40 张", "起手家", "上一局的皇帝",
             "添最大的（大王", "2 可以混进", "QQ 王规则", "R10.3", "明独：分数 ×2",
             "皇帝头科、保皇派二科才收贡", "加倍（可以叠加）：明保 ×2", "每个反贼进贡 1 张",
             "胜负看皇帝方得分的正负", "谁进贡按QQ规则，与胜负无关", "三科平贡",
             "得分赢了还要进贡"],
            ["R*", "造反", "踢", "烤牌", "其余 199 张"],
        ),
        "en": (
            ["200 cards in all", "No 3.", "Nothing is set aside", "40 cards each", "starter",
             "the starter its biggest (R, else B, else a 2)", "A 2 may fill", "QQ rule",
             "R10.3", "emperor 1st and the guard 2nd", "a shown guard (明保) ×2",
             "each rebel pays 1", "Who wins is the sign of the emperor side's points",
             "In QQ who pays is QQ's rule, not who won", "win on points and still pay"],
            ["R*", "Rebellion", "Kick", "the other 199"],
        ),
    },
}  # fmt: skip
#: The twins of R7 describe exactly like their partner (联众经典 differs from KK经典: R11.5).
TWINS = {"lianzhong_simple": "kk_simple"}


def text(rules: Rules, lang: str) -> str:
    """The whole description as one string."""
    return "\n".join(line for _, lines in describe(rules, lang) for line in lines)


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(FACTS))
def test_r7_describe_states_each_presets_facts(name: str, lang: str) -> None:
    said = text(Rules.preset(name), lang)
    present, absent = FACTS[name][lang]
    for phrase in present:
        assert phrase in said, phrase
    for phrase in absent:
        assert phrase not in said, phrase


#: R10.1, R10.2: what 明独/明独保, 明保, 造反 and 踢 do to the points, in each preset's scoring
#: section (the browser's 规则 page shows these words), and what a preset without them must not
#: say.
DECLARATIONS: dict[str, tuple[list[str], list[str]]] = {
    "classic": (["明独：分数 ×2。"], ["一个人打时的加倍", "不改变分数"]),
    "qq": (["明独：分数 ×2。", "加倍（可以叠加）：明保 ×2。"], ["一个人打时的加倍", "不改变分数"]),
    "weihai": (
        [
            "明独（独保、明独保）：皇帝头科得 +32",
            "加倍（可以叠加）：造反成功或明保 ×2（只算一次）；踢 ×2。",
            "一个人打时的加倍：暗独 造反成功 ×2、踢 ×2；明独（独保、明独保） 踢 ×2。",
        ],
        ["不改变分数"],
    ),
    "kk_simple": (
        [
            "明独（独保、明独保）：皇帝头科得 +32",
            "一个人打时的加倍：暗独 造反成功 ×2。",
            "明保、暗保都不改变分数。",
        ],
        ["踢"],
    ),
    "kk_classic": (
        ["明独保（抢独也是）：皇帝头科得 +32", "一个人打时的加倍：暗独 造反成功 ×2。"],
        ["明保", "踢"],
    ),
    "lianzhong_classic": (["明独保（抢独也是）：皇帝头科得 +32"], ["一个人打时的加倍", "加倍（"]),
}


@pytest.mark.parametrize("name", sorted(DECLARATIONS))
def test_r10_scoring_says_what_each_declaration_does(name: str) -> None:
    scoring = "\n".join(dict(describe(Rules.preset(name), "zh"))["计分"])
    present, absent = DECLARATIONS[name]
    for phrase in present:
        assert phrase in scoring, (phrase, scoring)
    for phrase in absent:
        assert phrase not in scoring, (phrase, scoring)
    english = "\n".join(dict(describe(Rules.preset("weihai"), "en"))["Scoring"])
    assert (
        "Multipliers for a solo — Dark solo (暗独): a successful rebellion (造反) ×2, a kick (踢) "
        "×2; Open solo (明独, 独保, 明独保): a kick (踢) ×2." in english
    )


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", sorted(TWINS))
def test_r7_twin_presets_describe_alike(name: str, lang: str) -> None:
    assert describe(Rules.preset(name), lang) == describe(Rules.preset(TWINS[name]), lang)


@pytest.mark.parametrize("name", list(PRESETS))
def test_describe_sections_and_languages_line_up(name: str) -> None:
    rules = Rules.preset(name)
    zh, en = describe(rules, "zh"), describe(rules, "en")
    assert [h for h, _ in zh][:4] == ["牌", "出牌", "皇帝和保皇派", "计分"]
    assert [h for h, _ in en][:4] == ["Cards and deal", "Playing", "Emperor and guard", "Scoring"]
    # R12: a tribute section exactly when the rules have tribute.
    assert len(zh) == len(en) == (5 if rules.tribute else 4)
    for (_, zh_lines), (_, en_lines) in zip(zh, en, strict=True):
        assert len(zh_lines) == len(en_lines) > 0
    # R10: place points, R10.4: escape, in every preset.
    assert "名次分：头科 +4，二科 +2，三科 0，二落 -2，大落 -4。" in text(rules, "zh")
    assert "Place points: 1st +4, 2nd +2, 3rd 0, 4th -2, 5th -4." in text(rules, "en")
    assert "-30" in text(rules, "zh") and "scores -30" in text(rules, "en")


@pytest.mark.parametrize("name", list(PRESETS))
def test_describe_reads_fields_never_the_name(name: str) -> None:
    rules = Rules.preset(name)
    for lang in LANGS:
        assert describe(replace(rules, name="renamed"), lang) == describe(rules, lang)
        assert summary(replace(rules, name="renamed"), lang) == summary(rules, lang)


@pytest.mark.parametrize("name", list(PRESETS))
def test_r7_described_hands_are_the_engines_deal(name: str) -> None:
    rules = Rules.preset(name)
    counts = new_game(rules, seed=1).events_for(None)[0]["counts"]
    assert sorted(counts) == sorted(hand_sizes(rules))
    assert pack_size(rules) == sum(counts) + rules.emperor_card_aside


def test_options_change_the_words() -> None:
    plain = text(Rules.preset("classic"), "zh")
    roast = text(Rules.preset("classic", roast=True, hold_sixes=True), "zh")
    assert "烤牌（R5.1）" in roast and "憋6（R6.7）" in roast
    assert "清3（R6.8）" in text(Rules.preset("classic", hold_threes=True), "zh")
    assert "烤牌" not in plain and "憋6" not in plain
    # R7 ranks_from=6 without the weihai 6s removal: 168 cards, one set aside.
    short = text(Rules.preset("classic", ranks_from="6"), "zh")
    assert "共 168 张" in short and "其余 167 张" in short and "各家 34/34/33/33/33 张" in short
    # No tribute, no tribute section (R12).
    assert len(describe(Rules.preset("classic", tribute=False))) == 4
    assert "2 当百搭" in summary(Rules.preset("kk_simple", twos_wild=True))


@pytest.mark.parametrize("name", list(PRESETS))
def test_summary_names_pack_hands_and_family(name: str) -> None:
    rules = Rules.preset(name)
    zh, en = summary(rules, "zh"), summary(rules, "en")
    assert f"{pack_size(rules)} 张牌" in zh and f"{pack_size(rules)} cards" in en
    family = {"called": "R8", "fixed": "R9", "kk_classic": "R11"}[rules.selection]
    assert family in zh and family in en


# ---------------------------------------------------------------------- docs/rules.md

ROOT = Path(__file__).parents[2]
RULES_MD = ROOT / "docs" / "rules.md"
#: A rule section cited anywhere: R1–R14 and their numbered points (R6.5); larger numbers are
#: plays, like the ``R22`` of a test.
CITATION = re.compile(r"\bR(\d{1,2})(?:\.(\d{1,2}))?\b")


def test_docs_rules_md_is_generated_from_the_rules() -> None:
    text = RULES_MD.read_text("utf-8")
    stale = "docs/rules.md is out of date: run `baohuang rules --docs docs/rules.md`"
    assert refresh_markdown(text) == text, stale
    for name in markdown_blocks():
        assert BLOCK_BEGIN.format(name=name) in text and BLOCK_END.format(name=name) in text


def test_every_cited_rule_section_resolves_in_docs_rules_md() -> None:
    """``# R6.5 接风`` in code, tests and docs points at an anchor of docs/rules.md."""
    anchors = set(re.findall(r'<a id="(r[\d.]+)"></a>', RULES_MD.read_text("utf-8")))
    files = [
        *ROOT.glob("src/baohuang/**/*.py"),
        *ROOT.glob("src/baohuang/server/static/*.js"),
        *ROOT.glob("tests/*.py"),
        *ROOT.glob("docs/*.md"),
        ROOT / "README.md",
    ]
    cited: dict[str, str] = {}
    for path in files:
        for match in CITATION.finditer(path.read_text("utf-8")):
            if 1 <= int(match.group(1)) <= 14:
                cited.setdefault(match.group(0).lower(), str(path.relative_to(ROOT)))
    missing = {section: path for section, path in cited.items() if section not in anchors}
    assert not missing, missing
    assert {f"r{n}" for n in range(1, 15)} <= anchors


def test_docs_rules_md_refresh_names_a_missing_block(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="no block 'presets'"):
        refresh_markdown("# rules\n")
    copy = tmp_path / "rules.md"
    text = RULES_MD.read_text("utf-8")
    begin, end = BLOCK_BEGIN.format(name="presets"), BLOCK_END.format(name="presets")
    copy.write_text(text.replace(text[text.index(begin) : text.index(end)], begin + "\n"), "utf-8")
    result = CliRunner().invoke(app, ["rules", "--docs", str(copy)])
    assert result.exit_code == 0 and copy.read_text("utf-8") == text
