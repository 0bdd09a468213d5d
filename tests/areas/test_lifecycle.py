"""``client.objects`` on the emulator: validate names, create every supported type, delete;
the name-check parser over the trial captures."""

from __future__ import annotations

from pathlib import Path

import pytest
from lxml import etree
from support.captures import capture
from support.emulated import make_client

from adt.areas.lifecycle import CREATABLE_TYPES, creation_body, parse_name_check
from adt.areas.transports import TransportRequiredError
from adt.emulator import Emulator
from adt.errors import NotFoundError

ADTCORE = "{http://www.sap.com/adt/core}"


async def test_name_validation_verdicts(emulator: Emulator) -> None:
    async with make_client(emulator) as adt:
        taken = await adt.objects.validate_name("CLAS/OC", "ZCL_DEMO_GREETER", package="$ZDEMO")
        assert not taken.ok and taken.message == "Class ZCL_DEMO_GREETER already exists"
        assert taken.t100 is not None and str(taken.t100) == "OO/002"
        assert (await adt.objects.validate_name("INTF/OI", "ZIF_NEW", package="$ZDEMO")).ok
        program = await adt.objects.validate_name("PROG/I", "ZDEMO_REPORT", package="$ZDEMO")
        assert not program.ok and program.t100 is not None and program.t100.area == "SWB_TOOL"
        module = await adt.objects.validate_name("FUGR/FF", "Z_DEMO_ADD", group="ZDEMO_FG")
        assert (module.ok, module.message) == (False, "Function module Z_DEMO_ADD already exists")
        assert (await adt.objects.validate_name("FUGR/FF", "Z_NEW_FM", group="ZDEMO_FG")).ok
        assert (await adt.objects.validate_name("FUGR/F", "ZNEW_FG", package="$ZDEMO")).ok


@pytest.mark.parametrize(
    ("object_type", "name", "options", "first_line"),
    [
        ("CLAS/OC", "ZCL_CREATED", {"test_classes": True}, "CLASS zcl_created DEFINITION"),
        ("INTF/OI", "ZIF_CREATED", {}, "INTERFACE zif_created"),
        ("PROG/P", "ZCREATED_REPORT", {}, "*&----"),
        ("PROG/I", "ZCREATED_INCL", {"main_program": "ZDEMO_REPORT"}, "*&----"),
        ("FUGR/F", "ZCREATED_FG", {}, "*******"),
        ("FUGR/FF", "Z_CREATED_FM", {"group": "ZDEMO_FG"}, "FUNCTION z_created_fm."),
    ],
)
async def test_create_each_type_then_delete(
    emulator: Emulator,
    object_type: str,
    name: str,
    options: dict[str, object],
    first_line: str,
) -> None:
    async with make_client(emulator) as adt:
        created = await adt.objects.create(
            object_type,
            name,
            package="$ZDEMO",
            description="Made by the client",
            **options,  # type: ignore[arg-type]
        )
        assert created.object_url in emulator.objects()
        metadata = await adt.object_metadata(created.object_url)
        assert (metadata.name, metadata.type, metadata.version) == (name, object_type, "inactive")
        assert metadata.package == "$ZDEMO"
        if object_type == "CLAS/OC":
            assert "testclasses" in metadata.include_types
        source = await adt.read_source(created.source_url)
        assert source.text.startswith(first_line)
        hits = await adt.quick_search(name)
        assert object_type == "FUGR/FF" or [h.name for h in hits] == [name]
        tree = await adt.package_contents("$ZDEMO")
        listed = {node.name for node in tree.nodes}
        assert object_type == "FUGR/FF" or name in listed  # modules sit below their group
        assert (await adt.activate(created.object_url)).success
        await adt.objects.delete(created.object_url)
        with pytest.raises(NotFoundError):
            await adt.object_metadata(created.object_url)
        assert adt.held_locks == {}
    assert emulator.locks() == []


async def test_a_refused_delete_releases_the_lock_it_took(emulator: Emulator) -> None:
    async with make_client(emulator) as adt:
        number = await adt.transports.create("Short-lived", "ZDEMO_TR")
        created = await adt.objects.create(
            "PROG/P", "ZTR_GONE", package="ZDEMO_TR", description="x", transport=number
        )
        assert (await adt.activate(created.object_url)).success
        [task] = (await adt.transports.details(number)).tasks
        assert (await adt.transports.release(task.number)).released
        assert (await adt.transports.release(number)).released
        # released: the object is locked in no request any more, so a delete needs one
        with pytest.raises(TransportRequiredError):
            await adt.objects.delete(created.object_url)
        assert adt.held_locks == {}
        assert created.object_url in emulator.objects()
        assert emulator.locks() == []
        second = await adt.transports.create("Deletion", "ZDEMO_TR")
        await adt.objects.delete(created.object_url, transport=second)
        [recorded] = [r for r in emulator.transport_requests() if r.number == second]
        assert [o.name for o in recorded.objects] == ["ZTR_GONE"]
    assert created.object_url not in emulator.objects()


def test_creation_body_matches_the_protocol() -> None:
    body = creation_body(
        "PROG/I", "zinc", "An <include>", package="$tmp", responsible="dev", main_program="zmain"
    )
    root = etree.fromstring(body)
    assert root.tag == "{http://www.sap.com/adt/programs/includes}abapInclude"
    assert (root.get(f"{ADTCORE}name"), root.get(f"{ADTCORE}description")) == (
        "ZINC",
        "An <include>",
    )
    assert root.get(f"{ADTCORE}responsible") == "DEV"
    package = root.find(f"{ADTCORE}packageRef")
    assert package is not None and package.get(f"{ADTCORE}name") == "$TMP"
    module = etree.fromstring(creation_body("FUGR/FF", "Z_FM", "x", group="ZDEMO_FG"))
    ref = module.find(f"{ADTCORE}containerRef")
    assert ref is not None and ref.get(f"{ADTCORE}uri") == "/sap/bc/adt/functions/groups/zdemo_fg"
    assert module.find(f"{ADTCORE}packageRef") is None
    assert set(CREATABLE_TYPES) == {
        *("CLAS/OC", "INTF/OI", "PROG/P", "PROG/I", "FUGR/F", "FUGR/FF", "FUGR/I"),
        *("DDLS/DF", "DDLX/EX", "DCLS/DL", "BDEF/BDO", "SRVD/SRV"),
        *("TABL/DT", "TABL/DS", "TTYP/DA", "DTEL/DE", "DOMA/DD", "MSAG/N", "SRVB/SVB"),
    }
    with pytest.raises(ValueError, match="creatable types"):
        creation_body("ENHO/XHH", "ZX", "x")


def test_name_check_parser_on_trial_captures(adt_captures: Path) -> None:
    free = capture("trl/validation-name-free-table--01-tables-validation").body
    taken = capture("trl/refusal-validation-name-taken-functiongroup--01-functions-validation").body
    ok = capture("trl/validation-name-free-ddl--01-ddl-validation").body
    assert free is not None and taken is not None and ok is not None
    assert parse_name_check(free).ok
    refused = parse_name_check(taken)
    assert (refused.ok, refused.message) == (False, "Function group ZMCP_SHR_FGRP already exists")
    assert parse_name_check(ok).ok
