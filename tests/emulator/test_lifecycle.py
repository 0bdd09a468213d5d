"""Object lifecycle in the emulator: name validation, creation, deletion (protocol:
docs/protocol/object-lifecycle.md), with golden checks against the trial and A4H captures."""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from support.captures import capture

from adt.emulator import Emulator

from .helpers import (
    ADT,
    FMODULE,
    GREETER,
    GROUP,
    REPORT,
    STATEFUL,
    TR_REPORT,
    activate,
    exc_info,
    fetch_token,
    lock,
    parse,
    put_source,
    unlock,
)

CLASS_NS = "http://www.sap.com/adt/oo/classes"


def body(kind: str, name: str, package: str = "$ZDEMO", *, extra: str = "", **attrs: str) -> str:
    """A create document as abap-adt-api writes it (``createBodySimple``)."""
    roots = {
        "CLAS/OC": ("class:abapClass", f'xmlns:class="{CLASS_NS}"'),
        "INTF/OI": ("intf:abapInterface", 'xmlns:intf="http://www.sap.com/adt/oo/interfaces"'),
        "PROG/P": (
            "program:abapProgram",
            'xmlns:program="http://www.sap.com/adt/programs/programs"',
        ),
        "PROG/I": (
            "include:abapInclude",
            'xmlns:include="http://www.sap.com/adt/programs/includes"',
        ),
        "FUGR/F": (
            "group:abapFunctionGroup",
            'xmlns:group="http://www.sap.com/adt/functions/groups"',
        ),
    }
    root, ns = roots[kind]
    more = "".join(f' {k.replace("_", ":")}="{v}"' for k, v in attrs.items())
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><{root} {ns} '
        'xmlns:adtcore="http://www.sap.com/adt/core" adtcore:description="Created by a test" '
        f'adtcore:name="{name}" adtcore:type="{kind}" adtcore:language="EN" '
        f'adtcore:masterLanguage="EN" adtcore:responsible="DEVELOPER"{more}>'
        f'<adtcore:packageRef adtcore:name="{package}"/>{extra}</{root}>'
    )


def module_body(name: str, group: str = "ZDEMO_FG") -> str:
    """abap-adt-api's ``createBodyFunc``: no package, a container reference."""
    return (
        '<?xml version="1.0" encoding="UTF-8"?><fmodule:abapFunctionModule '
        'xmlns:fmodule="http://www.sap.com/adt/functions/fmodules" '
        'xmlns:adtcore="http://www.sap.com/adt/core" adtcore:description="A module" '
        f'adtcore:name="{name}" adtcore:type="FUGR/FF"><adtcore:containerRef '
        f'adtcore:name="{group}" adtcore:type="FUGR/F" '
        f'adtcore:uri="/sap/bc/adt/functions/groups/{group.lower()}"/></fmodule:abapFunctionModule>'
    )


async def create(
    client: httpx.AsyncClient, token: str, path: str, document: str, corr_nr: str | None = None
) -> httpx.Response:
    query = f"?corrNr={corr_nr}" if corr_nr else ""
    return await client.post(
        f"{ADT}/{path}{query}",
        content=document.encode(),
        headers={"x-csrf-token": token, "Content-Type": "application/*", **STATEFUL},
    )


async def validate(
    client: httpx.AsyncClient, token: str, path: str, **query: str
) -> httpx.Response:
    return await client.post(
        f"{ADT}/{path}", params=query, headers={"x-csrf-token": token, "Accept": "*/*"}
    )


# --- name validation ----------------------------------------------------------------


async def test_taken_class_name_is_the_trial_refusal(
    adt_client: httpx.AsyncClient, adt_captures: Path
) -> None:
    recorded = capture("trl/refusal-validation-name-taken-class--01-validation-objectname")
    assert recorded.body is not None
    token = await fetch_token(adt_client)
    response = await validate(
        adt_client,
        token,
        "oo/validation/objectname",
        objname="ZCL_DEMO_GREETER",
        objtype="CLAS/OC",
        packagename="$ZDEMO",
    )
    assert response.status_code == 400 == recorded.status
    assert response.headers["content-type"] == "application/xml"
    expected = recorded.body.replace(b"ZBP_MCP_SHR_I_ROOT", b"ZCL_DEMO_GREETER")
    assert response.content == expected


async def test_free_names_answer_check_result_x(
    adt_client: httpx.AsyncClient, adt_captures: Path
) -> None:
    free = capture("trl/validation-name-free-table--01-tables-validation").body
    token = await fetch_token(adt_client)
    oo = await validate(
        adt_client, token, "oo/validation/objectname", objname="ZCL_NEW", objtype="CLAS/OC"
    )
    assert oo.status_code == 200 and oo.content == free
    assert oo.headers["content-type"].endswith("dataname=com.sap.adt.oo.clifname.check")
    for path in ("programs/validation", "includes/validation"):
        answer = await validate(adt_client, token, path, objname="ZNEW_REPORT", objtype="PROG/P")
        assert (answer.status_code, answer.content) == (200, free)
        assert answer.headers["content-type"].endswith("dataname=com.sap.adt.wb.objname.check")


async def test_interface_and_program_names_are_refused_in_their_name_space(
    adt_client: httpx.AsyncClient,
) -> None:
    token = await fetch_token(adt_client)
    clash = await validate(
        adt_client,
        token,
        "oo/validation/objectname",
        objname="zif_demo_greeting",
        objtype="CLAS/OC",
    )
    info = exc_info(clash)
    assert (info["type"], info["T100KEY-V1"]) == ("InvalidClifName", "Interface")
    assert info["message"] == "Interface ZIF_DEMO_GREETING already exists"
    program = await validate(adt_client, token, "includes/validation", objname="ZDEMO_REPORT")
    info = exc_info(program)
    assert (info["type"], info["T100KEY-ID"], info["T100KEY-NO"]) == (
        "InvalidObjName",
        "SWB_TOOL",
        "016",
    )
    assert info["message"] == "Program with the name ZDEMO_REPORT already exists"


async def test_function_validation_always_answers_200_with_a_severity(
    adt_client: httpx.AsyncClient, adt_captures: Path
) -> None:
    recorded = capture("trl/refusal-validation-name-taken-functiongroup--01-functions-validation")
    assert recorded.body is not None
    token = await fetch_token(adt_client)
    taken = await validate(
        adt_client,
        token,
        "functions/validation",
        objname="ZDEMO_FG",
        objtype="FUGR/F",
        packagename="$ZDEMO",
    )
    assert taken.status_code == 200
    assert taken.headers["content-type"] == recorded.content_type
    assert taken.content == recorded.body.replace(b"ZMCP_SHR_FGRP", b"ZDEMO_FG")
    module = await validate(
        adt_client,
        token,
        "functions/validation",
        objname="Z_DEMO_ADD",
        objtype="FUGR/FF",
        fugrname="ZDEMO_FG",
    )
    assert (
        parse(module.content).findtext(".//SHORT_TEXT")
        == "Function module Z_DEMO_ADD already exists"
    )
    free = await validate(
        adt_client,
        token,
        "functions/validation",
        objname="Z_NEW_FM",
        objtype="FUGR/FF",
        fugrname="ZDEMO_FG",
    )
    assert free.content == capture("trl/validation-name-free-ddl--01-ddl-validation").body
    no_group = await validate(
        adt_client,
        token,
        "functions/validation",
        objname="Z_NEW_FM",
        objtype="FUGR/FF",
        fugrname="ZNOPE",
    )
    assert parse(no_group.content).findtext(".//SEVERITY") == "ERROR"


async def test_validation_needs_a_name_and_a_post(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client)
    missing = await validate(adt_client, token, "programs/validation", objtype="PROG/P")
    assert exc_info(missing)["type"] == "ExceptionParameterNotFound"
    get = await adt_client.get(f"{ADT}/programs/validation?objname=ZX")
    assert get.status_code == 405


# --- creation -----------------------------------------------------------------------


CREATES = [
    ("oo/classes", "CLAS/OC", "ZCL_NEW_THING", "CLASS zcl_new_thing DEFINITION"),
    ("oo/interfaces", "INTF/OI", "ZIF_NEW_THING", "INTERFACE zif_new_thing\n  PUBLIC ."),
    ("programs/programs", "PROG/P", "ZNEW_REPORT", "REPORT znew_report."),
    ("programs/includes", "PROG/I", "ZNEW_INCLUDE", "*& Include znew_include"),
    ("functions/groups", "FUGR/F", "ZNEW_FG", "INCLUDE lznew_fgtop."),
]


@pytest.mark.parametrize(("path", "kind", "name", "source_part"), CREATES)
async def test_created_objects_start_inactive_and_work_with_everything(
    emulator: Emulator,
    adt_client: httpx.AsyncClient,
    path: str,
    kind: str,
    name: str,
    source_part: str,
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    created = await create(adt_client, token, path, body(kind, name))
    assert (created.status_code, created.content) == (200, b"")
    assert "content-type" not in created.headers and created.headers["content-length"] == "0"
    uri = f"{ADT}/{path}/{name.lower()}"
    metadata = await adt_client.get(uri, headers={"Accept": "application/*"})
    root = parse(metadata.content)
    assert root.get("{http://www.sap.com/adt/core}version") == "inactive"
    assert root.get("{http://www.sap.com/adt/core}description") == "Created by a test"
    assert source_part in (emulator.source(f"{uri}/source/main") or "")
    assert (await adt_client.get(f"{uri}/source/main?version=active")).status_code == 404
    search = await adt_client.get(
        f"{ADT}/repository/informationsystem/search?operation=quickSearch&query={name}"
    )
    assert f'adtcore:name="{name}"' in search.text
    handle = await lock(adt_client, token, uri)
    assert (await unlock(adt_client, token, uri, handle)).status_code == 200
    activated = await activate(adt_client, token, uri)
    assert activated.status_code == 200, activated.text
    assert emulator.source(f"{uri}/source/main", "active") is not None


async def test_class_skeleton_is_what_sap_generates(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    include = (
        '<class:include adtcore:name="CLAS/OC" adtcore:type="CLAS/OC" '
        'class:includeType="testclasses"/>'
    )
    document = body("CLAS/OC", "ZCL_OPEN", extra=include, class_final="false")
    assert (await create(adt_client, token, "oo/classes", document)).status_code == 200
    uri = f"{ADT}/oo/classes/zcl_open"
    assert emulator.source(f"{uri}/source/main") == (
        "CLASS zcl_open DEFINITION\n  PUBLIC\n  CREATE PUBLIC .\n\n  PUBLIC SECTION.\n"
        "  PROTECTED SECTION.\n  PRIVATE SECTION.\nENDCLASS.\n\n\n\n"
        "CLASS zcl_open IMPLEMENTATION.\nENDCLASS."
    )
    parts = [
        e.get(f"{{{CLASS_NS}}}includeType")
        for e in parse((await adt_client.get(uri)).content).iter(f"{{{CLASS_NS}}}include")
    ]
    assert parts == ["definitions", "implementations", "macros", "testclasses", "main"]
    assert "unit test classes" in (emulator.source(f"{uri}/includes/testclasses") or "")


async def test_include_with_main_program_and_function_module_in_group(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    context = '<include:contextRef adtcore:name="ZDEMO_REPORT"/>'
    document = body("PROG/I", "ZDEMO_REPORT_TOP", extra=context)
    assert (await create(adt_client, token, "programs/includes", document)).status_code == 200
    metadata = await adt_client.get(f"{ADT}/programs/includes/zdemo_report_top")
    ref = parse(metadata.content).find("{http://www.sap.com/adt/programs/includes}contextRef")
    assert ref is not None and ref.get("{http://www.sap.com/adt/core}uri") == REPORT
    created = await create(
        adt_client, token, "functions/groups/zdemo_fg/fmodules", module_body("Z_NEW_FM")
    )
    assert created.status_code == 200, created.text
    uri = f"{GROUP}/fmodules/z_new_fm"
    assert (emulator.source(f"{uri}/source/main") or "").startswith("FUNCTION z_new_fm.")
    meta = parse((await adt_client.get(uri)).content)
    container = meta.find("{http://www.sap.com/adt/core}containerRef")
    assert container is not None
    assert container.get("{http://www.sap.com/adt/core}packageName") == "$ZDEMO"


async def test_function_group_comes_with_its_top_include(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    assert (
        await create(adt_client, token, "functions/groups", body("FUGR/F", "ZNEW_FG"))
    ).status_code == 200
    top = emulator.source(f"{ADT}/functions/groups/znew_fg/includes/lznew_fgtop/source/main")
    assert top is not None and top.startswith("FUNCTION-POOL znew_fg.")


async def test_create_refusals(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client, stateful=True)
    program = await create(adt_client, token, "programs/programs", body("PROG/P", "ZDEMO_INCLUDE"))
    assert program.status_code == 500
    info = exc_info(program)
    assert info["type"] == "ExceptionResourceCreationFailure"
    assert info["message"] == "A program or include already exists with the name ZDEMO_INCLUDE."
    klass = await create(adt_client, token, "oo/classes", body("CLAS/OC", "ZCL_DEMO_GREETER"))
    assert (klass.status_code, exc_info(klass)["type"]) == (400, "ExceptionResourceAlreadyExists")
    package = await create(adt_client, token, "programs/programs", body("PROG/P", "ZX", "ZNOPE"))
    assert package.status_code == 404
    wrong = await create(adt_client, token, "oo/classes", body("PROG/P", "ZX"))
    assert exc_info(wrong)["type"] == "ExceptionResourceBadRequest"
    no_group = await create(
        adt_client, token, "functions/groups/znope/fmodules", module_body("Z_X", "ZNOPE")
    )
    assert no_group.status_code == 404


async def test_local_package_ignores_corrnr_like_a4h(
    emulator: Emulator, adt_client: httpx.AsyncClient, adt_captures: Path
) -> None:
    recorded = capture("a4h/cts/create-object-with-corrnr-tmp-ignored")
    before = emulator.transport_requests()
    token = await fetch_token(adt_client, stateful=True)
    number = emulator.create_transport_request("Some request")
    created = await create(
        adt_client, token, "programs/programs", body("PROG/P", "ZMCP_D1_C01", "$TMP"), number
    )
    assert created.status_code == recorded.status == 200
    assert created.content == recorded.body == b""
    assert [r.objects for r in emulator.transport_requests()] == [r.objects for r in before] + [()]
    locked = await adt_client.post(
        f"{ADT}/programs/programs/zmcp_d1_c01?_action=LOCK&accessMode=MODIFY",
        headers={"x-csrf-token": token, **STATEFUL},
    )
    data = parse(locked.content).find(".//DATA")
    assert data is not None
    assert (data.findtext("CORRNR"), data.findtext("IS_LOCAL")) == ("", "X")


# --- deletion -----------------------------------------------------------------------


async def test_delete_needs_the_lock_of_the_calling_session(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    headers = {"x-csrf-token": token, **STATEFUL}
    missing = await adt_client.delete(GREETER, headers=headers)
    assert exc_info(missing)["type"] == "ExceptionParameterNotFound"
    wrong = await adt_client.delete(f"{GREETER}?lockHandle=BOGUS", headers=headers)
    assert wrong.status_code == 423
    handle = await lock(adt_client, token, GREETER)
    deleted = await adt_client.delete(f"{GREETER}?lockHandle={handle}", headers=headers)
    assert (deleted.status_code, deleted.content) == (200, b"")
    assert "content-type" not in deleted.headers
    assert GREETER not in emulator.objects() and emulator.locks() == []
    assert (await adt_client.get(GREETER)).status_code == 404


async def test_deleting_a_group_takes_its_modules_and_includes(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, GROUP)
    deleted = await adt_client.delete(
        f"{GROUP}?lockHandle={handle}", headers={"x-csrf-token": token, **STATEFUL}
    )
    assert deleted.status_code == 200
    assert not [uri for uri in emulator.objects() if uri.startswith(GROUP)]
    assert FMODULE not in emulator.objects()


async def test_delete_in_a_transportable_package_records_the_deletion(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    [seeded] = emulator.transport_requests()
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, TR_REPORT)
    wrong = await adt_client.delete(
        f"{TR_REPORT}?lockHandle={handle}&corrNr={emulator.create_transport_request('Other')}",
        headers={"x-csrf-token": token, **STATEFUL},
    )
    assert wrong.status_code == 500
    assert exc_info(wrong)["T100KEY-ID"] == "CTS_WBO_API"
    deleted = await adt_client.delete(
        f"{TR_REPORT}?lockHandle={handle}&corrNr={seeded.number}",
        headers={"x-csrf-token": token, **STATEFUL},
    )
    assert deleted.status_code == 200
    assert TR_REPORT not in emulator.objects()
    assert [o.name for o in emulator.transport_requests()[0].objects] == ["ZDEMO_TR_REPORT"]


async def test_write_after_create_and_locks_end_empty(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    assert (
        await create(adt_client, token, "programs/programs", body("PROG/P", "ZNEW_REPORT"))
    ).status_code == 200
    uri = f"{ADT}/programs/programs/znew_report"
    handle = await lock(adt_client, token, uri)
    written = await put_source(
        adt_client, token, f"{uri}/source/main", handle, "REPORT znew_report.\nWRITE 'x'."
    )
    assert written.status_code == 200
    await unlock(adt_client, token, uri, handle)
    assert emulator.locks() == []
    assert emulator.source(f"{uri}/source/main") == "REPORT znew_report.\nWRITE 'x'."


# --- the deletion service -----------------------------------------------------------

DEL = "{http://www.sap.com/adt/deletion}"


def deletion_body(root: str, *objects: tuple[str, str]) -> str:
    inner = "".join(
        f'<del:object adtcore:uri="{uri}"><del:transportNumber>{number}</del:transportNumber>'
        "</del:object>"
        for uri, number in objects
    )
    return (
        f'<?xml version="1.0" encoding="UTF-8"?><del:{root} '
        'xmlns:del="http://www.sap.com/adt/deletion" '
        f'xmlns:adtcore="http://www.sap.com/adt/core">{inner}</del:{root}>'
    )


async def test_deletion_check_and_delete(emulator: Emulator, adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client, stateful=True)
    headers = {
        "x-csrf-token": token,
        "Content-Type": "application/vnd.sap.adt.deletion.request.v1+xml",
        **STATEFUL,  # a stateless request would end the context and its lock
    }
    handle = await lock(adt_client, token, REPORT)
    check = await adt_client.post(
        f"{ADT}/deletion/check",
        content=deletion_body("checkRequest", (REPORT, ""), (TR_REPORT, "")),
        headers=headers,
    )
    assert check.status_code == 200
    assert check.headers["content-type"] == (
        "application/vnd.sap.adt.deletion.check.response.v1+xml; charset=utf-8"
    )
    local, transportable = parse(check.content).iter(f"{DEL}object")
    assert local.get(f"{DEL}isDeletable") == "false"
    assert local.findtext(f"{DEL}lockUser") == "DEVELOPER"
    assert local.findtext(f"{DEL}message/{DEL}text") == "You are already editing ZDEMO_REPORT"
    assert transportable.get(f"{DEL}isDeletable") == "true"
    assert transportable.findtext(f"{DEL}lockingTransport/{DEL}recording") == "true"
    assert (
        transportable.findtext(f"{DEL}lockingTransport/{DEL}lockingTransport/{DEL}trkorr")
        == "A4HK900101"
    )
    refused = await adt_client.post(
        f"{ADT}/deletion/delete",
        content=deletion_body("deletionRequest", (REPORT, "")),
        headers=headers,
    )
    [item] = parse(refused.content).iter(f"{DEL}object")
    assert (refused.status_code, item.get(f"{DEL}isDeleted")) == (200, "false")
    await unlock(adt_client, token, REPORT, handle)
    deleted = await adt_client.post(
        f"{ADT}/deletion/delete",
        content=deletion_body(
            "deletionRequest", (REPORT, ""), (TR_REPORT, "A4HK900101"), (f"{ADT}/nope/x", "")
        ),
        headers=headers,
    )
    verdicts = [e.get(f"{DEL}isDeleted") for e in parse(deleted.content).iter(f"{DEL}object")]
    assert verdicts == ["true", "true", "false"]
    assert REPORT not in emulator.objects() and TR_REPORT not in emulator.objects()
