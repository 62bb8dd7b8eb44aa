"""Friends' tables (好友房) and 再来一场, in-process on a fake clock: a private table is never
listed, is found by its room code (which survives a restart), only its creator may start it
with bots in the empty seats; after a match the same people start the next one when all agree.
The HTTP side (the room-code lookup, its refusals and its rate limit) runs the app in process."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
import pytest

from baohuang.bots.base import BOTS
from baohuang.bots.heuristic import HeuristicBot
from baohuang.bots.learned import LearnedBot
from baohuang.protocol.messages import ServerError, TableConfig
from baohuang.server.app import create_app
from baohuang.server.lobby import CODE_LENGTH, CODE_LETTERS, LOBBY_PAGE, Lobby
from baohuang.server.ratelimits import ROOM_LOOKUPS
from baohuang.server.refusals import AccountError
from baohuang.server.store import Store
from helpers.tables import Client, Harness, add_user

FAST = {"timer": 0, "pause": 0, "bot_delay": 0}


@pytest.fixture
def kit(tmp_path: Path) -> Iterator[Harness]:
    harness = Harness(tmp_path)
    yield harness
    harness.close()


def private_table(kit: Harness, creator: int | None = 1, **config: Any) -> str:
    """A friends' table made by user ``creator``, with no bots unless asked; its room code."""
    settings = {"bots": 0, **FAST, "private": True, **config}
    kit.table = kit.run(kit.lobby.create(TableConfig(**settings), creator))
    kit.settle()
    assert kit.actor.state.code is not None
    return kit.actor.state.code


def seated(kit: Harness, user: int, seat: int | None = None) -> Client:
    """User ``user`` at the table (by its room code, if a friends' table), seated."""
    kit.run(kit.store.write(add_user(user)))
    client = kit.connect(user, f"玩家{user}", code=kit.actor.state.code)
    assert kit.send(client, "sit", seat=seat)["t"] == "ack"
    return client


def refused(kit: Harness, client: Client, op: str, **fields: Any) -> tuple[str, str]:
    answer = kit.send(client, op, **fields)
    assert answer["t"] == "error", answer
    return answer["d"]["code"], answer["d"]["key"]


def bots(kit: Harness) -> list[int]:
    return [s for s, chair in enumerate(kit.actor.state.seats) if chair and chair.bot]


def seat_bot(kit: Harness, seat: int) -> object:
    """The bot that played ``seat`` in this process (no bot pool in these tests)."""
    bot = kit.actor.state.bots[seat]
    assert bot is not None and bot.pool is None
    return bot.local


# ------------------------------------------------------------------------------ the room code


def test_a_private_table_is_not_listed_and_is_found_by_its_code(kit: Harness) -> None:
    code = private_table(kit, bots=2)
    private = kit.actor
    public = kit.run(kit.lobby.create(TableConfig(bots=4, **FAST)))
    assert [info.id for info in kit.lobby.listing()] == [public.state.id]
    assert len(code) == CODE_LENGTH and set(code) <= set(CODE_LETTERS)
    assert code.lower() not in private.state.id  # drawn on its own, not made from the table id
    info = private.state.info()
    assert info.config.private and info.code == code and info.creator == 1
    assert (
        public.state.info().code is None and public.state.info().creator is None
    )  # made by nobody
    # Typed by a person: any letter case, spaces or a dash in the middle.
    for typed in (code, code.lower(), f" {code[:3]}-{code[3:]} ", f"{code[:3]} {code[3:]}"):
        assert kit.lobby.room(typed) is private
    # The room's event names the creator; the code is in the server-only secret.
    room = kit.actor.state.log[0]
    assert room.kind == "room" and room.public == {"creator": 1}


@pytest.mark.parametrize(
    ("typed", "status", "key"),
    [
        ("ABCDE", 422, "error.room.bad_code"),  # too short
        ("ABCDEFG", 422, "error.room.bad_code"),  # too long
        ("ABCDE0", 422, "error.room.bad_code"),  # 0 is never in a code (nor 1, O, I)
        ("ABCDEI", 422, "error.room.bad_code"),
        ("", 422, "error.room.bad_code"),
        ("ZZZZZZ", 404, "error.room.not_found"),  # well formed, nobody's
    ],
)
def test_a_wrong_code_is_refused_naming_it(kit: Harness, typed: str, status: int, key: str) -> None:
    code = private_table(kit)
    if typed == "ZZZZZZ" and code == typed:  # pragma: no cover (one draw in a billion)
        pytest.skip("the table drew the code this test calls wrong")
    with pytest.raises(AccountError) as caught:
        kit.lobby.room(typed)
    error = caught.value
    assert (error.status, error.key) == (status, key)
    detail = error.detail()
    assert typed.strip() in detail["message"] and typed.strip() in detail["zh"]
    assert "room code" in detail["message"] and "房号" in detail["zh"]


def test_room_codes_are_unique_among_live_tables(tmp_path: Path) -> None:
    """The first two code draws are the same: the second table draws again."""
    draws = [b"\x00" * CODE_LENGTH, b"\x00" * CODE_LENGTH, b"\x01" * CODE_LENGTH]
    counter = iter(range(1, 1000))

    def token(size: int) -> str:
        if size == CODE_LENGTH:
            return draws.pop(0).hex()
        return next(counter).to_bytes(size, "big").hex()

    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'rooms.db'}")
        await store.start()
        lobby = Lobby(store, token=token)
        config = TableConfig(private=True, bots=4, **FAST)
        first, second = await lobby.create(config, 1), await lobby.create(config, 2)
        assert (first.state.code, second.state.code) == ("222222", "333333") and not draws
        assert lobby.room("222222") is first and lobby.room("333333") is second
        await lobby.close()
        await store.close()

    asyncio.run(scenario())


def test_the_code_and_the_creator_survive_a_restart(kit: Harness) -> None:
    code = private_table(kit, bots=3)
    me = seated(kit, 1)
    seq = kit.actor.state.seq
    kit.restart()  # a new server process folds the table from its stored events
    table = kit.actor
    assert table.state.seq == seq
    assert (table.state.code, table.state.creator) == (code, 1) and kit.lobby.room(code) is table
    assert kit.lobby.listing() == []
    # …and the creator's start still works after it (their seat is theirs by its token).
    again = kit.connect(1, "玩家1", token=me.token)
    assert again.seat == 0
    assert kit.send(again, "start")["t"] == "ack"
    assert kit.actor.state.status == "playing"


# ------------------------------------------------------------------------------ start with bots


def test_a_friends_table_admits_its_members_and_its_code_only(kit: Harness) -> None:
    """The id of a friends' table opens nothing: a stranger's hello without its room code is
    refused (room_code) and the connection closed, before any of the table reaches it; with
    the code (any letter case) it watches; the creator and a seated member need no code."""
    code = private_table(kit, creator=1)
    creator = kit.connect(1, "玩家1")
    assert creator.messages[0]["t"] == "welcome" and creator.online
    friend = seated(kit, 2)
    for given in (None, "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"):
        stranger = kit.connect(3, "玩家3", code=given)
        assert [m["t"] for m in stranger.messages] == ["error"]
        assert stranger.messages[0]["d"]["code"] == "room_code" and not stranger.online
        assert code not in str(stranger.messages)
        ServerError.model_validate(stranger.messages[0])  # a client of the protocol reads it
    anonymous = kit.connect(None, None)
    assert not anonymous.online and anonymous.messages[0]["d"]["code"] == "room_code"
    watcher = kit.connect(3, "玩家3", code=code.lower())
    assert watcher.messages[0]["t"] == "welcome" and watcher.online
    back = kit.connect(2, "玩家2", token=friend.token)  # a member's reload, no code needed
    assert back.messages[0]["t"] == "welcome" and back.messages[0]["d"]["seat"] == friend.seat


def test_only_the_creator_may_start_with_bots(kit: Harness) -> None:
    private_table(kit, creator=1)
    creator, friend = seated(kit, 1), seated(kit, 2)
    assert refused(kit, friend, "start") == ("not_allowed", "error.server.start_creator")
    watcher = kit.connect(3, "玩家3", code=kit.actor.state.code)
    assert refused(kit, watcher, "start") == ("not_seated", "error.server.not_seated")
    assert bots(kit) == [] and kit.actor.state.status == "waiting"
    assert [chair.ready for chair in kit.actor.state.seats if chair] == [False, False]
    assert creator.seat == 0


def test_a_public_table_has_no_start_with_bots(kit: Harness) -> None:
    (me,) = kit.create(people=1, bots=0)
    assert refused(kit, me, "start") == ("not_allowed", "error.server.start_private")
    assert bots(kit) == [] and kit.actor.state.status == "waiting"


def test_start_with_bots_fills_exactly_the_empty_seats_and_starts(kit: Harness) -> None:
    private_table(kit, creator=1)
    creator, friend = seated(kit, 1, seat=0), seated(kit, 2, seat=3)
    assert kit.send(friend, "ready")["t"] == "ack"
    before = kit.actor.state.seq
    assert kit.send(creator, "start")["t"] == "ack"
    assert bots(kit) == [1, 2, 4]
    seats = kit.actor.state.seats
    assert [(c.user, c.bot) for c in seats if c] == [
        (1, None),
        (None, "heuristic"),
        (None, "heuristic"),
        (2, None),
        (None, "heuristic"),
    ]
    kinds = [e.kind for e in kit.actor.state.log][before:]
    assert kinds == ["ready", "sit", "sit", "sit", "start"]
    assert kit.actor.state.status == "playing" and kit.actor.state.game_index == 0
    # Everyone at the table heard it: the start, with the table's new seats.
    assert any(d["kind"] == "start" for _, d in friend.events)
    assert refused(kit, creator, "start") == ("not_allowed", "error.server.match_on")


def test_start_with_bots_waits_for_the_people_seated_to_be_ready(kit: Harness) -> None:
    private_table(kit, creator=1, bot_level="random")
    creator, friend = seated(kit, 1), seated(kit, 2)
    assert kit.send(creator, "start")["t"] == "ack"
    assert bots(kit) == [2, 3, 4] and kit.actor.state.status == "waiting"
    assert kit.actor.state.info().seats[0].ready and not kit.actor.state.info().seats[1].ready  # type: ignore[union-attr]
    assert {c.bot for c in kit.actor.state.seats if c and c.bot} == {"random"}
    # A second click changes nothing (the seats are full, the creator already ready).
    before = kit.actor.state.seq
    assert kit.send(creator, "start")["t"] == "ack"
    assert kit.actor.state.seq == before and kit.actor.state.status == "waiting"
    assert kit.send(friend, "ready")["t"] == "ack"
    assert kit.actor.state.status == "playing"


def test_start_with_bots_with_every_seat_taken_by_a_bot_starts_at_once(kit: Harness) -> None:
    private_table(kit, creator=1, bots=4)
    creator = seated(kit, 1)
    assert kit.send(creator, "start")["t"] == "ack"
    assert bots(kit) == [1, 2, 3, 4] and kit.actor.state.status == "playing"


# ------------------------------------------------------------------------------ 再来一场


def play_the_match_out(kit: Harness, people: list[Client]) -> None:
    """Every person follows the hint until the match is over."""
    for _ in range(5000):
        if kit.actor.state.status == "finished":
            return
        turn = next((p for p in people if p.my_turn()), None)
        if turn is None:
            kit.step()
        else:
            hint = kit.send(turn, "hint")["d"]["hint"]
            assert kit.send(turn, "act", action=hint)["t"] == "ack"
    raise AssertionError("the match did not end")


def test_rematch_starts_when_everyone_agrees_and_not_before(kit: Harness) -> None:
    people = kit.create(people=2, games=1)
    play_the_match_out(kit, people)
    table = kit.actor
    assert kit.kinds()[-1] == "match_over" and table.state.matches == 1
    first_results = list(table.state.results)
    assert len(first_results) == 1
    info = table.state.info()
    assert info.status == "finished"
    assert [s.ready for s in info.seats if s and s.user] == [False, False]  # cleared
    # One agrees, then changes their mind, then agrees again: no match yet.
    for on in (True, False, True):
        assert kit.send(people[0], "ready", on=on)["t"] == "ack"
        assert table.state.status == "finished" and table.state.matches == 1
    assert table.state.info().seats[0].ready and not table.state.info().seats[1].ready  # type: ignore[union-attr]
    # The last person agrees: match 2 starts at once, its results from nothing.
    assert kit.send(people[1], "ready")["t"] == "ack"
    assert table.state.status == "playing" and table.state.matches == 2
    info = table.state.info()
    assert info.game == 0 and info.results == [] and info.totals == [0] * 5
    start = table.state.log[-1]
    assert start.kind == "start" and start.public["match"] == 2 and start.public["game"] == 0
    # Everybody seated is still there, the bots included.
    assert [s.user for s in info.seats if s] == [1, 2, None, None, None]
    play_the_match_out(kit, people)
    assert table.state.matches == 2 and len(table.state.results) == 1


# ------------------------------------------------------------------------------ over HTTP


async def _http(tmp_path: Path, test: Any, with_lobby: bool = False) -> None:
    """Run ``test(client)`` against the app in process (``test(client, lobby)`` with
    ``with_lobby``)."""
    app = create_app(f"sqlite:///{tmp_path / 'http.db'}")
    async with app.router.lifespan_context(app):
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://test") as client:
            await (test(client, app.state.services.lobby) if with_lobby else test(client))


def test_the_room_endpoint_finds_private_tables_the_listing_hides(tmp_path: Path) -> None:
    async def test(client: httpx.AsyncClient) -> None:
        me = (await client.post("/api/guest", json={"name": "房主"})).json()
        made = await client.post("/api/tables", json={"private": True, "bots": 0})
        assert made.status_code == 200, made.text
        info = made.json()
        assert info["config"]["private"] and info["creator"] == me["id"]
        code = info["code"]
        shown = await client.post("/api/tables", json={"bots": 4})
        # A public table has no code; its creator alone may send its bots away.
        assert shown.json()["code"] is None and shown.json()["creator"] == me["id"]
        listed = (await client.get("/api/tables")).json()["tables"]
        assert [t["id"] for t in listed] == [shown.json()["id"]]
        assert code not in (await client.get("/api/tables")).text
        found = await client.get(f"/api/rooms/{code.lower()}")
        assert found.status_code == 200 and found.json() == {"id": info["id"]}
        # The creator sees its table and code; anybody else only with the code: the id alone
        # is as good as no table.
        direct = await client.get(f"/api/tables/{info['id']}")
        assert direct.json()["code"] == code
        client.cookies.clear()
        hidden = await client.get(f"/api/tables/{info['id']}")
        assert hidden.status_code == 404 and code not in hidden.text
        opened = await client.get(f"/api/tables/{info['id']}", params={"code": code.lower()})
        assert opened.status_code == 200 and opened.json()["id"] == info["id"]
        wrong = "ZZZZZZ" if code != "ZZZZZZ" else "YYYYYY"
        missing = await client.get(f"/api/rooms/{wrong}")
        assert missing.status_code == 404
        detail = missing.json()["detail"]
        assert detail["key"] == "error.room.not_found" and detail["params"] == {"code": wrong}
        assert wrong in detail["message"] and wrong in detail["zh"]
        bad = await client.get("/api/rooms/12")
        assert bad.status_code == 422 and bad.json()["detail"]["key"] == "error.room.bad_code"

    asyncio.run(_http(tmp_path, test))


def test_room_lookups_are_rate_limited_against_guessing(tmp_path: Path) -> None:
    async def test(client: httpx.AsyncClient) -> None:
        allowed = ROOM_LOOKUPS.amount
        answers = [(await client.get("/api/rooms/ZZZZZZ")).status_code for _ in range(allowed)]
        assert set(answers) == {404}
        limited = await client.get("/api/rooms/ZZZZZZ")
        assert limited.status_code == 429
        assert limited.json()["detail"]["key"] == "error.rate.rooms"

    asyncio.run(_http(tmp_path, test))


# ------------------------------------------------------------------------------ bot levels


def test_learned_bots_fill_a_weihai_table_and_play_it_out(kit: Harness) -> None:
    """The learned level (its weihai role answers shipped in the package) fills seats and 托管
    like any other."""
    private_table(kit, creator=1, bots=4, bot_level="learned", preset="weihai", games=1)
    creator = seated(kit, 1)
    assert kit.send(creator, "start")["t"] == "ack"
    assert kit.actor.state.status == "playing"
    assert {c.bot for c in kit.actor.state.seats if c and c.bot} == {"learned"}
    play_the_match_out(kit, [creator])
    assert len(kit.actor.state.results) == 1
    assert all(isinstance(seat_bot(kit, s), LearnedBot) for s in bots(kit))


def test_a_stored_table_whose_level_the_server_lacks_plays_on_with_the_heuristic(
    kit: Harness, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A table made with the learned level, run later by a server without the rl extra: its
    bots play the heuristic rather than stall at their first turn."""
    private_table(kit, creator=1, bots=4, bot_level="learned", preset="weihai", games=1)
    monkeypatch.delitem(BOTS, "learned")
    creator = seated(kit, 1)
    assert kit.send(creator, "start")["t"] == "ack"
    play_the_match_out(kit, [creator])
    assert len(kit.actor.state.results) == 1
    assert all(type(seat_bot(kit, s)) is HeuristicBot for s in bots(kit))


def test_a_level_the_server_lacks_is_not_offered_and_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the rl extra there is no learned bot: /api/presets leaves it out and a table
    asking for it is refused, naming it."""

    async def test(client: httpx.AsyncClient) -> None:
        await client.post("/api/guest", json={"name": "房主"})
        assert "learned" in (await client.get("/api/presets")).json()["bot_levels"]
        monkeypatch.delitem(BOTS, "learned")
        levels = (await client.get("/api/presets")).json()["bot_levels"]
        assert levels == ["auto", "random", "heuristic", "search", "strong"]
        made = await client.post("/api/tables", json={"bots": 4, "bot_level": "learned"})
        assert made.status_code == 422
        detail = made.json()["detail"]
        assert detail["key"] == "error.server.bot_missing"
        assert "learned" in detail["message"] and "learned" in detail["zh"]
        assert (await client.get("/api/tables")).json()["tables"] == []

    asyncio.run(_http(tmp_path, test))


def test_the_lobby_list_comes_in_pages_waiting_tables_first(tmp_path: Path) -> None:
    """A flood of tables cannot make the lobby's answer large: LOBBY_PAGE tables a page,
    the tables waiting for players first (the fewest empty seats ahead), the page clamped."""

    async def test(client: httpx.AsyncClient, lobby: Lobby) -> None:
        for bots in [0] * (LOBBY_PAGE + 3) + [4, 2]:  # past the limits: made by the lobby
            await lobby.create(TableConfig(bots=bots, **FAST))
        first = (await client.get("/api/tables")).json()
        assert (first["page"], first["pages"], first["total"]) == (1, 2, LOBBY_PAGE + 5)
        assert len(first["tables"]) == LOBBY_PAGE
        empty = [sum(seat is None for seat in t["seats"]) for t in first["tables"]]
        assert empty[:2] == [1, 3] and empty == sorted(empty)
        last = (await client.get("/api/tables", params={"page": 99})).json()
        assert last["page"] == 2 and len(last["tables"]) == 5
        seen = {t["id"] for t in first["tables"]} | {t["id"] for t in last["tables"]}
        assert len(seen) == LOBBY_PAGE + 5  # every table on one page or the other
        assert (await client.get("/api/tables", params={"page": 0})).status_code == 422

    asyncio.run(_http(tmp_path, test, with_lobby=True))
