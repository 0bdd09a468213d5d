"""An agent's RAP loop through the official MCP client (in memory): open a CDS view by
``TYPE:NAME``, find the fields of its data source (navigate to the table and read it: the
agent's completion), patch the view token-checked, see activation refused with the inactive
table named (``inactiveDependencies``) and activate both (``also``), then preview its rows
(``objectStructure`` with ``rows``): refused unless the bridge allows data preview, narrowed
by columns and a WHERE when it does."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.cds_loop import (
    FIELD_LINE,
    NEW_URLS,
    NEW_VIEW,
    NEW_VIEW_TEXT,
    PACKAGE,
    REFUSAL,
    TABLE,
    VIEW,
    VIEW_SOURCE_URL,
    assert_both_active,
    cds_emulator,
    new_inactive_table_and_view,
)
from support.mcp_calls import call, error
from support.mcp_memory import bridge

from adt.agent import WritePolicy
from adt.emulator import Emulator
from mcp_bridge.arguments import parser


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return cds_emulator(tmp_path)


async def test_open_patch_activate_with_dependency_and_preview(emulator: Emulator) -> None:
    await new_inactive_table_and_view(emulator)
    async with bridge(emulator, policy=WritePolicy(data_preview=True)) as client:
        read = (await call(client, "getObjectSourceV2", objectUrl="DDLS:ZI_TRIP"))["data"]
        assert read["objectUrl"] == VIEW and "key trip_id as TripID" in read["content"]
        source = await call(
            client,
            "navigate",
            action="definition",
            objectUrl="DDLS:ZI_TRIP",
            line=1,
            identifier="ztrip",
        )
        assert source["data"]["objectUrl"] == TABLE, source
        fields = (await call(client, "getObjectSourceV2", objectUrl=TABLE))["data"]["content"]
        assert "city : abap.char(20)" in fields
        stale = await error(
            client,
            "setObjectSourceV2",
            objectUrl="DDLS:ZI_TRIP",
            token="0" * len(read["token"]),
            startLine=4,
            endLine=4,
            content=FIELD_LINE,
        )
        assert stale["name"] in {"VERSION_CONFLICT", "TOKEN_INVALID"}
        patched = await call(
            client,
            "setObjectSourceV2",
            objectUrl="DDLS:ZI_TRIP",
            token=read["token"],
            startLine=4,
            endLine=4,
            content=FIELD_LINE,
        )
        assert patched["ok"], patched
        assert (emulator.source(VIEW_SOURCE_URL) or "").splitlines()[3] == FIELD_LINE
        alone = (await call(client, "activate", objectUrl="DDLS:ZI_TRIP"))["data"]
        assert not alone["activated"] and REFUSAL in str(alone["findings"])
        assert alone["inactiveDependencies"] == [TABLE]
        assert "also" in alone["notes"][0]
        both = (await call(client, "activate", objectUrl=VIEW, also=alone["inactiveDependencies"]))[
            "data"
        ]
        assert both["activated"] and "inactiveDependencies" not in both, both
        assert_both_active(emulator)
        rows = (await call(client, "objectStructure", objectUrl="DDLS:ZI_TRIP", rows=2))["data"]
        assert rows["columns"] == ["TRIPID", "CITY"] and rows["keys"] == ["TRIPID"]
        assert rows["rows"] == [["0001", "Rome"], ["0002", "Oslo"]] and rows["totalRows"] == 5
        narrowed = await call(
            client,
            "objectStructure",
            objectUrl=VIEW,
            rows=5,
            columns=["City"],
            where="TripID > '0003'",
        )
        assert narrowed["data"]["rows"] == [["Kyiv"], ["Nara"]]
        behavior = await error(client, "objectStructure", objectUrl="BDEF:ZI_TRIP", rows=5)
        assert behavior["name"] == "INVALID_ARGUMENT", behavior
        assert "(Behavior Definition) has no rows to preview" in behavior["error"]
    async with bridge(emulator) as client:
        refused = await error(client, "objectStructure", objectUrl="TABL:ZTRIP", rows=5)
        assert (refused["code"], refused["name"]) == (4023, "PREVIEW_REFUSED")
        assert "--allow-data-preview" in refused["error"]
        bad = await error(client, "objectStructure", objectUrl="XYZ:ZTRIP")
        assert bad["name"] == "INVALID_ARGUMENT"
    assert emulator.locks() == []


async def test_also_by_type_and_name_is_not_named_again(emulator: Emulator) -> None:
    """A dependency passed as ``TABL:ZTRIP`` counts as passed: a refusal for another reason
    does not name it again."""
    await new_inactive_table_and_view(emulator)
    async with bridge(emulator) as client:
        read = (await call(client, "getObjectSourceV2", objectUrl="DDLS:ZI_TRIP"))["data"]
        await call(
            client,
            "setObjectSourceV2",
            objectUrl="DDLS:ZI_TRIP",
            token=read["token"],
            startLine=4,
            endLine=4,
            content="      nowhere as Nowhere",
        )
        refused = (await call(client, "activate", objectUrl=VIEW, also=["TABL:ZTRIP"]))["data"]
        assert not refused["activated"] and refused["findings"], refused
        assert "inactiveDependencies" not in refused
    assert emulator.locks() == []


def test_the_flag_turns_data_preview_on() -> None:
    assert parser().parse_args(["--allow-data-preview"]).allow_data_preview
    assert not parser().parse_args([]).allow_data_preview


async def test_manage_object_creates_a_view_from_the_template_over_its_basis(
    emulator: Emulator,
) -> None:
    """``basedOn``: the view starts as the editor wizard's text over ZTRIP's fields."""
    await new_inactive_table_and_view(emulator)
    async with bridge(emulator) as client:
        common = {"action": "create", "description": "Trips", "package": PACKAGE}
        made = await call(
            client, "manageObject", kind="dataDefinition", name=NEW_VIEW, basedOn="ztrip", **common
        )
        assert made["ok"], made
        text = (emulator.source(f"{NEW_URLS['dataDefinition']}/source/main") or "").replace(
            "\r\n", "\n"
        )
        assert text == NEW_VIEW_TEXT
        unknown = await error(
            client, "manageObject", kind="dataDefinition", name="ZI_NONE", basedOn="znone", **common
        )
        assert unknown["name"] == "INVALID_ARGUMENT" and unknown["details"]["basedOn"] == "ZNONE"
        assert emulator.source("/sap/bc/adt/ddic/ddl/sources/zi_none/source/main") is None
    assert emulator.locks() == []
