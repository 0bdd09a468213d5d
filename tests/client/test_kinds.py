"""The client's registry of object kinds: URLs (namespaced names encoded as SAP writes
them), the type a URL implies, the kind of an abapGit file, the editor language ids."""

from __future__ import annotations

import pytest

from adt.errors import InvalidObjectUrlError
from adt.kinds import KINDS
from adt.urls import object_type_for, object_url, source_ref

ADT = "/sap/bc/adt"

CASES = [
    ("DDLS/DF", "/DMO/I_TRAVEL_M", f"{ADT}/ddic/ddl/sources/%2fdmo%2fi_travel_m", "abap-cds"),
    ("DDLX/EX", "/DMO/C_TRAVEL_M", f"{ADT}/ddic/ddlx/sources/%2fdmo%2fc_travel_m", "abap-cds"),
    ("DCLS/DL", "/DMO/I_TRAVEL_M", f"{ADT}/acm/dcl/sources/%2fdmo%2fi_travel_m", "abap-cds"),
    (
        "BDEF/BDO",
        "/DMO/I_TRAVEL_M",
        f"{ADT}/bo/behaviordefinitions/%2fdmo%2fi_travel_m",
        "abap-bdef",
    ),
    ("SRVD/SRV", "/DMO/UI_TRAVEL", f"{ADT}/ddic/srvd/sources/%2fdmo%2fui_travel", "abap-srvd"),
    ("TABL/DT", "/DMO/TRAVEL", f"{ADT}/ddic/tables/%2fdmo%2ftravel", "abap-ddic"),
    ("TABL/DS", "/DMO/S_X", f"{ADT}/ddic/structures/%2fdmo%2fs_x", "abap-ddic"),
    ("TTYP/DA", "/DMO/TT_X", f"{ADT}/ddic/tabletypes/%2fdmo%2ftt_x", "xml"),
    ("DTEL/DE", "/DMO/TRAVEL_ID", f"{ADT}/ddic/dataelements/%2fdmo%2ftravel_id", "xml"),
    ("DOMA/DD", "/DMO/STATUS", f"{ADT}/ddic/domains/%2fdmo%2fstatus", "xml"),
    ("MSAG/N", "/DMO/CM_FLIGHT", f"{ADT}/messageclass/%2fdmo%2fcm_flight", "xml"),
    (
        "SRVB/SVB",
        "/DMO/UI_TRAVEL_O4",
        f"{ADT}/businessservices/bindings/%2fdmo%2fui_travel_o4",
        "xml",
    ),
    ("CLAS/OC", "/DMO/CL_X", f"{ADT}/oo/classes/%2fdmo%2fcl_x", "abap"),
]


@pytest.mark.parametrize(("code", "name", "url", "language"), CASES)
def test_urls_types_and_languages(code: str, name: str, url: str, language: str) -> None:
    assert object_url(code, name) == url
    bare = KINDS.get(code.split("/")[0])  # a bare R3TR type names its main kind
    assert bare is not None and (bare.code == code or code == "TABL/DS")
    assert object_type_for(url) == code
    assert object_type_for(f"{url}/source/main") == code
    kind = KINDS.get(code)
    assert kind is not None and kind.language == language
    if kind.source_based:
        assert source_ref(url).source_url == f"{url}/source/main"


def test_abapgit_files_name_their_kind() -> None:
    found = {
        name: (kind.code if (kind := KINDS.for_file(name)) else None)
        for name in (
            "#dmo#i_travel_m.ddls.asddls",
            "#dmo#i_travel_m.ddls.baseinfo",
            "#dmo#c_travel_m.ddlx.asddlxs",
            "#dmo#i_travel_m.bdef.asbdef",
            "#dmo#travel.tabl.xml",
            "#dmo#cm_flight.msag.xml",
            "#dmo#trvl.suso.xml",
        )
    }
    assert found == {
        "#dmo#i_travel_m.ddls.asddls": "DDLS/DF",
        "#dmo#i_travel_m.ddls.baseinfo": "DDLS/DF",
        "#dmo#c_travel_m.ddlx.asddlxs": "DDLX/EX",
        "#dmo#i_travel_m.bdef.asbdef": "BDEF/BDO",
        "#dmo#travel.tabl.xml": "TABL/DT",
        "#dmo#cm_flight.msag.xml": "MSAG/N",
        "#dmo#trvl.suso.xml": None,
    }


def test_unknown_types_and_unsafe_names_are_refused() -> None:
    with pytest.raises(InvalidObjectUrlError, match="unsupported object type"):
        object_url("ENHO/XHH", "ZX")
    with pytest.raises(InvalidObjectUrlError):
        object_url("DDLS/DF", " ZI_X")
    with pytest.raises(InvalidObjectUrlError, match="function group"):
        object_url("FUGR/FF", "Z_FM")


def test_templates_name_the_object() -> None:
    for code in ("DDLS/DF", "DDLX/EX", "DCLS/DL", "BDEF/BDO", "SRVD/SRV"):
        kind = KINDS.get(code)
        assert kind is not None and kind.template is not None
        assert "ZI_NEW" in kind.template("ZI_NEW", "New one")
