"""The emulator answers for CDS-family objects with adt.abap.cds, end to end through the
client: check runs with name resolution, completion, element info, navigation (also from
an ABAP SELECT and to a behavior pool), where-used across kinds, activation in dependency
order with a refusal for a view over a never-activated table; and the flight scenario
seeded in the emulator checks clean."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support import cds_samples as s
from support.cds_abapgit import write_samples
from support.emulated import make_client
from support.flight import checkouts

from adt import AdtClient
from adt.emulator import Emulator
from adt.emulator.cds_language import is_cds

DDLS = "/sap/bc/adt/ddic/ddl/sources"
TRAVEL = f"{DDLS}/zi_travel/source/main"
PROJECTION = f"{DDLS}/zc_travel/source/main"
BEHAVIOR = "/sap/bc/adt/bo/behaviordefinitions/zi_travel/source/main"
REPORT = "/sap/bc/adt/programs/programs/zr_travels"


@pytest.fixture
def emulator(tmp_path: Path) -> Emulator:
    return Emulator(seed_dirs=[write_samples(tmp_path / "$zcds")])


@pytest.fixture
async def client(emulator: Emulator) -> AsyncIterator[AdtClient]:
    async with make_client(emulator) as adt:
        yield adt
    assert emulator.state.lock_list() == []


def _at(text: str, marker: str) -> tuple[str, int, int]:
    before = text[: text.index(marker)]
    return text.replace(marker, "", 1), before.count("\n") + 1, len(before.split("\n")[-1])


async def test_check_run_resolves_names_and_reports_planted_errors(client: AdtClient) -> None:
    clean = await client.check_syntax(f"{DDLS}/zi_travel")
    assert clean.errors == ()
    planted = s.TRAVEL_VIEW.replace("_Agency.Name as", "_Agency.Nmae as")
    result = await client.check_syntax(f"{DDLS}/zi_travel", text=planted)
    assert [(m.text, m.line) for m in result.errors] == [
        ("'Nmae' is no element of 'ZI_Agency'", 20)
    ]


async def test_a_behavior_without_its_handler_is_a_warning_that_activation_passes(
    client: AdtClient,
) -> None:
    """Every action, determination and validation of the samples' BDEF has its handler in
    the behavior pool's local class; a new action without one is reported at its name as
    a warning (``W``), and the BDEF still activates."""
    url = BEHAVIOR.removesuffix("/source/main")
    clean = await client.check_syntax(url)
    assert clean.messages == ()
    planted = s.BEHAVIOR.replace(
        "  action acceptTravel", "  action rejectTravel;\n  action acceptTravel"
    )
    line = planted[: planted.index("rejectTravel")].count("\n") + 1
    result = await client.check_syntax(url, text=planted)
    assert [(m.severity, m.line, m.column) for m in result.messages] == [("W", line, 9)]
    assert "'rejectTravel' of 'Travel'" in result.messages[0].text
    async with client.locked(url) as held:
        await client.write_source(BEHAVIOR, planted, lock_handle=held.handle)
    activation = await client.activate(url)
    assert activation.success, activation.messages


async def test_a_control_without_its_handler_is_a_warning(client: AdtClient) -> None:
    """The samples' pool handles instance authorization and instance features; asking for
    global authorization and global features too is a warning at each, naming the method
    the pool lacks."""
    url = BEHAVIOR.removesuffix("/source/main")
    planted = s.BEHAVIOR.replace(
        "authorization master ( instance )", "authorization master ( instance, global )"
    ).replace("  create;", "  create ( features : global );")
    result = await client.check_syntax(url, text=planted)
    found = [(m.severity, m.line, m.text.split(" (a method ")[1]) for m in result.messages]
    authorization = planted[: planted.index("global )")].count("\n") + 1
    features = planted[: planted.index("features : global")].count("\n") + 1
    assert found == [
        ("W", authorization, "FOR GLOBAL AUTHORIZATION … FOR Travel)"),
        ("W", features, "FOR GLOBAL FEATURES … FOR Travel)"),
    ]


async def test_completion_element_info_and_navigation(client: AdtClient) -> None:
    text, line, column = _at(s.TRAVEL_VIEW.replace("_Agency.Name as", "_Agency.|Name as"), "|")
    proposals = await client.completion.proposals(TRAVEL, text, line, column)
    assert [p.identifier.upper() for p in proposals] == ["AGENCYID", "NAME"]

    text, line, column = _at(s.TRAVEL_PROJECTION.replace("key TravelID", "key Trav|elID"), "|")
    info = await client.navigation.element_info(PROJECTION, text, line, column)
    assert info is not None and info.name == "TravelID"
    assert info.properties["type"] == "ztravel_id (NUMC(8))"
    assert info.documentation == {"shorttext": "Travel ID"}

    text, line, column = _at(s.TRAVEL_PROJECTION.replace("on ZI_Travel", "on ZI_Tr|avel"), "|")
    target = await client.navigation.definition(PROJECTION, text, line, column)
    assert (target.source_url, target.line) == (TRAVEL, 3)

    text, line, column = _at(s.BEHAVIOR.replace("class zbp_i_travel", "class zbp_|i_travel"), "|")
    pool = await client.navigation.definition(BEHAVIOR, text, line, column)
    assert pool.object_url == "/sap/bc/adt/oo/classes/zbp_i_travel"

    text, line, column = _at(s.ABAP_REPORT.replace("FROM zc_travel", "FROM zc_tr|avel"), "|")
    selected = await client.navigation.definition(f"{REPORT}/source/main", text, line, column)
    assert (selected.source_url, selected.line) == (PROJECTION, 3)


async def test_where_used_lists_every_kind_that_uses_the_entity(client: AdtClient) -> None:
    result = await client.navigation.usages(f"{DDLS}/zc_travel")
    users = {(u.object.name, u.object.type) for u in result.objects}
    assert users == {
        ("ZC_TRAVEL", "BDEF/BDO"),
        ("ZC_TRAVEL", "DDLX/EX"),
        ("ZC_BOOKING", "DDLS/DF"),
        ("ZI_TRAVEL", "DCLS/DL"),
        ("ZUI_TRAVEL", "SRVD/SRV"),
        ("ZR_TRAVELS", "PROG/P"),
    }
    assert result.number_of_results == 6


async def test_where_used_rows_of_an_entity_lead_to_snippets_of_every_use(
    client: AdtClient,
) -> None:
    """Like the ABAP where-used: each using object carries an identifier, and the snippets
    behind it are the lines that name the entity, at the name's columns, with the line."""
    result = await client.navigation.usages(f"{DDLS}/zc_travel")
    identifiers = {u.object.name + " " + u.object.type: u.identifiers for u in result.objects}
    assert all(len(found) == 1 for found in identifiers.values()), identifiers
    assert identifiers["ZC_TRAVEL BDEF/BDO"] == ("ObjectType_BDEF/BDO;ZC_TRAVEL;\\TY:ZC_TRAVEL",)
    groups = await client.navigation.snippets(result)
    assert len(groups) == 6
    seen: set[str] = set()
    for group in groups:
        assert group.snippets, group.object_identifier
        for snippet in group.snippets:
            for match in snippet.matches:
                assert snippet.content[match.start : match.end].upper() == "ZC_TRAVEL"
            assert snippet.end_column - snippet.column == len("ZC_TRAVEL")
            seen.add(snippet.source_url)
            source = await client.read_source(snippet.source_url)
            assert source.text.split("\n")[snippet.line - 1] == snippet.content
    assert f"{DDLS}/zc_booking/source/main" in seen
    assert "/sap/bc/adt/programs/programs/zr_travels/source/main" in seen
    stale = await client.navigation.snippets(["ObjectType_DDLS/DF;ZNOTHERE;\\TY:ZC_TRAVEL"])
    assert [group.snippets for group in stale] == [()]


async def test_activation_refuses_a_view_over_a_new_table_then_activates_both(
    client: AdtClient,
) -> None:
    table = await client.objects.create("TABL/DT", "ZNEWTAB", description="New", package="$ZCDS")
    view = await client.objects.create("DDLS/DF", "ZI_NEW", description="New", package="$ZCDS")
    source = "define view entity ZI_New as select from znewtab\n{\n  key client as Client\n}\n"
    async with client.locked(view.object_url) as held:
        await client.write_source(view.source_url, source, lock_handle=held.handle)
    refused = await client.activate(view.object_url)
    assert not refused.success
    assert [(m.text, m.line) for m in refused.errors] == [
        ("Database Table ZNEWTAB is not active; activate it first or together with this object", 1)
    ]
    both = await client.activate([view.object_url, table.object_url])
    assert both.success, both.messages


@pytest.mark.parametrize("root", checkouts(), ids=lambda p: p.name)
def test_the_flight_scenario_checks_clean_in_the_emulator(root: Path) -> None:
    if not (root / "src").is_dir():
        pytest.skip(f"flight scenario not checked out at {root} (ADT_FLIGHT_SCENARIO)")
    emulator = Emulator(seed_dirs=[root / "src"])
    checked = 0
    findings: dict[str, list[str]] = {}
    for obj in list(emulator.state.objects.values()):
        if is_cds(obj):
            checked += 1
            found = [m.text for m in emulator.state.check_object(obj, "active")]
            if found:
                findings[f"{obj.kind.r3tr} {obj.name}"] = found
    assert checked >= 180
    assert findings == {}


def test_emulator_where_used_finds_abap_selects_on_a_table(emulator: Emulator) -> None:
    async def run() -> set[str]:
        async with make_client(emulator) as adt:
            result = await adt.navigation.usages("/sap/bc/adt/ddic/tables/ztravel")
            return {u.object.name for u in result.objects}

    assert asyncio.run(run()) == {"ZI_TRAVEL", "ZV_TRAVEL", "ZR_TRAVELS"}
