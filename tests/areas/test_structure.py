"""``client.structure`` on the emulator: node paths, main programs, object structures with
absolute spans, type hierarchies; and the parsers' refusal of other documents."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest
from support.emulated import make_client

from adt import AdtClient, ObjectRef
from adt._xml import XmlFormatError
from adt.areas.structure import (
    PathStep,
    SourceSpan,
    parse_node_path,
    parse_object_references,
    parse_object_structure,
    parse_type_hierarchy,
)
from adt.emulator import Emulator
from adt.errors import NotFoundError

ADT = "/sap/bc/adt"
GREETER = f"{ADT}/oo/classes/zcl_demo_greeter"
INTERFACE = f"{ADT}/oo/interfaces/zif_demo_greeting"
INCLUDE = f"{ADT}/programs/includes/zdemo_include"
REPORT = f"{ADT}/programs/programs/zdemo_report"
FMODULE = f"{ADT}/functions/groups/zdemo_fg/fmodules/z_demo_add"


@pytest.fixture
async def client(emulator: Emulator) -> AsyncIterator[AdtClient]:
    async with make_client(emulator) as adt:
        yield adt


async def test_node_path_from_the_top_package(client: AdtClient) -> None:
    steps = await client.structure.node_path(FMODULE)
    assert steps == (
        PathStep(f"{ADT}/packages/%24tmp", "DEVC/K", "$TMP", "packages"),
        PathStep(f"{ADT}/packages/%24zdemo", "DEVC/K", "$ZDEMO", "packages"),
        PathStep(f"{ADT}/functions/groups/zdemo_fg", "FUGR/F", "ZDEMO_FG", "source_library"),
        PathStep(FMODULE, "FUGR/FF", "Z_DEMO_ADD", "source_library"),
    )
    with pytest.raises(NotFoundError):
        await client.structure.node_path(f"{ADT}/oo/classes/zcl_nowhere")


async def test_main_programs(client: AdtClient) -> None:
    assert await client.structure.main_programs(INCLUDE) == (
        ObjectRef(REPORT, "PROG/P", "ZDEMO_REPORT"),
    )


async def test_object_structure_spans_point_into_the_sources(client: AdtClient) -> None:
    root = await client.structure.object_structure(GREETER)
    assert (root.type, root.name, root.visibility) == ("CLAS/OC", "ZCL_DEMO_GREETER", "public")
    assert "final" in root.flags
    assert root.definition == SourceSpan(f"{GREETER}/source/main", 1, 6, 1, 22)
    method = root.component("greet_all")
    assert method is not None and (method.type, method.level) == ("CLAS/OM", "instance")
    assert method.implementation == SourceSpan(f"{GREETER}/source/main", 44, 9, 44, 18)
    lines = (await client.read_source(f"{GREETER}/source/main")).text.splitlines()
    for component in root.components:
        span = component.definition
        assert span is not None
        word = lines[span.line - 1][span.column : span.end_column].upper()
        assert word == component.name.split("~")[0]
    interface = await client.structure.object_structure(INTERFACE)
    greet = interface.component("GREET")
    assert greet is not None and greet.description.startswith("Greets one person")


async def test_type_hierarchy_both_ways(client: AdtClient) -> None:
    text = (await client.read_source(f"{INTERFACE}/source/main")).text
    subs = await client.structure.type_hierarchy(f"{INTERFACE}/source/main", text, 1, 12)
    assert [(e.type, e.name) for e in subs] == [
        ("INTF/OI", "ZIF_DEMO_GREETING"),
        ("CLAS/OC", "ZCL_DEMO_GREETER"),
    ]
    assert (subs[1].uri, subs[1].line, subs[1].column) == (f"{GREETER}/source/main", 1, 6)
    assert subs[1].parent_uri == INTERFACE and subs[1].package == "$ZDEMO"
    source = (await client.read_source(f"{GREETER}/source/main")).text
    supers = await client.structure.type_hierarchy(
        f"{GREETER}/source/main", source, 1, 8, super_types=True
    )
    assert [e.name for e in supers] == ["ZCL_DEMO_GREETER", "ZIF_DEMO_GREETING"]


@pytest.mark.parametrize(
    "parser",
    [
        parse_node_path,
        parse_object_references,
        lambda body: parse_object_structure(body, GREETER),
        parse_type_hierarchy,
    ],
)
def test_parsers_refuse_other_documents(parser: object) -> None:
    body = b'<?xml version="1.0"?><other xmlns="urn:x"/>'
    with pytest.raises(XmlFormatError):
        parser(body)  # type: ignore[operator]
