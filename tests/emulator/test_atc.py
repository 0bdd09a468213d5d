"""ATC in the emulator: customizing, worklists, runs (abap-adt-api's exact requests), findings
with positions and documentation links, variants, limits, refusals, what the checks see."""

from __future__ import annotations

import re
from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest
from lxml import etree
from support.emulated import USERS

from adt.emulator import Emulator, samples_dir
from adt.emulator.atc_checks import OBSOLETE, PSEUDO_COMMENTS, SLIN, VARIANTS, findings
from adt.emulator.emulator import quality_samples_dir

from .helpers import (
    ADT,
    EXC_PREFIX,
    REPORT,
    activate,
    exc_info,
    fetch_token,
    lock,
    put_source,
    unlock,
    write_abapgit,
)

LEGACY = f"{ADT}/programs/programs/zdemo_qa_legacy"
QA_PACKAGE = f"{ADT}/packages/%24zdemo_qa"
WORKLIST_NS = "{http://www.sap.com/adt/atc/worklist}"
OBJECT_NS = "{http://www.sap.com/adt/atc/object}"
FINDING_NS = "{http://www.sap.com/adt/atc/finding}"
INFO_NS = "{http://www.sap.com/adt/atc/info}"
ADTCORE = "{http://www.sap.com/adt/core}"
ATOM = "{http://www.w3.org/2005/Atom}"
WORKLIST_ACCEPT = {"Accept": "application/atc.worklist.v1+xml"}
DELETE_405 = (  # A4H 891, byte for byte (525 bytes)
    '<?xml version="1.0" encoding="utf-8"?><exc:exception xmlns:exc="http://www.sap.com/abapxml/'
    'types/communicationframework"><namespace id="com.sap.adt"/><type id="ExceptionMethodNot'
    'Supported"/><message lang="EN">Resource controller does not support method DELETE</message>'
    '<localizedMessage lang="EN">Resource controller does not support method DELETE</localized'
    'Message><properties><entry key="T100KEY-ID">SADT_RESOURCE</entry><entry key="T100KEY-NO">'
    '010</entry><entry key="T100KEY-V1">DELETE</entry></properties></exc:exception>'
)


def run_body(*uris: str, maximum: int = 100) -> str:
    """abap-adt-api's ``createAtcRun`` body (tabs and all), with several references."""
    refs = "\n".join(f'\t\t\t\t<adtcore:objectReference adtcore:uri="{u}"/>' for u in uris)
    return f"""<?xml version="1.0" encoding="UTF-8"?>
<atc:run maximumVerdicts="{maximum}" xmlns:atc="http://www.sap.com/adt/atc">
\t<objectSets xmlns:adtcore="http://www.sap.com/adt/core">
\t\t<objectSet kind="inclusive">
\t\t\t<adtcore:objectReferences>
{refs}
\t\t\t</adtcore:objectReferences>
\t\t</objectSet>
\t</objectSets>
</atc:run>"""


@pytest.fixture
def quality() -> Emulator:
    return Emulator(seed_dirs=[samples_dir(), quality_samples_dir()], users=USERS)


@pytest.fixture
async def qa_client(quality: Emulator) -> AsyncIterator[httpx.AsyncClient]:
    transport = httpx.ASGITransport(app=quality.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://emulator", auth=("DEVELOPER", "developer")
    ) as client:
        yield client


async def _worklist(client: httpx.AsyncClient, variant: str = "DEFAULT") -> str:
    token = await fetch_token(client)
    response = await client.post(
        f"{ADT}/atc/worklists?checkVariant={variant}",
        headers={"x-csrf-token": token, "Accept": "text/plain"},
    )
    assert response.status_code == 200, response.text
    return response.text


async def _run(client: httpx.AsyncClient, worklist: str, body: str) -> httpx.Response:
    token = await fetch_token(client)
    return await client.post(
        f"{ADT}/atc/runs?worklistId={worklist}",
        content=body,
        headers={
            "x-csrf-token": token,
            "Accept": "application/xml",
            "Content-Type": "application/xml",
        },
    )


async def _findings(client: httpx.AsyncClient, worklist: str) -> list[etree._Element]:
    response = await client.get(
        f"{ADT}/atc/worklists/{worklist}?includeExemptedFindings=false", headers=WORKLIST_ACCEPT
    )
    assert response.status_code == 200
    return list(etree.fromstring(response.content).iter(f"{FINDING_NS}finding"))


def _infos(response: httpx.Response) -> list[tuple[str, str]]:
    root = etree.fromstring(response.content)
    return [
        (i.findtext(f"{INFO_NS}type") or "", i.findtext(f"{INFO_NS}description") or "")
        for i in root.iter(f"{INFO_NS}info")
    ]


async def test_customizing(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(
        f"{ADT}/atc/customizing",
        headers={"Accept": "application/xml, application/vnd.sap.atc.customizing-v1+xml"},
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == (
        "application/vnd.sap.atc.customizing-v1+xml; charset=utf-8"
    )
    assert response.text.startswith(
        '<?xml version="1.0" encoding="utf-8"?><atc:customizing xmlns:atc="http://www.sap.com/adt/'
        'atc"><properties><property name="ciCheckFlavour" value="false"/>'
    )
    root = etree.fromstring(response.content)
    properties = {p.get("name"): p.get("value") for p in root.iter("property")}
    assert properties["systemCheckVariant"] == "DEFAULT"
    assert not any(re.fullmatch(r"-?\d+(\.\d+)?", v or "") for v in properties.values())
    reasons = [(r.get("id"), r.get("justificationMandatory")) for r in root.iter("reason")]
    assert reasons == [("FPOS", "true"), ("OTHR", "true")]
    plain = await adt_client.get(f"{ADT}/atc/customizing", headers={"Accept": "application/xml"})
    assert plain.headers["content-type"] == "application/xml; charset=utf-8"


async def test_a_worklist_is_created_for_a_variant(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client)
    response = await adt_client.post(
        f"{ADT}/atc/worklists?checkVariant=default",
        headers={"x-csrf-token": token, "Accept": "text/plain"},
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    assert re.fullmatch(r"[0-9A-F]{32}", response.text)
    assert response.headers["location"] == f"/atc/worklists/worklistId/{response.text}"
    unread = await adt_client.get(f"{ADT}/atc/worklists/{response.text}", headers=WORKLIST_ACCEPT)
    assert unread.headers["content-type"] == "application/atc.worklist.v1+xml; charset=utf-8"
    root = etree.fromstring(unread.content)
    assert root.get(f"{WORKLIST_NS}timestamp") is None  # no run yet (A4H 889)
    assert root.get(f"{WORKLIST_NS}objectSetIsComplete") == "true"
    assert "<atcworklist:objects/><atcworklist:infos/></atcworklist:worklist>" in unread.text
    sets = [s.get(f"{WORKLIST_NS}kind") for s in root.iter(f"{WORKLIST_NS}objectSet")]
    assert sets == ["ALL", "LAST_RUN"]


async def test_worklist_refusals(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client)
    headers = {"x-csrf-token": token, "Accept": "text/plain"}
    unknown = await adt_client.post(f"{ADT}/atc/worklists?checkVariant=NOPE", headers=headers)
    assert unknown.status_code == 404
    assert exc_info(unknown)["message"] == "Check variant NOPE does not exist"
    worklist = await _worklist(adt_client)
    deleted = await adt_client.delete(
        f"{ADT}/atc/worklists/{worklist}", headers={"x-csrf-token": token}
    )
    assert deleted.status_code == 405
    assert deleted.text == DELETE_405 and len(deleted.content) == 525
    gone = await adt_client.get(f"{ADT}/atc/worklists/{'A' * 32}", headers=WORKLIST_ACCEPT)
    assert gone.status_code == 404
    assert gone.text.startswith(EXC_PREFIX)
    no_run = await _run(adt_client, "DEFAULT", run_body(REPORT))  # a variant is not an id
    assert no_run.status_code == 404
    token = await fetch_token(adt_client)
    no_id = await adt_client.post(
        f"{ADT}/atc/runs", content=run_body(REPORT), headers={"x-csrf-token": token}
    )
    assert no_id.status_code == 400


async def test_a_run_reports_the_seeded_findings(
    quality: Emulator, qa_client: httpx.AsyncClient
) -> None:
    worklist = await _worklist(qa_client)
    response = await _run(qa_client, worklist, run_body(LEGACY))
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/xml; charset=utf-8"
    assert response.text.startswith(
        '<?xml version="1.0" encoding="utf-8"?><atcworklist:worklistRun xmlns:atcworklist="http:'
        f'//www.sap.com/adt/atc/worklist"><atcworklist:worklistId>{worklist}</atcworklist:'
        "worklistId><atcworklist:worklistTimestamp>"
    )
    stamp = etree.fromstring(response.content).findtext(f"{WORKLIST_NS}worklistTimestamp")
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", stamp or "")
    assert _infos(response) == [("FINDING_STATS", "0,1,5")]
    read = await qa_client.get(f"{ADT}/atc/worklists/{worklist}", headers=WORKLIST_ACCEPT)
    root = etree.fromstring(read.content)
    assert root.get(f"{WORKLIST_NS}timestamp") == stamp
    [obj] = root.iter(f"{OBJECT_NS}object")
    assert dict(obj.attrib) == {
        f"{ADTCORE}uri": f"{ADT}/atc/objects/R3TR/PROG/ZDEMO_QA_LEGACY",
        f"{ADTCORE}type": "PROG",
        f"{ADTCORE}name": "ZDEMO_QA_LEGACY",
        f"{ADTCORE}packageName": "$ZDEMO_QA",
        f"{OBJECT_NS}author": "DEVELOPER",
        f"{OBJECT_NS}objectTypeId": "PROG/P",
    }
    source = quality.source(f"{LEGACY}/source/main", "active")
    assert source is not None
    lines = source.split("\n")
    seen = []
    for finding in obj.iter(f"{FINDING_NS}finding"):
        location = finding.get(f"{FINDING_NS}location") or ""
        match = re.fullmatch(re.escape(f"{LEGACY}/source/main") + r"#start=(\d+),0", location)
        assert match is not None, location
        seen.append((finding.get(f"{FINDING_NS}messageId"), lines[int(match.group(1)) - 1]))
    assert [(m, line.split()[0]) for m, line in seen] == [
        ("OCCURS", "DATA"),
        ("PSEUDO", "DATA"),
        ("MOVE", "MOVE"),
        ("COMPUTE", "COMPUTE"),
        ("CALL_METH", "CALL"),
        ("0800", "BREAK-POINT."),
    ]
    assert '"#EC NEEDED' in seen[1][1]


async def test_findings_carry_what_abap_adt_api_validates(qa_client: httpx.AsyncClient) -> None:
    worklist = await _worklist(qa_client)
    await _run(qa_client, worklist, run_body(LEGACY))
    read = await qa_client.get(
        f"{ADT}/atc/worklists/{worklist}?timestamp=0&usedObjectSet=99999999999999999999999999999999"
        "&includeExemptedFindings=false",
        headers=WORKLIST_ACCEPT,
    )
    assert '<atcfinding:finding adtcore:uri="/sap/bc/adt/atc/findings/itemid/' in read.text
    breakpoint_finding = next(
        f
        for f in etree.fromstring(read.content).iter(f"{FINDING_NS}finding")
        if f.get(f"{FINDING_NS}messageId") == "0800"
    )
    attrs = {k.replace(FINDING_NS, ""): v for k, v in breakpoint_finding.attrib.items()}
    uri = attrs.pop(f"{ADTCORE}uri")
    match = re.fullmatch(r"/sap/bc/adt/atc/findings/itemid/([0-9A-F]{32})/index/(\d+)", uri)
    assert match is not None
    item, index = match.groups()
    assert attrs["priority"] == "2"
    assert attrs["checkId"] == SLIN.id == "F8607CD40A0F8B30BDF8590205B306E8"  # A4H 439
    assert attrs["checkTitle"] == "Extended Program Check (SLIN)"
    assert attrs["messageTitle"] == "The line contains a BREAK-POINT statement."
    assert (attrs["exemptionApproval"], attrs["exemptionKind"]) == ("", "")
    assert attrs["quickfixInfo"] == f"atc:{item},{index}"
    assert attrs["processor"] == attrs["lastChangedBy"] == "DEVELOPER"
    assert re.fullmatch(r"-?\d+", attrs["checksum"])
    [link] = breakpoint_finding.findall(f"{ATOM}link")
    assert dict(link.attrib) == {
        "href": f"/sap/bc/adt/documentation/atc/documents/itemid/{item}/index/{index}",
        "rel": "http://www.sap.com/adt/relations/documentation",
        "type": "text/html",
    }
    page = await qa_client.get(link.get("href") or "")
    assert page.status_code == 200
    assert page.headers["content-type"] == "text/html; charset=utf-8"
    assert "Extended Program Check (SLIN)" in page.text and "BREAK-POINT" in page.text
    missing = await qa_client.get(f"{ADT}/documentation/atc/documents/itemid/0001/index/1")
    assert missing.status_code == 404


async def test_variants_limits_and_packages(qa_client: httpx.AsyncClient) -> None:
    obsolete = await _worklist(qa_client, "obsolete_statements")
    ran = await _run(qa_client, obsolete, run_body(QA_PACKAGE))
    assert _infos(ran) == [("FINDING_STATS", "0,0,4")]
    titles = {f.get(f"{FINDING_NS}checkTitle") for f in await _findings(qa_client, obsolete)}
    assert titles == {OBSOLETE.title}
    limited = await _worklist(qa_client)
    capped = await _run(qa_client, limited, run_body(LEGACY, maximum=2))
    assert _infos(capped) == [("FINDING_STATS", "0,0,2")]
    assert len(await _findings(qa_client, limited)) == 2
    clean = await _worklist(qa_client)
    group = f"{ADT}/functions/groups/zdemo_qa_fg/fmodules/z_demo_qa_double"
    nothing = await _run(qa_client, clean, run_body(group, f"{ADT}/oo/classes/zcl_demo_vat"))
    assert _infos(nothing) == [("FINDING_STATS", "0,0,0")]
    read = await qa_client.get(f"{ADT}/atc/worklists/{clean}", headers=WORKLIST_ACCEPT)
    assert "<atcworklist:objects/>" in read.text
    empty = await _worklist(qa_client)
    unknown = await _run(qa_client, empty, run_body(f"{ADT}/oo/classes/zcl_nowhere"))
    assert unknown.status_code == 200
    assert _infos(unknown) == [
        ("NO_OBJS", "Selection does not contain objects which can be checked by ATC")
    ]


async def test_delete_findings_empties_the_worklist(qa_client: httpx.AsyncClient) -> None:
    worklist = await _worklist(qa_client)
    await _run(qa_client, worklist, run_body(LEGACY))
    assert len(await _findings(qa_client, worklist)) == 6
    token = await fetch_token(qa_client)
    cleared = await qa_client.post(
        f"{ADT}/atc/worklists/{worklist}?action=deleteFindings", headers={"x-csrf-token": token}
    )
    assert (cleared.status_code, cleared.content) == (200, b"")
    assert await _findings(qa_client, worklist) == []


async def test_atc_checks_the_active_version(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, REPORT)
    text = "REPORT zdemo_report.\n\nSTART-OF-SELECTION.\n  BREAK-POINT.\n  WRITE 'x'."
    assert (
        await put_source(adt_client, token, f"{REPORT}/source/main", handle, text)
    ).status_code == 200
    await unlock(adt_client, token, REPORT, handle)
    before = await _worklist(adt_client)
    assert _infos(await _run(adt_client, before, run_body(REPORT))) == [("FINDING_STATS", "0,0,0")]
    assert (await activate(adt_client, token, REPORT)).status_code == 200
    after = await _worklist(adt_client)
    assert _infos(await _run(adt_client, after, run_body(REPORT))) == [("FINDING_STATS", "0,1,0")]
    [finding] = await _findings(adt_client, after)
    assert finding.get(f"{FINDING_NS}location") == f"{REPORT}/source/main#start=4,0"


async def test_locations_in_class_includes_and_function_modules(tmp_path: Path) -> None:
    group_xml = (
        "<abapGit><asx:abap xmlns:asx='http://www.sap.com/abapxml'><asx:values><AREAT>g</AREAT>"
        "<FUNCTIONS><item><FUNCNAME>Z_ATC_FM</FUNCNAME><SHORT_TEXT>f</SHORT_TEXT></item>"
        "</FUNCTIONS></asx:values></asx:abap></abapGit>"
    )
    seed = write_abapgit(
        tmp_path,
        {
            "zcl_atc.clas.abap": "CLASS zcl_atc DEFINITION PUBLIC.\nENDCLASS.\n"
            "CLASS zcl_atc IMPLEMENTATION.\nENDCLASS.\n",
            "zcl_atc.clas.testclasses.abap": "* tests\nCLASS ltc DEFINITION FOR TESTING.\nENDCLASS."
            "\nCLASS ltc IMPLEMENTATION.\n  METHOD x.\n    BREAK-POINT.\n  ENDMETHOD.\nENDCLASS.\n",
            "zatc_fg.fugr.xml": group_xml,
            "zatc_fg.fugr.saplzatc_fg.abap": "FUNCTION-POOL zatc_fg.",
            "zatc_fg.fugr.z_atc_fm.abap": "FUNCTION z_atc_fm.\n  COMPUTE sy-subrc = 0.\n"
            "ENDFUNCTION.",
        },
    )
    emulator = Emulator(seed_dirs=[seed])
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://e", auth=("DEVELOPER", "developer")
    ) as client:
        worklist = await _worklist(client)
        ran = await _run(client, worklist, run_body(f"{ADT}/packages/%24tmp"))
        assert _infos(ran) == [("FINDING_STATS", "0,1,1")]
        found = await _findings(client, worklist)
    locations = sorted(f.get(f"{FINDING_NS}location") or "" for f in found)
    assert locations == [
        f"{ADT}/functions/groups/zatc_fg/fmodules/z_atc_fm/source/main#start=2,0",
        f"{ADT}/oo/classes/zcl_atc/includes/testclasses#start=6,0",
    ]


def test_what_the_checks_flag_and_leave_alone() -> None:
    text = "\n".join(
        [
            "REPORT z.",
            "DATA lt TYPE i OCCURS 10.",
            'DATA lv TYPE i.  "#EC CI_NOORDER',
            "MOVE-CORRESPONDING a TO b.",
            "BREAK-POINT ID zgroup.",
            "BREAK developer.",
            "CALL METHOD (lv_name).",
            "CALL METHOD lo_obj->(lv_name).",
            "CALL METHOD lo_obj->run.",
            "WRITE 'MOVE x TO y'. \"#ec needed",
            "* BREAK-POINT.",
            "MOVE a ?TO b.",
        ]
    )
    found = [(f.line, f.message_id) for f in findings(text, VARIANTS["DEFAULT"])]
    assert found == [(2, "OCCURS"), (6, "0800"), (9, "CALL_METH"), (10, "PSEUDO"), (12, "MOVE")]
    assert [f.line for f in findings(text, [PSEUDO_COMMENTS])] == [10]
    assert findings(text, []) == []


async def test_checksums_stay_put_across_runs(qa_client: httpx.AsyncClient) -> None:
    sums = []
    for _ in range(2):
        worklist = await _worklist(qa_client)
        await _run(qa_client, worklist, run_body(LEGACY))
        sums.append([f.get(f"{FINDING_NS}checksum") for f in await _findings(qa_client, worklist)])
    assert sums[0] == sums[1] and len(set(sums[0])) == 6


# --- against the A4H captures (skipped when a capture is not in ../shared) -----------------

_VOLATILE = [
    (re.compile(rb'atcworklist:id="[0-9A-F]{32}"'), b'atcworklist:id="ID"'),
    (re.compile(rb"<atcworklist:worklistId>[0-9A-F]{32}<"), b"<atcworklist:worklistId>ID<"),
    (re.compile(rb'timestamp="[^"]*"'), b'timestamp="T"'),
    (re.compile(rb"Timestamp>[^<]*<"), b"Timestamp>T<"),
    (re.compile(rb"itemid/[0-9A-F]{32}/index/\d+"), b"itemid/I/index/N"),
    (re.compile(rb"atc:[0-9A-F]{32},\d+"), b"atc:I,N"),
    (re.compile(rb'checksum="-?\d+"'), b'checksum="C"'),
]


def _normalised(body: bytes) -> bytes:
    for pattern, replacement in _VOLATILE:
        body = pattern.sub(replacement, body)
    return body


def _capture(captures: Path, name: str) -> bytes:
    path = captures / "a4h" / name
    if not path.is_file():
        pytest.skip(f"capture {name} is not in {captures}")
    return path.read_bytes()


@pytest.mark.captures
async def test_a_breakpoint_run_is_the_a4h_438_and_439_documents(
    adt_captures: Path, tmp_path: Path
) -> None:
    run_capture = _capture(adt_captures, "438-atc2-run.xml")
    worklist_capture = _capture(adt_captures, "439-atc2-worklist-read.xml")
    probe = "REPORT zmcp_atc_probe2.\n\nSTART-OF-SELECTION.\n  WRITE 'probe'.\n  BREAK-POINT.\n"
    emulator = Emulator(seed_dirs=[write_abapgit(tmp_path, {"zmcp_atc_probe2.prog.abap": probe})])
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://e", auth=("DEVELOPER", "developer")
    ) as client:
        worklist = await _worklist(client)
        ran = await _run(client, worklist, run_body(f"{ADT}/programs/programs/zmcp_atc_probe2"))
        read = await client.get(f"{ADT}/atc/worklists/{worklist}", headers=WORKLIST_ACCEPT)
    # A4H repeated its one FINDING_STATS info; the emulator sends it once
    info = run_capture[
        run_capture.index(b"<atcinfo:info") : run_capture.index(b"</atcworklist:infos>")
    ]
    single = run_capture.replace(info, info[: len(info) // 2])
    assert _normalised(ran.content) == _normalised(single)
    # 439 carries noExemption and no infos element; newer answers (889, 890) have <infos/>
    expected = worklist_capture.replace(b' atcfinding:noExemption="true"', b"")
    assert _normalised(read.content) == _normalised(expected).replace(
        b"</atcworklist:objects></atcworklist:worklist>",
        b"</atcworklist:objects><atcworklist:infos/></atcworklist:worklist>",
    )
