"""client.atc on the in-process emulator: customizing, a full run by variant, findings with
positions and documentation, a fix that clears a finding, and the parsers on SAP's shapes."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.emulated import USERS, make_client

from adt._xml import XmlFormatError
from adt.areas.atc import (
    AtcResult,
    parse_customizing,
    parse_run_info,
    parse_worklist,
    run_request,
)
from adt.areas.unit import SourcePosition
from adt.emulator import Emulator, samples_dir
from adt.emulator.emulator import quality_samples_dir
from adt.errors import MethodNotAllowedError, NotFoundError

LEGACY = "/sap/bc/adt/programs/programs/zdemo_qa_legacy"
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"


@pytest.fixture
def quality() -> Emulator:
    return Emulator(seed_dirs=[samples_dir(), quality_samples_dir()], users=USERS)


async def test_customizing(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        customizing = await client.atc.customizing()
    assert customizing.system_check_variant == "DEFAULT"
    assert customizing.value("ciCheckFlavour") == "false"
    assert customizing.value("nothing") is None
    assert [(r.id, r.justification_mandatory) for r in customizing.exemption_reasons] == [
        ("FPOS", True),
        ("OTHR", True),
    ]


async def test_a_run_with_the_system_variant_reports_typed_findings(quality: Emulator) -> None:
    async with make_client(quality) as client:
        result = await client.atc.run(package="$ZDEMO_QA")
        page = await client.atc.documentation(result.findings[0])
        source = await client.read_source(f"{LEGACY}/source/main", version="active")
    assert isinstance(result, AtcResult)
    assert result.variant == "DEFAULT"
    assert result.run.worklist_id == result.worklist.id
    assert result.run.finding_counts == (0, 1, 5)
    assert not result.run.nothing_to_check
    assert result.run.timestamp is not None and result.run.timestamp == result.worklist.timestamp
    [obj] = result.worklist.objects
    assert (obj.name, obj.type, obj.package, obj.object_type_id) == (
        "ZDEMO_QA_LEGACY",
        "PROG",
        "$ZDEMO_QA",
        "PROG/P",
    )
    assert [f.priority for f in result.findings] == [2, 3, 3, 3, 3, 3]
    first = result.findings[0]
    assert (first.check_title, first.message_id, first.object_name) == (
        "Extended Program Check (SLIN)",
        "0800",
        "ZDEMO_QA_LEGACY",
    )
    assert first.position is not None
    assert first.position.uri == f"{LEGACY}/source/main"
    assert source.text.split("\n")[first.position.line - 1].strip() == "BREAK-POINT."
    assert first.quickfix_info.startswith("atc:") and first.documentation_url
    assert "BREAK-POINT" in page
    assert {f.check_title for f in result.findings} == {
        "Extended Program Check (SLIN)",
        "Obsolete Statements",
        "Pseudo Comments",
    }


async def test_fixing_the_source_clears_the_finding(quality: Emulator) -> None:
    async with make_client(quality) as client:
        before = await client.atc.run(LEGACY, variant="DEFAULT")
        source = await client.read_source(f"{LEGACY}/source/main")
        fixed = source.text.replace("  BREAK-POINT.\n", "")
        async with client.locked(LEGACY) as lock:
            await client.write_source(f"{LEGACY}/source/main", fixed, lock_handle=lock.handle)
        assert (await client.activate(LEGACY)).success
        after = await client.atc.run(LEGACY, variant="DEFAULT")
    assert "0800" in [f.message_id for f in before.findings]
    assert "0800" not in [f.message_id for f in after.findings]
    assert after.run.finding_counts == (0, 0, 5)


async def test_the_steps_one_by_one(quality: Emulator) -> None:
    async with make_client(quality) as client:
        worklist_id = await client.atc.create_worklist("OBSOLETE_STATEMENTS")
        empty = await client.atc.worklist(worklist_id)
        info = await client.atc.run_worklist(worklist_id, [LEGACY, REPORT], max_verdicts=3)
        worklist = await client.atc.worklist(worklist_id)
        nothing = await client.atc.run_worklist(worklist_id, ["/sap/bc/adt/oo/classes/zcl_nowhere"])
    assert empty.timestamp is None and empty.objects == () and empty.object_set_complete
    assert [s.kind for s in empty.object_sets] == ["ALL", "LAST_RUN"]
    assert info.finding_counts == (0, 0, 3)
    assert [f.check_title for f in worklist.findings] == ["Obsolete Statements"] * 3
    assert nothing.nothing_to_check and nothing.finding_counts is None


async def test_refusals(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        with pytest.raises(NotFoundError):
            await client.atc.create_worklist("NO_SUCH_VARIANT")
        with pytest.raises(NotFoundError):
            await client.atc.worklist("0123456789ABCDEF0123456789ABCDEF")
        with pytest.raises(NotFoundError):
            await client.atc.run_worklist("0123456789ABCDEF0123456789ABCDEF", [REPORT])
        worklist_id = await client.atc.create_worklist("DEFAULT")
        with pytest.raises(MethodNotAllowedError):
            await client.send("DELETE", f"/sap/bc/adt/atc/worklists/{worklist_id}")
        with pytest.raises(ValueError, match="variant"):
            await client.atc.create_worklist(" ")
        with pytest.raises(ValueError, match="at least one"):
            await client.atc.run_worklist("X", [])


def test_the_run_request() -> None:
    body = run_request(["/sap/bc/adt/packages/%24zdemo"], 7).decode()
    assert body.startswith(
        '<?xml version="1.0" encoding="UTF-8"?><atc:run maximumVerdicts="7" '
        'xmlns:atc="http://www.sap.com/adt/atc"><objectSets xmlns:adtcore='
    )
    assert '<adtcore:objectReference adtcore:uri="/sap/bc/adt/packages/%24zdemo"/>' in body


# Documents written for these tests in the shapes SAP sends (A4H 887, 890, 893): other
# prefixes than the emulator's, to prove the parsers match by namespace.
RUN_WITH_TOOL_FAILURE = b"""<?xml version="1.0" encoding="utf-8"?>
<w:worklistRun xmlns:w="http://www.sap.com/adt/atc/worklist">
  <w:worklistId>466F46C806601FE1ABD795A0C0B5C069</w:worklistId>
  <w:worklistTimestamp>2026-09-12T15:48:31Z</w:worklistTimestamp>
  <w:infos>
    <i:info xmlns:i="http://www.sap.com/adt/atc/info"><i:type>TOOL_FAILURE</i:type>
      <i:description>Check not executable, due to missing prerequisites</i:description></i:info>
    <i:info xmlns:i="http://www.sap.com/adt/atc/info"><i:type>FINDING_STATS</i:type>
      <i:description>32,0,47</i:description></i:info>
  </w:infos>
</w:worklistRun>"""

WORKLIST_NEWER = b"""<?xml version="1.0" encoding="utf-8"?>
<wl:worklist wl:id="466F46C806601FE1ABD8175DD6788069"
    wl:usedObjectSet="99999999999999999999999999999999" wl:objectSetIsComplete="true"
    xmlns:wl="http://www.sap.com/adt/atc/worklist">
  <wl:objectSets><wl:objectSet wl:name="0" wl:title="All Objects" wl:kind="ALL"/></wl:objectSets>
  <wl:objects>
    <o:object c:uri="/sap/bc/adt/atc/objects/R3TR/PROG/Z_TMP_DEL" c:type="PROG" c:name="Z_TMP_DEL"
        c:packageName="$TMP" o:author="DEVELOPER"
        xmlns:o="http://www.sap.com/adt/atc/object" xmlns:c="http://www.sap.com/adt/core">
      <o:findings>
        <f:finding c:uri="/sap/bc/adt/atc/findings/itemid/AB/index/11"
            f:location="/sap/bc/adt/programs/programs/z_tmp_del" f:processor="DEVELOPER"
            f:lastChangedBy="" f:priority="1" f:checkId="76FE" f:checkTitle="Allowed Object Types"
            f:messageId="TYPEINVALD" f:messageTitle="Objects of type PROG are not allowed "
            f:exemptionApproval="-" f:exemptionKind="" f:checksum="1"
            f:quickfixInfo="atc:AB,11," xmlns:f="http://www.sap.com/adt/atc/finding">
          <a:link href="/sap/bc/adt/documentation/atc/documents/itemid/AB/index/11"
              rel="http://www.sap.com/adt/relations/documentation" type="text/html"
              xmlns:a="http://www.w3.org/2005/Atom"/>
          <f:quickfixes f:manual="false" f:automatic="false" f:pseudo="false"/>
        </f:finding>
        <f:finding c:uri="/sap/bc/adt/atc/findings/itemid/CD/index/11"
            f:location="/sap/bc/adt/programs/programs/z_tmp_del/source/main#start=7,0"
            f:priority="3" f:checkId="51B9" f:checkTitle="ABAP Language Version"
            f:messageId="2700" f:messageTitle="Syntax error" f:exemptionApproval="-"
            f:exemptionKind="" f:checksum="-1337857668" xmlns:f="http://www.sap.com/adt/atc/finding"/>
      </o:findings>
    </o:object>
  </wl:objects>
  <wl:infos/>
</wl:worklist>"""


def test_the_parsers_match_by_namespace() -> None:
    run = parse_run_info(RUN_WITH_TOOL_FAILURE)
    assert run.worklist_id == "466F46C806601FE1ABD795A0C0B5C069"
    assert run.timestamp is not None and run.timestamp.iso == "2026-09-12T15:48:31Z"
    assert [i.type for i in run.infos] == ["TOOL_FAILURE", "FINDING_STATS"]
    assert run.finding_counts == (32, 0, 47)
    worklist = parse_worklist(WORKLIST_NEWER)
    assert worklist.timestamp is None and worklist.object_set_complete
    [obj] = worklist.objects
    assert (obj.object_type_id, obj.author) == ("", "DEVELOPER")
    object_level, line_level = obj.findings
    assert object_level.position is None  # a finding on the whole object
    assert object_level.message_title == "Objects of type PROG are not allowed"
    assert object_level.quickfix_info == "atc:AB,11,"
    assert object_level.documentation_url.endswith("/itemid/AB/index/11")
    assert line_level.position == SourcePosition(
        "/sap/bc/adt/programs/programs/z_tmp_del/source/main", 7, 0
    )
    assert line_level.documentation_url == "" and line_level.checksum == "-1337857668"
    assert [f.priority for f in worklist.findings] == [1, 3]
    customizing = parse_customizing(
        b'<c:customizing xmlns:c="http://www.sap.com/adt/atc"><properties>'
        b'<property name="systemCheckVariant" value="ZABAP_CLOUD_DEVELOPMENT"/></properties>'
        b"</c:customizing>"
    )
    assert customizing.system_check_variant == "ZABAP_CLOUD_DEVELOPMENT"
    assert customizing.exemption_reasons == ()
    with pytest.raises(XmlFormatError):
        parse_worklist(RUN_WITH_TOOL_FAILURE)


def _capture(captures: Path, name: str) -> bytes:
    path = captures / "a4h" / name
    if not path.is_file():
        pytest.skip(f"capture {name} is not in {captures}")
    return path.read_bytes()


@pytest.mark.captures
def test_the_parsers_read_the_a4h_captures(adt_captures: Path) -> None:
    run = parse_run_info(_capture(adt_captures, "438-atc2-run.xml"))
    assert run.finding_counts == (0, 1, 0)
    worklist = parse_worklist(_capture(adt_captures, "439-atc2-worklist-read.xml"))
    [finding] = worklist.findings
    assert finding.position == SourcePosition(
        "/sap/bc/adt/programs/programs/zmcp_atc_probe2/source/main", 5, 0
    )
    assert (finding.priority, finding.message_id) == (2, "0800")
    assert finding.quickfix_info == "atc:1A2263E0A4E31FE1A3B030D34A99D650,3"
    customizing = parse_customizing(_capture(adt_captures, "893-i78-atc-customizing.xml"))
    assert customizing.system_check_variant == "ZABAP_CLOUD_DEVELOPMENT"
    assert customizing.value("ciCheckFlavour") == "true"
