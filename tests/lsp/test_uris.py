"""adt:// document URIs."""

from __future__ import annotations

import pytest

from lsp_server.uris import InvalidDocumentUri, make_uri, parse_uri


def test_main_source_and_class_includes() -> None:
    ref = parse_uri("adt://A4H/sap/bc/adt/oo/classes/zcl_x/includes/definitions")
    assert (ref.system, ref.object_url, ref.include_type) == (
        "A4H",
        "/sap/bc/adt/oo/classes/zcl_x",
        "definitions",
    )
    program = parse_uri("adt://A4H/sap/bc/adt/programs/programs/zprog/source/main")
    assert program.include_type is None and program.source_url.endswith("/source/main")
    assert make_uri("A4H", "/sap/bc/adt/oo/classes/zcl_x", "testclasses") == (
        "adt://A4H/sap/bc/adt/oo/classes/zcl_x/includes/testclasses"
    )


@pytest.mark.parametrize(
    "uri",
    [
        "adt://A4H/sap/bc/adt/oo/classes/%2fabc%2fcl_x/source/main",
        "adt://A4H/sap/bc/adt/oo/classes/%2Fabc%2Fcl_x/source/main",
        "adt://A4H/sap/bc/adt/oo/classes//abc/cl_x/source/main",
        "adt://A4H/sap/bc/adt/oo/classes/%252fabc%252fcl_x/source/main",
    ],
)
def test_namespaced_names_survive_editor_encodings(uri: str) -> None:
    assert parse_uri(uri).object_url == "/sap/bc/adt/oo/classes/%2fabc%2fcl_x"


@pytest.mark.parametrize(
    "uri",
    [
        "file:///tmp/x.abap",
        "adt:///sap/bc/adt/oo/classes/x/source/main",
        "adt://A4H/etc/passwd",
        "adt://A4H/sap/bc/adt/../x",
        "adt://A4H/sap/bc/adt/oo/classes/x/source/main?x=1",
        "adt://A4H/sap/bc/adt/programs/programs/z/includes/definitions",
    ],
)
def test_bad_uris(uri: str) -> None:
    with pytest.raises(InvalidDocumentUri):
        parse_uri(uri)


@pytest.mark.parametrize(
    ("path", "language"),
    [
        ("/sap/bc/adt/ddic/ddl/sources/%2fdmo%2fi_travel_m/source/main", "abap-cds"),
        ("/sap/bc/adt/bo/behaviordefinitions/%2fdmo%2fi_travel_m/source/main", "abap-bdef"),
        ("/sap/bc/adt/ddic/srvd/sources/zui_x/source/main", "abap-srvd"),
        ("/sap/bc/adt/ddic/tables/%2fdmo%2ftravel/source/main", "abap-ddic"),
        ("/sap/bc/adt/oo/classes/zcl_x/source/main", "abap"),
    ],
)
def test_documents_of_every_kind_carry_their_language(path: str, language: str) -> None:
    ref = parse_uri(f"adt://A4H{path}")
    assert ref.source_url == path
    assert ref.language_id == language
    decoded = parse_uri(f"adt://A4H{path.replace('%2f', '/')}")  # an editor decoded it once
    assert decoded.object_url == ref.object_url
