"""``client.discovery``: service documents, value helps, and the package contents with their
sub-packages, on the in-process emulator and over recorded bodies."""

from __future__ import annotations

import pytest
from support.captures import capture, requires_captures
from support.emulated import make_client

from adt._xml import XmlFormatError
from adt.areas.discovery import (
    NamedItem,
    ServiceDocument,
    parse_named_items,
    parse_service_document,
)
from adt.emulator import Emulator
from adt.errors import NotFoundError

ADT = "/sap/bc/adt"

# The shape of a real core discovery (docs/protocol/discovery-and-packages.md §2.2), with
# other prefixes: the parser must go by namespace.
CORE = (
    b'<?xml version="1.0" encoding="utf-8"?><s:service xmlns:s="http://www.w3.org/2007/app" '
    b'xmlns:a="http://www.w3.org/2005/Atom"><s:workspace><a:title>Compatibility</a:title>'
    b'<s:collection href="/sap/bc/adt/compatibility/graph"><a:title>Compatibility graph</a:title>'
    b'<a:category term="graph" scheme="http://www.sap.com/adt/categories/compatibility"/>'
    b'<c:templateLinks xmlns:c="http://www.sap.com/adt/compatibility"/></s:collection>'
    b"</s:workspace><s:workspace><a:title>ADT Protected Mode</a:title></s:workspace>"
    b"<s:workspace><a:title>ADT Batch Resource</a:title>"
    b'<s:collection href="/sap/bc/adt/communication/batch"><a:title>ADT Batch Resource'
    b'</a:title><s:accept>multipart/mixed</s:accept><a:category term="batch" '
    b'scheme="http://www.sap.com/adt/categories/system/communication/services"/>'
    b"</s:collection></s:workspace></s:service>"
)


def test_service_document_parses_by_namespace() -> None:
    document = parse_service_document(CORE)
    assert [w.title for w in document.workspaces] == [
        "Compatibility",
        "ADT Protected Mode",
        "ADT Batch Resource",
    ]
    graph, batch = document.collections
    assert (graph.href, graph.title, graph.category_term, graph.workspace) == (
        f"{ADT}/compatibility/graph",
        "Compatibility graph",
        "graph",
        "Compatibility",
    )
    assert graph.category_scheme == "http://www.sap.com/adt/categories/compatibility"
    assert batch.accepts == ("multipart/mixed",)
    assert document.workspace("ADT Protected Mode") is not None
    assert document.workspace("ADT Protected Mode").collections == ()  # type: ignore[union-attr]


def test_service_document_refuses_other_documents() -> None:
    with pytest.raises(XmlFormatError):
        parse_service_document(b"<x/>")
    with pytest.raises(XmlFormatError):
        parse_named_items(b"<x/>")


def test_find_collection_ignores_query_slash_case_and_dollar_spelling() -> None:
    document = ServiceDocument(parse_service_document(CORE).workspaces)
    assert document.find_collection(f"{ADT}/compatibility/graph/") is not None
    assert document.find_collection(f"{ADT}/Compatibility/Graph?x=1") is not None
    assert document.find_collection(f"{ADT}/nothing") is None
    assert document.accepts(f"{ADT}/communication/batch") == ("multipart/mixed",)
    assert document.accepts(f"{ADT}/nothing") == ()


async def test_core_discovery_on_the_emulator(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        core = await client.discovery.core()
    graph = core.find_collection(f"{ADT}/compatibility/graph")
    assert graph is not None and graph.category_term == "graph"
    assert all(len(w.collections) <= 1 for w in core.workspaces)


async def test_full_discovery_on_the_emulator(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        service = await client.discovery.service()
    packages = service.workspace("Packages")
    assert packages is not None
    found = service.find_template(f"{ADT}/packages/valuehelps/transportlayers")
    assert found is not None
    collection, link = found
    assert collection.href == f"{ADT}/packages" and link.rel == "transportlayers"
    assert link.type == "application/vnd.sap.adt.nameditems.v1+xml"
    classes = service.find_collection(f"{ADT}/oo/classes")
    assert classes is not None and classes.category_term == "classes"
    assert "application/vnd.sap.adt.oo.classes.v4+xml" in classes.accepts
    groups = service.find_collection(f"{ADT}/functions/groups")
    assert groups is not None
    fmodules = groups.template_link(
        "http://www.sap.com/adt/categories/functiongroups/functionmodules"
    )
    assert fmodules is not None and fmodules.template.endswith("/{groupname}/fmodules")
    assert service.find_collection(f"{ADT}/atc/worklists") is not None


async def test_package_value_helps(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        layers = await client.discovery.package_value_help("transportlayers")
        components = await client.discovery.package_value_help("softwarecomponents", "L*")
        first = await client.discovery.package_value_help("transportlayers", max_items=1)
        with pytest.raises(ValueError, match="kind must be one of"):
            await client.discovery.package_value_help("nosuchhelp")
    assert NamedItem("SAP", "SAP transport layer") in layers
    assert "" in {item.name for item in layers}
    assert [c.name for c in components] == ["LOCAL"]
    assert len(first) == 1


async def test_package_contents_returns_sub_packages_as_typed_nodes(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        tmp = await client.package_contents("$TMP")
        demo = await client.package_contents("$ZDEMO")
        with pytest.raises(NotFoundError):
            await client.package_contents("ZNOPE")
    assert [(n.object_type, n.name) for n in tmp.sub_packages] == [
        ("DEVC/K", "$ZDEMO"),
        ("DEVC/K", "ZDEMO_TR"),
    ]
    assert tmp.objects == ()
    assert tmp.sub_packages[0].uri == f"{ADT}/packages/%24zdemo"
    assert all(n.is_package for n in tmp.sub_packages)
    assert len(tmp.nodes) == 2, "listed once although the sub-package folder also expands"
    assert demo.sub_packages == ()
    assert {"ZDEMO_REPORT", "ZCL_DEMO_GREETER", "ZDEMO_FG"} <= {n.name for n in demo.objects}


async def test_node_structure_of_a_function_group(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        root = await client.node_structure("FUGR/F", "ZDEMO_FG")
        modules = await client.node_structure(
            "FUGR/F", "ZDEMO_FG", node_id=root.object_types[0].node_id
        )
    assert [t.object_type for t in root.object_types] == ["FUGR/FF", "FUGR/I"]
    assert [n.name for n in modules.objects] == ["Z_DEMO_ADD", "Z_DEMO_GREET"]


@requires_captures
@pytest.mark.captures
def test_named_items_parse_the_recorded_empty_answer() -> None:
    body = capture("a4h/cts/transport-targets-valuehelp-empty").body or b""
    assert parse_named_items(body) == ()
