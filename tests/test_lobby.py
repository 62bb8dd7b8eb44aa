"""The lobby in-process: tables are created, folded back from storage, and swept when idle."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from baohuang.server import lobby as lobby_module
from baohuang.server.lobby import Lobby
from baohuang.server.protocol import TableConfig
from baohuang.server.store import Store


def test_deserted_tables_are_swept_and_closed_and_live_ones_fold_back(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    async def scenario() -> None:
        store = Store(f"sqlite:///{tmp_path / 'lobby.db'}")
        await store.start()
        lobby = Lobby(store)
        empty = await lobby.create(TableConfig(bots=4))
        kept = await lobby.create(TableConfig(bots=2, preset="weihai"))
        kept.watchers.add(object())  # type: ignore[arg-type]  # someone is watching
        monkeypatch.setattr(lobby_module, "IDLE_SECONDS", 0.0)
        await lobby.sweep()
        assert set(lobby.tables) == {kept.id}
        await lobby.close()
        # A new server process: only the live table comes back, folded from its events.
        again = Lobby(store)
        await again.recover()
        assert set(again.tables) == {kept.id}
        back = again.tables[kept.id]
        assert back.info().seats == kept.info().seats and back.seq == kept.seq == 2
        assert back.rules.name == "weihai" and empty.id not in again.tables
        await again.close()
        await store.close()

    asyncio.run(scenario())
