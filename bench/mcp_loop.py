"""Benchmark: the development-loop scenarios through the MCP bridge, V2 tools next to V1.

S6  edit one method by name in the 10,000-line class ZCL_DEMO_LARGE;
S7  where-used of a method (ZCL_DEMO_GREETER=>GREET_ALL);
S8  create a class in a transportable package, write it, activate, run its unit tests, fix
    the failing test, rerun (V2 creates the class with its source and test classes in one
    ``manageObject`` call);
S9  edit one method of ZCL_DEMO_GREETER while a colleague changes another one between the
    agent's read and its write: V2 rebases the write over the colleague's change (one write
    call); "V2 strict" is the same with ``rebase: false`` (refused, re-read, written again:
    the cost before rebased writes); V1 reads and writes the whole source and so overwrites
    the colleague's change (the ``kept`` column says whether it survived).
S10 the same with ``replaceInObjectSource`` (one line of ``greet`` replaced by its text): V2
    finds the text in the token's version and rebases it; "V2 strict" is ``rebase: false``.

Method: the bridge runs in-process with the official MCP SDK's in-memory client, on an
in-process emulator (httpx ASGI transport, no network), a fresh emulator per run. For every
tool call we count the bytes the agent sends (the arguments as JSON) and receives: the
answer's text copy (what a client that reads only text sees), its structured content (the
same JSON object as compact JSON, what a client that reads ``structuredContent`` sees; every
answer is checked to carry both and to say the same in both), and the whole result as the
JSON-RPC response carries it (both copies, the text one as an escaped string: the bytes on the
wire with the default ``textContent: true``); and the ADT requests the emulator served (its
request log, CSRF fetch included). Wall time is the median of ``--repeat`` runs; the scanner
that finds a named part caches its last few sources per process, so the first run of S6-V2
parses the 10,000-line class (about 80 ms here) and the later ones do not. The response limit
is lifted so that V1's whole-source reads are not cut.

The V1 anchor does the same work with the V2 design's V1 tools wherever they apply:
whole-source reads (``getObjectSource``) and whole-source writes (``setObjectSource``). V1 has
no where-used: its S7 reads the sources of the package the method lives in, the least an
agent without where-used must read to find the callers (it would need more in a real system).
V1 has no creation, transports or unit tests either, so S8-V1 uses the same new tools for
those steps and V1 tools for every read and write.

Run: ``python bench/mcp_loop.py`` (writes bench/results/mcp_loop.md).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import json
import statistics
import sys
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from mcp import Client

from adt import AdtClient, ConnectionProfile, Secret
from adt.emulator import Emulator
from adt.systems import Connections, SystemsConfig
from mcp_bridge.server import make_bridge, tool_list

LARGE = "/sap/bc/adt/oo/classes/zcl_demo_large"
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
LOOP = "/sap/bc/adt/oo/classes/zcl_bench_loop"
RESULTS = Path(__file__).parent / "results" / "mcp_loop.md"
MAIN = """CLASS zcl_bench_loop DEFINITION PUBLIC FINAL CREATE PUBLIC.
  PUBLIC SECTION.
    METHODS twice IMPORTING iv TYPE i RETURNING VALUE(rv) TYPE i.
ENDCLASS.

CLASS zcl_bench_loop IMPLEMENTATION.
  METHOD twice.
    rv = iv * 2.
  ENDMETHOD.
ENDCLASS."""
TESTS = """CLASS ltcl_twice DEFINITION FINAL FOR TESTING DURATION SHORT RISK LEVEL HARMLESS.
  PRIVATE SECTION.
    METHODS doubles FOR TESTING.
ENDCLASS.

CLASS ltcl_twice IMPLEMENTATION.
  METHOD doubles.
    cl_abap_unit_assert=>fail( msg = 'not written yet' ).
  ENDMETHOD.
ENDCLASS."""
FIXED_TEST = (
    "  METHOD doubles.\n"
    "    cl_abap_unit_assert=>assert_equals( act = NEW zcl_bench_loop( )->twice( 2 ) exp = 4 ).\n"
    "  ENDMETHOD."
)


@dataclass
class Tally:
    calls: int = 0
    sent: int = 0
    received: int = 0  # the text copies
    structured: int = 0  # the structured contents, as compact JSON
    wire: int = 0  # the whole results as JSON-RPC carries them (both copies)
    requests: int = 0
    seconds: float = 0.0
    log: list[str] = field(default_factory=list)
    kept: bool = False  # S9: the colleague's change is still in the source


class Agent:
    """An MCP client that counts what each call costs."""

    def __init__(self, client: Client, tally: Tally, emulator: Emulator) -> None:
        self._client = client
        self.tally = tally
        self.emulator = emulator  # for a colleague's change between two calls

    async def __call__(self, tool: str, /, **arguments: Any) -> dict[str, Any]:
        result = await self._client.call_tool(tool, arguments)
        text = result.content[0].text  # type: ignore[union-attr]
        payload: dict[str, Any] = json.loads(text)
        structured = result.structured_content
        if structured != payload:  # the text copy and the structured content must agree
            raise AssertionError(f"{tool}: the text copy is not the structured content")
        self.tally.calls += 1
        self.tally.sent += len(json.dumps(arguments, ensure_ascii=False).encode())
        self.tally.received += len(text.encode())
        self.tally.structured += len(_compact(structured))
        self.tally.wire += len(
            result.model_dump_json(by_alias=True, exclude_none=True).encode()  # as sent
        )
        if result.is_error:
            payload["failed"] = True
        self.tally.log.append(tool)
        return payload


def _compact(value: Any) -> bytes:
    return json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode()


@contextlib.asynccontextmanager
async def _agent(emulator: Emulator, tally: Tally) -> AsyncIterator[Agent]:
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=Secret("developer"), name="A4H"
    )
    connections = Connections(
        SystemsConfig({"A4H": profile}),
        client_factory=lambda p: AdtClient(p, transport=httpx.ASGITransport(app=emulator.app)),
    )
    # No response limit: V1 reads must not be cut (a cut V1 read written back would lose the
    # rest of the source), and V2 answers are far below any limit anyway.
    server = make_bridge(connections=connections, passthrough=False, max_response_chars=10**8)
    async with Client(server) as client:
        yield Agent(client, tally, emulator)


# --- S6 --------------------------------------------------------------------------------------


async def s6_v2(agent: Agent) -> None:
    part = await agent("getObjectSourceV2", objectUrl=LARGE, symbol="calc_0042")
    lines = part["data"]["content"].split("\n")
    lines.insert(1, '    " reviewed')
    done = await agent(
        "setObjectSourceV2",
        objectUrl=LARGE,
        token=part["data"]["token"],
        symbol="calc_0042",
        content="\n".join(lines),
    )
    assert "failed" not in done, done


async def s6_v1(agent: Agent) -> None:
    source = (await agent("getObjectSource", objectSourceUrl=f"{LARGE}/source/main"))["data"]
    text = source["source"]
    marker = "  METHOD calc_0042.\n"
    text = text.replace(marker, marker + '    " reviewed\n', 1)
    done = await agent("setObjectSource", objectSourceUrl=f"{LARGE}/source/main", source=text)
    assert "failed" not in done, done


# --- S7 --------------------------------------------------------------------------------------


async def s7_v2(agent: Agent) -> None:
    found = await agent("navigate", action="usages", name="ZCL_DEMO_GREETER=>greet_all")
    assert found["data"]["total"] >= 1, found


async def s7_v1(agent: Agent) -> None:
    hits = await agent("searchObjects", query="Z*", maxResults=200)
    for hit in hits["data"]["results"]:
        if hit["package"] != "$ZDEMO" or hit["type"].startswith("DEVC"):
            continue
        structure = await agent("objectStructure", objectUrl=hit["uri"])
        sources = [i["sourceUrl"] for i in structure["data"].get("includes", [])] or [
            f"{hit['uri']}/source/main"
        ]
        for source_url in sources:
            await agent("getObjectSource", objectSourceUrl=source_url)


# --- S8 --------------------------------------------------------------------------------------


async def _create(agent: Agent, **sources: Any) -> dict[str, Any]:
    request = await agent("transports", action="create", description="Bench", package="ZDEMO_TR")
    created = await agent(
        "manageObject",
        action="create",
        kind="class",
        name="ZCL_BENCH_LOOP",
        description="Bench loop",
        package="ZDEMO_TR",
        transport=request["data"]["transport"],
        **({"testClasses": True} | sources),
    )
    assert "failed" not in created, created
    data: dict[str, Any] = created["data"]
    return data


async def _tests_then_fix(agent: Agent, write_fix: Callable[[], Awaitable[None]]) -> None:
    await agent("activate", objectUrl=LOOP)
    red = await agent("syntaxCheck", kind="unit", objectUrl=LOOP)
    assert red["data"]["failed"] == 1, red
    await write_fix()
    await agent("activate", objectUrl=LOOP)
    green = await agent("syntaxCheck", kind="unit", objectUrl=LOOP)
    assert green["data"]["green"], green


async def s8_v2(agent: Agent) -> None:
    await _create(agent, source=MAIN, testClasses=TESTS)  # created with its source

    async def fix() -> None:
        part = await agent(
            "getObjectSourceV2", objectUrl=LOOP, includeType="testclasses", symbol="doubles"
        )
        await agent(
            "setObjectSourceV2",
            objectUrl=LOOP,
            includeType="testclasses",
            token=part["data"]["token"],
            symbol="doubles",
            content=FIXED_TEST,
        )

    await _tests_then_fix(agent, fix)


async def s8_v1(agent: Agent) -> None:
    await _create(agent)
    tests_url = f"{LOOP}/includes/testclasses"
    await agent("setObjectSource", objectSourceUrl=f"{LOOP}/source/main", source=MAIN)
    await agent("setObjectSource", objectSourceUrl=tests_url, source=TESTS)

    async def fix() -> None:
        text = (await agent("getObjectSource", objectSourceUrl=tests_url))["data"]["source"]
        start = text.index("  METHOD doubles.")
        end = text.index("ENDMETHOD.", start) + len("ENDMETHOD.")
        await agent(
            "setObjectSource",
            objectSourceUrl=tests_url,
            source=text[:start] + FIXED_TEST + text[end:],
        )

    await _tests_then_fix(agent, fix)


# --- S9 --------------------------------------------------------------------------------------

GREETER_MAIN = f"{GREETER}/source/main"
COLLEAGUES = '    " changed by a colleague'


def _colleague_changes_greet_all(emulator: Emulator) -> None:
    """The colleague's edit of another method, saved between the agent's read and write."""
    text = emulator.source(GREETER_MAIN) or ""
    marker = "  METHOD greet_all.\n"
    assert marker in text
    emulator.write_as("COLLEAGUE", GREETER_MAIN, text.replace(marker, marker + COLLEAGUES + "\n"))


async def _s9_v2(agent: Agent, rebase: bool) -> None:
    part = await agent("getObjectSourceV2", objectUrl=GREETER, symbol="greet")
    _colleague_changes_greet_all(agent.emulator)
    lines = part["data"]["content"].split("\n")
    lines.insert(1, '    " reviewed')
    write = {"objectUrl": GREETER, "symbol": "greet", "content": "\n".join(lines)}
    done = await agent("setObjectSourceV2", token=part["data"]["token"], rebase=rebase, **write)
    if "failed" in done:  # the strict check: read again, write again
        again = await agent("getObjectSourceV2", objectUrl=GREETER, symbol="greet")
        done = await agent("setObjectSourceV2", token=again["data"]["token"], **write)
    assert "failed" not in done, done


async def s9_v2(agent: Agent) -> None:
    await _s9_v2(agent, rebase=True)


async def s9_v2_strict(agent: Agent) -> None:
    await _s9_v2(agent, rebase=False)


async def s9_v1(agent: Agent) -> None:
    text = (await agent("getObjectSource", objectSourceUrl=GREETER_MAIN))["data"]["source"]
    _colleague_changes_greet_all(agent.emulator)
    marker = "  METHOD greet.\n"
    text = text.replace(marker, marker + '    " reviewed\n', 1)
    done = await agent("setObjectSource", objectSourceUrl=GREETER_MAIN, source=text)
    assert "failed" not in done, done


# --- S10 -------------------------------------------------------------------------------------

OLD_LINE = "rv_text = |{ mv_salutation }, { mo_formatter->capitalize( iv_name ) }!|."
NEW_LINE = "rv_text = |{ mv_salutation }, { to_upper( iv_name ) }!|."


async def _s10_v2(agent: Agent, rebase: bool) -> None:
    part = await agent("getObjectSourceV2", objectUrl=GREETER, symbol="greet")
    _colleague_changes_greet_all(agent.emulator)
    change = {"objectUrl": GREETER, "oldString": OLD_LINE, "newString": NEW_LINE}
    done = await agent(
        "replaceInObjectSource", token=part["data"]["token"], rebase=rebase, **change
    )
    if "failed" in done:  # the strict check: read again, replace again
        again = await agent("getObjectSourceV2", objectUrl=GREETER, symbol="greet")
        done = await agent("replaceInObjectSource", token=again["data"]["token"], **change)
    assert "failed" not in done, done


async def s10_v2(agent: Agent) -> None:
    await _s10_v2(agent, rebase=True)


async def s10_v2_strict(agent: Agent) -> None:
    await _s10_v2(agent, rebase=False)


async def s10_v1(agent: Agent) -> None:
    text = (await agent("getObjectSource", objectSourceUrl=GREETER_MAIN))["data"]["source"]
    _colleague_changes_greet_all(agent.emulator)
    done = await agent(
        "setObjectSource", objectSourceUrl=GREETER_MAIN, source=text.replace(OLD_LINE, NEW_LINE)
    )
    assert "failed" not in done, done


Scenario = Callable[[Agent], Awaitable[None]]
SCENARIOS: dict[str, tuple[tuple[str, Scenario], ...]] = {
    "S6 edit one method by name (10,000-line class)": (("V1", s6_v1), ("V2", s6_v2)),
    "S7 where-used of a method": (("V1", s7_v1), ("V2", s7_v2)),
    "S8 create, write, activate, test, fix, retest": (("V1", s8_v1), ("V2", s8_v2)),
    "S9 edit a method while a colleague edits another": (
        ("V1", s9_v1),
        ("V2 strict", s9_v2_strict),
        ("V2", s9_v2),
    ),
    "S10 replace a line while a colleague edits another method": (
        ("V1", s10_v1),
        ("V2 strict", s10_v2_strict),
        ("V2", s10_v2),
    ),
}


async def _measure(scenario: Callable[[Agent], Awaitable[None]]) -> Tally:
    emulator = Emulator()
    tally = Tally()
    async with _agent(emulator, tally) as agent:
        emulator.reset_request_log()
        started = time.perf_counter()
        await scenario(agent)
        tally.seconds = time.perf_counter() - started
        tally.requests = len(emulator.request_log)
    assert emulator.locks() == []
    tally.kept = COLLEAGUES in (emulator.source(GREETER_MAIN) or "")
    return tally


async def _median(scenario: Callable[[Agent], Awaitable[None]], repeat: int) -> Tally:
    runs = [await _measure(scenario) for _ in range(repeat)]
    first = runs[0]
    first.seconds = statistics.median(r.seconds for r in runs)
    return first


def _row(name: str, label: str, tally: Tally) -> str:
    kept = ("yes" if tally.kept else "**no**") if name.startswith(("S9", "S10")) else ""
    return (
        f"| {name} | {label} | {tally.calls} | {tally.sent:,} | {tally.received:,} | "
        f"{tally.structured:,} | {tally.wire:,} | {tally.sent + tally.received:,} | "
        f"{tally.requests} | {tally.seconds * 1000:.0f} | {kept} |"
    )


async def main(repeat: int, only: str | None = None) -> str:
    rows = [
        "| Scenario | tools | calls | bytes sent | bytes received (text copy) "
        "| structured content | answers on the wire (both) | bytes total (sent + text) "
        "| ADT requests | ms (median) | colleague's change kept |",
        "|---|---|---:|---:|---:|---:|---:|---:|---:|---:|---|",
    ]
    for name, variants in SCENARIOS.items():
        if only and not name.startswith(only):
            continue
        tallies = [(label, await _median(scenario, repeat)) for label, scenario in variants]
        rows += [_row(name, label, tally) for label, tally in tallies]
        old, new = tallies[0][1], tallies[-1][1]
        saved = 1 - (new.sent + new.received) / (old.sent + old.received)
        rows.append(f"| | saved (V2 against V1) | | | | | | {saved:.1%} | | | |")
    listed = json.dumps(
        [t.model_dump(by_alias=True, mode="json", exclude_none=True) for t in tool_list()],
        separators=(",", ":"),
    ).encode()
    rows.append(f"\nThe advertised tool list: {len(listed):,} bytes of compact JSON.")
    return "\n".join(rows)


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    parser.add_argument("--only", help="run the scenarios whose name starts with this (S9)")
    options = parser.parse_args()
    table = asyncio.run(main(options.repeat, options.only))
    when = time.strftime("%Y-%m-%d")
    report = (
        f"# MCP development-loop scenarios\n\nMeasured {when} with `python bench/mcp_loop.py "
        f"--repeat {options.repeat}` on this machine ({sys.platform}, Python "
        f"{sys.version.split()[0]}); method in the script's docstring.\n\n{table}\n"
    )
    RESULTS.write_text(report, encoding="utf-8")
    print(report)
