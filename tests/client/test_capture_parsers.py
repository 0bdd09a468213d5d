"""The client's parsers against every recorded ADT body (skipped without ../shared)."""

from __future__ import annotations

import re

import pytest
from support.captures import Capture, all_captures, capture, requires_captures

from adt import _xml
from adt.errors import (
    BadRequestError,
    InvalidLockHandleError,
    LockConflictError,
    NotAcceptableError,
    NotFoundError,
    error_for,
)

pytestmark = [requires_captures, pytest.mark.captures]

_OBJECT_PATH = re.compile(
    r"^/sap/bc/adt/(oo/classes|oo/interfaces|programs/programs|programs/includes|"
    r"functions/groups)/[^/]+(/fmodules/[^/]+)?$",
    re.IGNORECASE,
)


def _select(predicate: object) -> list[Capture]:
    chosen = [c for c in all_captures() if c.body is not None and predicate(c)]  # type: ignore[operator]
    return chosen


def _ids(captures: list[Capture]) -> list[str]:
    return [c.name for c in captures]


LOCKS = _select(lambda c: c.status == 200 and c.query.get("_action") == "LOCK")
METADATA = _select(
    lambda c: c.method == "GET" and c.status == 200 and _OBJECT_PATH.match(c.path) is not None
)
ERRORS = _select(lambda c: (c.status or 0) >= 400 and c.body)
ACTIVATIONS = _select(lambda c: c.path.endswith("/activation") and c.status == 200)
CHECKRUNS = _select(lambda c: c.path.endswith("/checkruns") and c.status == 200)
SEARCHES = _select(lambda c: c.query.get("operation") == "quickSearch" and c.status == 200)
TREES = _select(lambda c: c.path.endswith("/repository/nodestructure") and c.status == 200)


def test_the_corpus_has_every_category() -> None:
    assert len(LOCKS) >= 6
    assert len(METADATA) >= 10
    assert len(ERRORS) >= 8
    assert len(ACTIVATIONS) >= 3
    assert len(CHECKRUNS) == 3
    assert len(SEARCHES) >= 10
    assert len(TREES) >= 6


@pytest.mark.parametrize("item", LOCKS, ids=_ids(LOCKS))
def test_every_lock_result_parses(item: Capture) -> None:
    assert item.body is not None
    result = _xml.parse_lock(item.body, item.path)
    assert re.fullmatch(r"[0-9A-F]{40}", result.handle)
    assert result.object_url == item.path
    assert result.is_local == (not result.corrnr)


def test_lock_result_fields() -> None:
    program = _xml.parse_lock(capture("a4h/093-np-lock").body or b"", "/p")
    assert program.handle == "B86D987264815450A8A2AD8B7611ED806B20243D"
    assert program.is_local and program.modification_support == ""
    result2 = _xml.parse_lock(capture("trl/lock-success--01-lock").body or b"", "/c")
    assert result2.handle == "B92E65858E83454C783181344F429D4BFD8E395D"
    assert result2.modification_support == "NoModification"
    transportable = _xml.parse_lock(capture("a4h/cts/lock-transportable-object").body or b"", "/t")
    assert (transportable.corrnr, transportable.corruser) == ("A4HK900117", "DEVELOPER")
    assert transportable.corrtext == "Generated Request for Change Recording"
    assert not transportable.is_local


@pytest.mark.parametrize("item", METADATA, ids=_ids(METADATA))
def test_every_object_metadata_parses(item: Capture) -> None:
    assert item.body is not None
    meta = _xml.parse_metadata(item.body, item.path.lower())
    assert meta.name and meta.type and meta.version in ("active", "inactive")
    assert meta.changed_at is not None and meta.changed_at.iso.endswith("Z")
    assert meta.source_url is not None and meta.source_url.startswith(item.path.lower())
    assert meta.package or meta.container is not None, "a package, or a container for modules"
    if meta.is_class:
        assert "main" in meta.include_types
        for include in meta.includes:
            assert include.changed_at is not None and include.etag


def test_program_metadata_values() -> None:
    meta = _xml.parse_metadata(
        capture("a4h/073-p2-packageref-prog").body or b"",
        "/sap/bc/adt/programs/programs/zmcp_dbg_demo",
    )
    assert (meta.name, meta.type, meta.package) == ("ZMCP_DBG_DEMO", "PROG/P", "$TMP")
    assert meta.description == "MCP debugger fixture: report under debug"
    assert meta.changed_at is not None and meta.changed_at.iso == "2026-07-31T15:09:42Z"
    assert meta.changed_at.ms == 1785510582000
    assert meta.changed_by == "DEVELOPER"
    assert meta.source_url == "/sap/bc/adt/programs/programs/zmcp_dbg_demo/source/main"
    assert meta.source_etag() == "202607311509420011"
    urls = {link.rel.rsplit("/", 1)[-1]: link.url for link in meta.links}
    assert urls["objectstructure"] == "/sap/bc/adt/programs/programs/zmcp_dbg_demo/objectstructure"
    assert meta.attributes["programType"] == "executableProgram"


def test_class_metadata_has_per_include_stamps() -> None:
    url = "/sap/bc/adt/oo/classes/zbp_mcp_shr_i_root"
    meta = _xml.parse_metadata(
        capture("trl/read-metadata-class--01-classes-zbpmcpshriroot").body or b"", url
    )
    assert meta.include_types == ("definitions", "implementations", "macros", "testclasses", "main")
    definitions, main = meta.include("definitions"), meta.include("main")
    assert definitions is not None and main is not None
    assert definitions.source_url == f"{url}/includes/definitions"
    assert (
        definitions.changed_at is not None and definitions.changed_at.iso == "2026-09-10T15:10:42Z"
    )
    assert main.source_url == f"{url}/source/main" and main.etag == "202609101525120011"
    assert meta.source_url == f"{url}/source/main"
    assert meta.package == "ZMCP_SHR_PKG"


def test_function_module_metadata_uses_container() -> None:
    item = capture("trl/read-metadata-function-module--01-fmodules-zmcpshrfm")
    meta = _xml.parse_metadata(item.body or b"", item.path.lower())
    assert meta.type == "FUGR/FF"
    assert meta.container is not None and meta.container.name == "ZMCP_SHR_FGRP"
    assert meta.package == "ZMCP_SHR_PKG"


@pytest.mark.parametrize("item", ERRORS, ids=_ids(ERRORS))
def test_every_error_body_becomes_a_typed_error(item: Capture) -> None:
    assert item.body is not None and item.status is not None
    info = _xml.parse_error(item.status, item.body, item.content_type)
    error = error_for(info)
    assert error.status == item.status
    assert info.text, "every error carries a readable message"
    if item.body.startswith(b'<?xml version="1.0" encoding="utf-8"?><exc:exception'):
        assert info.type_id, "an exc:exception always names its type"
        if info.t100 is not None:
            assert re.fullmatch(r"\d{3}", info.t100.number), "T100 numbers stay zero-padded text"


def _error(name: str) -> object:
    item = capture(name)
    assert item.body is not None and item.status is not None
    return error_for(_xml.parse_error(item.status, item.body, item.content_type))


def test_specific_errors() -> None:
    missing = _error("a4h/072-p1-verify-created")
    assert isinstance(missing, NotFoundError) and missing.info.properties == {}
    assert missing.info.message == "ZMCP_CSRF_PROBE does not exist"
    conflict = _error("trl/refusal-lock-held-by-other--01-lock")
    assert isinstance(conflict, LockConflictError)
    assert (conflict.holder, conflict.object_name) == ("SAPUSER01", "ZMCP_BLD_ANSCH01")
    assert str(conflict.t100) == "EU/510" and "SAPUSER01" in str(conflict)
    own = _error("a4h/095-np-activate")
    assert isinstance(own, LockConflictError) and own.holder == "DEVELOPER"
    assert own.properties["URI"] == "/sap/bc/adt/programs/programs/zmcp_dbg_demo"
    bad_handle = _error("trl/refusal-write-not-locked--01-update-source")
    assert (
        isinstance(bad_handle, InvalidLockHandleError)
        and str(bad_handle.t100) == "SADT_RESOURCE/026"
    )
    too_long = _error("a4h/enhancement/446-put-line-too-long")
    assert isinstance(too_long, BadRequestError) and too_long.t100 is not None
    assert (str(too_long.t100), too_long.t100.variables) == ("SEDI_ADT/015", ("33",))
    assert too_long.properties["com.sap.adt.communicationFramework.subType"] == "TooLongLine"
    assert isinstance(_error("a4h/082-p3b-datapreview-t000"), NotAcceptableError)
    csrf = capture("a4h/071-p1-create-with-fetch-token")
    info = _xml.parse_error(403, csrf.body or b"", csrf.content_type)
    assert info.message == "CSRF token validation failed" and info.type_id == ""


@pytest.mark.parametrize("item", ACTIVATIONS, ids=_ids(ACTIVATIONS))
def test_every_activation_result_parses(item: Capture) -> None:
    result = _xml.parse_activation(item.body or b"")
    assert result.success == (not result.errors and not result.inactive_objects)


def test_activation_verdicts() -> None:
    assert _xml.parse_activation(capture("a4h/216-np-activate").body or b"").success
    failed = _xml.parse_activation(
        capture("trl/refusal-activation-fails--01-activation").body or b""
    )
    assert not failed.success and failed.executed is False
    (message,) = failed.messages
    assert (message.line, message.column, message.end_line, message.end_column) == (15, 24, 15, 50)
    assert message.uri == "/sap/bc/adt/oo/classes/zmcp_bld_ansch01/source/main"
    assert message.text == 'Type "STRONG_BUT_NOT_A_REAL_TYPE" is unknown.'
    no_properties = _xml.parse_activation(
        capture("a4h/enhancement/455-activate-failure-syntax-error").body or b""
    )
    assert not no_properties.success and no_properties.executed is None
    assert (no_properties.messages[0].line, no_properties.messages[0].column) == (26, 49)


@pytest.mark.parametrize(
    ("name", "properties", "success", "executed"),
    [
        (
            "trl/activation-success-verdict--01-activation",
            'checkExecuted="true" activationExecuted="true" generationExecuted="true"',
            True,
            True,
        ),
        (
            "trl/activation-nothing-to-activate--01-activation",
            'checkExecuted="false" activationExecuted="false" generationExecuted="true"',
            True,
            False,
        ),
    ],
)
def test_inferred_activation_bodies_match_recorded_lengths(
    name: str, properties: str, success: bool, executed: bool
) -> None:
    """The trial corpus kept only the lengths of these two answers; the protocol doc infers
    the bodies from them. Check the inference, then the verdicts."""
    body = (
        '<?xml version="1.0" encoding="utf-8"?><chkl:messages '
        'xmlns:chkl="http://www.sap.com/abapxml/checklist">'
        f"<chkl:properties {properties}/></chkl:messages>"
    ).encode()
    assert str(len(body)) == capture(name).response_headers["content-length"]
    result = _xml.parse_activation(body)
    assert (result.success, result.executed) == (success, executed)


def test_inactive_objects_answer_is_a_failure() -> None:
    body = (
        b'<?xml version="1.0" encoding="utf-8"?><ioc:inactiveObjects '
        b'xmlns:ioc="http://www.sap.com/abapxml/inactiveCtsObjects"><ioc:entry><ioc:object '
        b'ioc:user="U" ioc:deleted="false"><ioc:ref adtcore:uri="/sap/bc/adt/functions/groups/x" '
        b'adtcore:type="FUGR/F" adtcore:name="X" xmlns:adtcore="http://www.sap.com/adt/core"/>'
        b"</ioc:object><ioc:transport/></ioc:entry></ioc:inactiveObjects>"
    )
    result = _xml.parse_activation(body)
    assert not result.success and [r.name for r in result.inactive_objects] == ["X"]


def test_check_run_verdicts() -> None:
    clean = _xml.parse_check_run(capture("trl/check-success-verdict--01-checkrun").body or b"")
    assert clean.reports[0].status == "processed" and clean.messages == ()
    broken = _xml.parse_check_run(capture("trl/refusal-syntax-check--01-checkrun").body or b"")
    (message,) = broken.errors
    assert (message.severity, message.line, message.column) == ("E", 15, 24)
    missing = _xml.parse_check_run(
        capture("trl/refusal-check-nonexistent-object--01-checkrun").body or b""
    )
    assert missing.reports[0].status == "notProcessed"
    assert "does not exist" in missing.reports[0].status_text


@pytest.mark.parametrize("item", SEARCHES, ids=_ids(SEARCHES))
def test_every_quick_search_parses(item: Capture) -> None:
    refs = _xml.parse_object_references(item.body or b"")
    max_results = int(item.query.get("maxResults", "100"))
    assert len(refs) <= max_results
    for ref in refs:
        assert ref.uri.startswith("/sap/bc/adt/") and ref.name and ref.type


def test_quick_search_values() -> None:
    (hit,) = _xml.parse_object_references(capture("a4h/846-i64-quicksearch-fm-untyped").body or b"")
    assert hit.uri == "/sap/bc/adt/functions/groups/buda/fmodules/bup_roles_get_all"
    assert (hit.type, hit.package) == ("FUGR/FF", "S_BUPA_GENERAL")
    assert (
        _xml.parse_object_references(
            capture("a4h/850-i64-quicksearch-generated-fm-missing").body or b""
        )
        == ()
    )


@pytest.mark.parametrize("item", TREES, ids=_ids(TREES))
def test_every_node_structure_parses(item: Capture) -> None:
    tree = _xml.parse_node_structure(item.body or b"")
    assert not tree.is_empty
    for node in tree.nodes:
        assert node.object_type and (node.name or node.tech_name)


def test_node_structure_values_and_empty_body() -> None:
    root = _xml.parse_node_structure(
        capture("trl/read-package-contents-structure--01-nodestructure").body or b""
    )
    assert [c for c, _ in root.categories][:2] == ["core_data_services", "dictionary"]
    assert ("CLAS/OC", "000025") in [(t.object_type, t.node_id) for t in root.object_types]
    empty = capture("trl/read-empty-package-contents--01-nodestructure")
    assert empty.response_headers["content-length"] == "0"
    assert _xml.parse_node_structure(b"").is_empty
