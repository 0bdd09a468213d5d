"""``manageObject`` creates and deletes the kinds the registry declares: its ``kind`` enum is
:data:`adt.workbench.objects.KINDS` (derived from ``adt.kinds``), and what it creates it
may delete — a database table excepted, which holds data."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cds_loop import TABLE, cds_emulator, new_inactive_table_and_view
from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.emulator import Emulator
from adt.kinds import KINDS as ALL_KINDS
from adt.workbench.objects import KINDS


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return cds_emulator(tmp_path)


def test_the_creatable_kinds_are_the_registrys_kinds() -> None:
    expected = [
        kind.face_name for kind in ALL_KINDS.kinds if kind.face_name and kind.code != "FUGR/I"
    ]
    assert list(KINDS) == expected
    assert {"dataDefinition", "behaviorDefinition", "serviceDefinition", "table"} <= set(KINDS)
    assert {"dataElement", "domain", "tableType", "messageClass", "serviceBinding"} <= set(KINDS)


async def test_the_tool_offers_every_creatable_kind(emulator: Emulator) -> None:
    async with bridge(emulator) as client:
        tools = {t.name: t for t in (await client.list_tools()).tools}
    schema = tools["manageObject"].input_schema["properties"]["kind"]
    assert schema["enum"] == list(KINDS)


async def test_a_created_service_definition_is_deleted_a_table_is_not(
    emulator: Emulator,
) -> None:
    await new_inactive_table_and_view(emulator)
    async with bridge(emulator) as client:
        created = await call(
            client,
            "manageObject",
            action="create",
            kind="serviceDefinition",
            name="ZUI_TRIP",
            description="Trips",
            package="$ZCDS",
        )
        url = created["data"]["objectUrl"]
        assert url == "/sap/bc/adt/ddic/srvd/sources/zui_trip"
        deleted = await call(client, "manageObject", action="delete", objectUrl="SRVD:ZUI_TRIP")
        assert deleted["data"] == {"objectUrl": url, "deleted": True}
        refused = await error(client, "manageObject", action="delete", objectUrl=TABLE)
        assert refused["name"] == "WRITE_REFUSED"
        assert "serviceDefinition" in refused["details"]["deletableKinds"]
        assert "table" not in refused["details"]["deletableKinds"]
    assert emulator.source(f"{url}/source/main") is None
    assert emulator.source(f"{TABLE}/source/main") is not None
    assert emulator.locks() == []
