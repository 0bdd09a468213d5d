"""Issue 19's bar on the whole RAP reference scenario: every object of every modern kind of
the flight scenario (both branches: DDLS, DDLX, DCLS, BDEF, SRVD, SRVB, TABL, DTEL, DOMA,
TTYP, MSAG) goes through the language server (a real server process) and through the MCP
bridge (the official client, in memory) on one emulator.

Per object and face: open/read, outline (editor), the syntax check (no false error on the
unchanged object) and, for tables and CDS entities, the data preview. The editor then
makes a trivial token-checked change to every document and saves it; the agent reads each
one back (it sees the change), reverts it with a token-checked patch, and each face
activates all objects in one run. At the end every document is back as seeded, and
nothing is locked. Work is sent a few objects at a time (both servers answer concurrent
requests), activation in one batch per face.

Skips when no checkout is configured (``ADT_FLIGHT_SCENARIO``, see tests/support/flight.py):
CI has none, so it costs the default suite nothing."""

from __future__ import annotations

import asyncio
import re
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.emulated import USERS, make_client
from support.flight import checkouts
from support.flight_probes import COMPLETE, Probe, Resolve, abap_probes, cds_probes
from support.lsp_editor import EditorClient
from support.mcp_calls import call
from support.mcp_memory import bridge

from adt.abap.cds import model as m
from adt.abap.cds.parse import parse
from adt.agent import WritePolicy
from adt.emulator import Emulator
from adt.emulator.model import RepoObject

SCENARIOS = [path for path in checkouts() if path.is_dir()]
pytestmark = [
    pytest.mark.skipif(not SCENARIOS, reason="no flight scenario checkout"),
    pytest.mark.timeout(600),
]

#: ABAP kinds are covered by the ABAP suites; this audit is about the modern kinds.
ABAP = ("CLAS", "INTF", "PROG", "FUGR")
#: Definitions with no rows of their own (ABAP SQL cannot select from them).
NO_ROWS = ("abstract entity", "custom entity", "extension", "structure")
#: How many objects are in flight at once.
WIDTH = 6
#: A label or description the trivial change edits (the system keeps it whatever the kind).
_LABEL = re.compile(r"@EndUserText\.label\s*:\s*'|adtcore:description=\"")


@pytest.fixture(params=SCENARIOS, ids=[p.name for p in SCENARIOS])
def emulator(request: pytest.FixtureRequest) -> Emulator:
    return Emulator(users=USERS, seed_dirs=[request.param])


def _audited(emulator: Emulator) -> list[tuple[str, RepoObject]]:
    return sorted(
        (url, obj) for url, obj in emulator.state.objects.items() if obj.kind.r3tr not in ABAP
    )


def _previewable(emulator: Emulator, url: str, obj: RepoObject) -> bool:
    """Tables and CDS entities that have rows (not extensions, abstract or custom entities)."""
    if obj.kind.code not in ("TABL/DT", "DDLS/DF"):
        return False
    source = emulator.source(f"{url}/source/main") or ""
    definition = parse(source, obj.kind.r3tr).definition
    return definition is not None and definition.kind not in NO_ROWS


def _trivial_change(lines: list[str]) -> tuple[int, str]:
    """Which line the editor changes and to what: a "~" opening the first label or
    description (tables and documents are stored as a model, not as text), else a blank at
    the end of the first line (kept verbatim by the CDS family)."""
    for index, line in enumerate(lines):
        if (found := _LABEL.search(line)) is not None:
            return index, f"{line[: found.end()]}~{line[found.end() :]}"
    return 0, f"{lines[0]} "


async def _stored(emulator: Emulator, objects: list[tuple[str, RepoObject]]) -> dict[str, Any]:
    """What every object holds: a source's newest text as stored; a metadata object's facts
    as the system serves them (the emulator stores a written document as sent, decorations
    and all, and serves the same facts)."""
    found: dict[str, Any] = {}
    async with make_client(emulator) as adt:
        for url, obj in objects:
            if obj.kind.source_based:
                found[url] = emulator.source(f"{url}/source/main")
            else:
                document = await adt.dictionary.read(url)
                found[url] = (document.description, document.fields)
    return found


def _uri(obj: RepoObject, url: str) -> str:
    return f"adt://A4H{url}/source/main" if obj.kind.source_based else f"adt://A4H{url}"


async def _each(
    items: Iterable[tuple[str, RepoObject]],
    work: Callable[[str, RepoObject], Awaitable[None]],
) -> None:
    pending = list(items)
    for start in range(0, len(pending), WIDTH):
        await asyncio.gather(*(work(url, obj) for url, obj in pending[start : start + WIDTH]))


async def _command(client: EditorClient, command: str, *arguments: Any) -> dict[str, Any]:
    result = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments))
    )
    assert isinstance(result, dict), result
    return result


class Audit:
    """One scenario through both faces; every failure is collected, then reported at once."""

    def __init__(self, emulator: Emulator, client: EditorClient) -> None:
        self.emulator = emulator
        self.client = client
        self.objects = _audited(emulator)
        self.failures: list[str] = []
        self.changes: dict[str, tuple[int, str, str]] = {}  # url: line number, before, after
        self.rows = {url for url, obj in self.objects if _previewable(emulator, url, obj)}

    def fail(self, face: str, step: str, url: str, detail: object) -> None:
        self.failures.append(f"{face} {step} {url}: {str(detail)[:300]}")

    async def in_the_editor(self, url: str, obj: RepoObject) -> None:
        client, uri = self.client, _uri(obj, url)
        read = await client.open(uri)
        if not read["text"].strip():
            self.fail("LSP", "open", url, "empty")
        outline = await client.text_document_document_symbol_async(
            types.DocumentSymbolParams(text_document=types.TextDocumentIdentifier(uri=uri))
        )
        if not outline:
            self.fail("LSP", "outline", url, "no symbols")
        checked = await _command(client, "adt.check", uri)
        if checked.get("errorCount"):
            self.fail("LSP", "check", url, checked["findings"][:2])
        if url in self.rows:
            try:
                await client.request("adt/dataPreview", {"uri": uri, "limit": 5})
            except JsonRpcException as exc:
                self.fail("LSP", "preview", url, exc)
        lines = client.texts[uri].split("\n")
        at, changed = _trivial_change(lines)
        client.edit(uri, (at, 0), (at, len(lines[at])), changed)
        self.changes[url] = (at + 1, lines[at], changed)
        saved = await client.save(uri)
        if saved.get("status") != "saved":
            self.fail("LSP", "save", url, saved)
        client.close(uri)

    async def through_the_agent(self, url: str, obj: RepoObject) -> None:
        number, original, changed = self.changes[url]
        read = await call(
            self.client_mcp, "getObjectSourceV2", objectUrl=url, startLine=number, endLine=number
        )
        if not read["ok"]:
            self.fail("MCP", "read", url, read)
            return
        if read["data"]["content"].rstrip("\n") != changed:
            self.fail("MCP", "read", url, f"not the editor's change: {read['data']['content']!r}")
        structure = await call(self.client_mcp, "objectStructure", objectUrl=url)
        if not structure["ok"]:
            self.fail("MCP", "structure", url, structure)
        checked = await call(self.client_mcp, "syntaxCheck", objectUrl=url)
        if not checked["ok"] or checked["data"]["errorCount"]:
            self.fail("MCP", "check", url, checked)
        if url in self.rows:
            rows = await call(self.client_mcp, "objectStructure", objectUrl=url, rows=5)
            if not rows["ok"]:
                self.fail("MCP", "preview", url, rows)
        reverted = await call(
            self.client_mcp,
            "setObjectSourceV2",
            objectUrl=url,
            token=read["data"]["token"],
            startLine=number,
            endLine=number,
            content=original,
        )
        if not reverted["ok"]:
            self.fail("MCP", "revert", url, reverted)

    async def activate_in_the_editor(self) -> None:
        (first, head), *rest = self.objects
        others = [_uri(obj, url) for url, obj in rest]
        activated = await _command(self.client, "adt.activate", _uri(head, first), others)
        if not activated.get("activated"):
            self.fail("LSP", "activate", "all", activated)

    async def activate_through_the_agent(self) -> None:
        (first, _), *rest = self.objects
        also = [url for url, _ in rest]
        activated = await call(self.client_mcp, "activate", objectUrl=first, also=also)
        if not activated["ok"] or not activated["data"]["activated"]:
            self.fail("MCP", "activate", "all", activated)

    def summary(self) -> str:
        """Failures by face, step and kind: how many, and the first of each."""
        groups: dict[str, list[str]] = {}
        for failure in self.failures:
            face, step, url = failure.split(" ", 3)[:3]
            kind = url.split("/sap/bc/adt/", 1)[-1].rsplit("/", 1)[0]
            groups.setdefault(f"{face} {step} {kind}", []).append(failure)
        return "\n".join(f"{len(found)}x {found[0]}" for found in groups.values())

    client_mcp: Any = None


@pytest.mark.parametrize("client", ["visual-studio-code"], indirect=True)
async def test_every_object_through_both_faces(client: EditorClient, emulator: Emulator) -> None:
    audit = Audit(emulator, client)
    kinds = {obj.kind.r3tr for _, obj in audit.objects}
    assert kinds >= {"DDLS", "DDLX", "BDEF", "SRVD", "SRVB", "TABL", "DTEL", "DOMA"}
    assert kinds >= {"TTYP", "MSAG"} and audit.rows
    before = await _stored(emulator, audit.objects)

    await _each(audit.objects, audit.in_the_editor)
    await audit.activate_in_the_editor()
    async with bridge(emulator, policy=WritePolicy(data_preview=True)) as agent:
        audit.client_mcp = agent
        await _each(audit.objects, audit.through_the_agent)
        await audit.activate_through_the_agent()
    assert audit.failures == [], audit.summary()
    after = await _stored(emulator, audit.objects)
    assert after == before, [url for url in before if after[url] != before[url]][:10]
    assert emulator.locks() == []


#: The CDS-family kinds whose sources are probed; classes are probed at their SELECTs.
PROBED = ("DDLS", "DDLX", "DCLS", "BDEF", "SRVD")


def _resolver(emulator: Emulator) -> Resolve:
    """The object a name stands for in the emulator: a class for a behavior pool, a table
    for a persistent or draft table, else an entity or table."""
    urls = {(obj.name, obj.kind.r3tr): url for url, obj in emulator.state.objects.items()}

    def resolve(name: str, role: str) -> tuple[str, str] | None:
        kinds = ("CLAS",) if role in m.CLASS_ROLES else ("DDLS", "TABL")
        kinds = ("TABL",) if role in m.TABLE_ROLES else kinds
        for kind in kinds:
            url = urls.get((name.upper(), kind))
            if url is not None:
                return url, emulator.source(f"{url}/source/main") or ""
        return None

    return resolve


def _targets(found: Any) -> list[tuple[str, int]]:
    """(uri, 1-based line) of each Location or LocationLink of a definition answer."""
    answers = found if isinstance(found, list) else [found] if found else []
    targets = []
    for answer in answers:
        if isinstance(answer, types.LocationLink):
            targets.append((answer.target_uri, answer.target_range.start.line + 1))
        else:
            targets.append((answer.uri, answer.range.start.line + 1))
    return targets


async def _probe(client: EditorClient, uri: str, probe: Probe) -> str:
    """What is wrong with the answer at ``probe`` (nothing: ``""``)."""
    document = types.TextDocumentIdentifier(uri=uri)
    position = types.Position(line=probe.line - 1, character=probe.column)
    if probe.what == COMPLETE:
        answer = await client.text_document_completion_async(
            types.CompletionParams(text_document=document, position=position)
        )
        items = answer.items if isinstance(answer, types.CompletionList) else answer or []
        labels = {item.label.upper() for item in items}
        if probe.expected.upper() in labels:
            return ""
        near = sorted(labels)[:6]
        return f"{probe.why} at {probe.line}:{probe.column}: no {probe.expected} in {near}"
    found = await client.text_document_definition_async(
        types.DefinitionParams(text_document=document, position=position)
    )
    targets = _targets(found)
    want = f"adt://A4H{probe.expected}/"
    if any(t.lower().startswith(want.lower()) and line == probe.target_line for t, line in targets):
        return ""
    wanted = f"{probe.expected}:{probe.target_line}"
    return f"{probe.why} at {probe.line}:{probe.column}: not {wanted} but {targets}"


@pytest.mark.parametrize("client", ["visual-studio-code"], indirect=True)
async def test_completion_and_definition_in_every_source(
    client: EditorClient, emulator: Emulator
) -> None:
    """Each CDS-family source completes and navigates where a developer would (see
    tests/support/flight_probes.py), and so does each class at its first SELECT over a
    flight entity or table; every answer is the right one."""
    resolve = _resolver(emulator)
    failures: list[str] = []
    counts = {"complete": 0, "definition": 0, "abap": 0}

    async def probe(url: str, obj: RepoObject) -> None:
        parts = ["main"] if obj.kind.r3tr in PROBED else ["main", "implementations"]
        for part in parts:
            source_url = f"{url}/source/main" if part == "main" else f"{url}/includes/{part}"
            text = emulator.source(source_url) if part in obj.parts else None
            if not text:
                continue
            if obj.kind.r3tr in PROBED:
                probes = cds_probes(text, obj.kind.r3tr, resolve)
            else:
                probes = abap_probes(text, resolve)
                counts["abap"] += bool(probes)
            if not probes:
                continue
            uri = f"adt://A4H{source_url}"
            await client.open(uri)
            for each in probes:
                counts[each.what] += 1
                if wrong := await _probe(client, uri, each):
                    failures.append(f"{obj.kind.r3tr} {obj.name}: {wrong}")
            client.close(uri)

    objects = sorted(
        (url, obj)
        for url, obj in emulator.state.objects.items()
        if obj.kind.r3tr in (*PROBED, "CLAS")
    )
    await _each(objects, probe)
    assert failures == [], f"{len(failures)} wrong answers:\n" + "\n".join(failures[:40])
    assert counts["complete"] >= 100 and counts["definition"] >= 100 and counts["abap"] >= 5, counts
    assert emulator.locks() == []
