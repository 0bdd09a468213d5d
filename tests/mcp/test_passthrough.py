"""Passthrough: an editor session (a real language server driven by a pytest-lsp client) and an
agent (the MCP SDK's client on the bridge) working on the same object."""

from __future__ import annotations

import asyncio
import contextlib
import json
import logging
import os
import signal
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
from lsprotocol import types
from mcp import Client
from pytest_lsp import client_capabilities
from support.emulated import LARGE, REPORT, USERS
from support.lsp_editor import EditorClient, make_editor_client
from support.mcp_calls import call, error

from adt import AdtClient, ConnectionProfile
from adt.agent import WritePolicy
from adt.agent.channel import DEFAULT_CONNECT_TIMEOUT
from adt.agent.discovery import Announcement, announce
from adt.emulator import Emulator
from adt.systems import Connections, SystemsConfig
from lsp_server.buffer import encoding_name
from mcp_bridge.server import make_bridge

REPORT_SOURCE = f"{REPORT}/source/main"


def uri(system: str) -> str:
    return f"adt://{system}{REPORT_SOURCE}"


@pytest.fixture
def runtime(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A private runtime directory for the announcements of this test only."""
    directory = tmp_path / "run"
    directory.mkdir(mode=0o700)
    monkeypatch.setenv("ABAP_ADT_RUNTIME_DIR", str(directory))
    return directory


@pytest.fixture
def systems() -> Iterator[dict[str, tuple[Emulator, str]]]:
    """Two emulated systems on real sockets: A4H and QAS."""
    with contextlib.ExitStack() as stack:
        found: dict[str, tuple[Emulator, str]] = {}
        for sid in ("A4H", "QAS"):
            emulator = Emulator(users=USERS, sid=sid)
            found[sid] = (emulator, stack.enter_context(emulator.serve_in_thread()))
        yield found


@contextlib.asynccontextmanager
async def editor(
    sid: str, url: str, runtime: Path, workspace: str = "file:///work/project"
) -> AsyncIterator[EditorClient]:
    """A language server process for one system, driven like an editor window."""
    client = make_editor_client()
    env = {
        **os.environ,
        "ABAP_ADT_RUNTIME_DIR": str(runtime),
        "ABAP_ADT_CONFIG": os.devnull,
        "ADT_URL": "",
    }
    await client.start_io(sys.executable, "-m", "lsp_server", env=env)
    result = await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            root_uri=workspace,
            initialization_options={
                "systems": [
                    {"name": sid, "url": url, "user": "DEVELOPER", "password": "developer"}
                ],
                "pollInterval": 0,
            },
        )
    )
    client.encoding = encoding_name(result.capabilities.position_encoding)
    assert client._server is not None
    async with asyncio.timeout(120):  # an event, not a clock: only a hang times out
        await client.channel_ready.wait()
    assert (runtime / f"lsp-{client._server.pid}.json").exists()
    try:
        yield client
    finally:
        if client._server is not None and client._server.returncode is None:
            await client.shutdown_session()
        await client.stop()


def _bridge(systems: dict[str, tuple[Emulator, str]], **options: Any) -> Any:
    """The bridge, with its own (standalone) access to the given systems as fallback (the
    first one is its default)."""
    profiles = {
        sid: ConnectionProfile(
            base_url=url, user="DEVELOPER", password=USERS["DEVELOPER"], name=sid
        )  # type: ignore[arg-type]
        for sid, (_, url) in systems.items()
    }
    options.setdefault("channel_connect_timeout", 60.0)  # a busy machine is not a hung window
    return make_bridge(
        connections=Connections(SystemsConfig(profiles), client_factory=AdtClient),
        passthrough=True,
        **options,
    )


async def test_an_agent_patch_appears_in_the_clean_editor(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    emulator, url = systems["A4H"]
    async with editor("A4H", url, runtime) as window, Client(_bridge(systems)) as agent:
        await window.open(uri("A4H"))
        read = await call(agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=3)
        assert read["via"].startswith("editor:"), "the call ran in the editor's process"
        patched = await call(
            agent,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=read["data"]["token"],
            startLine=1,
            endLine=0,
            content="* from the agent",
        )
        assert patched["ok"], patched
        stored = emulator.source(REPORT_SOURCE)
        # the agent's answer came after the editor applied the edit (and reported it)
        assert window.texts[uri("A4H")] == stored
        saved = await window.save(uri("A4H"))
        assert saved == {
            "status": "unchanged",
            "uri": uri("A4H"),
            "token": patched["data"]["token"],
        }
    assert emulator.locks() == []


async def test_the_agent_is_refused_while_the_editor_has_overlapping_changes(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    emulator, url = systems["A4H"]
    async with editor("A4H", url, runtime) as window, Client(_bridge(systems)) as agent:
        await window.open(uri("A4H"))
        window.edit(uri("A4H"), (1, 0), (1, 0), "* unsaved editor change ")
        await window.sync(uri("A4H"))
        mine = window.texts[uri("A4H")]
        read = await call(agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=3)
        refused = await error(
            agent,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=read["data"]["token"],
            startLine=2,
            endLine=2,
            content="* agent overwrites line 2",
        )
        assert refused["name"] == "VERSION_CONFLICT"
        assert refused["details"]["document"] == uri("A4H") and uri("A4H") in refused["error"]
        assert window.texts[uri("A4H")] == mine
        assert "agent overwrites" not in (emulator.source(REPORT_SOURCE) or "")
        # the editor's user is told too (issue 18), and what unblocks the agent
        [told] = await window.until(lambda: window.refused_agent_edits)
        assert told["uri"] == uri("A4H") and "was not written" in told["message"]


async def test_an_editor_save_after_an_agent_patch_keeps_the_agents_change(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    emulator, url = systems["A4H"]
    async with editor("A4H", url, runtime) as window, Client(_bridge(systems)) as agent:
        await window.open(uri("A4H"))
        window.edit(uri("A4H"), (20, 0), (20, 0), "* editor's unsaved line\n")
        await window.sync(uri("A4H"))
        read = await call(agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=3)
        patched = await call(
            agent,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=read["data"]["token"],
            startLine=1,
            endLine=0,
            content="* agent's line",
        )
        assert patched["ok"], patched
        await window.until(lambda: window.texts[uri("A4H")].startswith("* agent's line\n"))
        assert "* editor's unsaved line" in window.texts[uri("A4H")]
        assert "* editor's unsaved line" not in (emulator.source(REPORT_SOURCE) or "")
        assert (await window.save(uri("A4H")))["status"] == "saved"
    stored = emulator.source(REPORT_SOURCE) or ""
    assert stored.startswith("* agent's line\n") and "* editor's unsaved line" in stored


async def test_the_editor_saves_under_an_agents_lock(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    emulator, url = systems["A4H"]
    async with editor("A4H", url, runtime) as window, Client(_bridge(systems)) as agent:
        await window.open(uri("A4H"))
        lock = await call(agent, "lock", objectUrl=REPORT)
        again = await call(agent, "lock", objectUrl=REPORT)
        assert again["data"]["lockHandle"] == lock["data"]["lockHandle"]
        window.edit(uri("A4H"), (0, 0), (0, 0), "* saved under the agent's lock\n")
        assert (await window.save(uri("A4H")))["status"] == "saved"
        assert [held.handle for held in emulator.locks()] == [lock["data"]["lockHandle"]]
        assert (await call(agent, "unLock", objectUrl=REPORT))["ok"]
    assert emulator.locks() == []


async def test_an_agents_lock_goes_away_with_the_agent(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    """A lock an agent took through the editor belongs to the agent's connection: when the
    bridge exits, it is released (closing the document would not release it)."""
    emulator, url = systems["A4H"]
    async with editor("A4H", url, runtime) as window:
        await window.open(uri("A4H"))
        async with Client(_bridge(systems)) as agent:
            locked = await call(agent, "lock", objectUrl=REPORT)
            assert locked["via"].startswith("editor:")
            assert len(emulator.locks()) == 1
        await window.until(lambda: emulator.locks() == [])
        activated = await window.workspace_execute_command_async(
            types.ExecuteCommandParams(command="adt.activate", arguments=[uri("A4H")])
        )
        assert activated["activated"] is True
    assert emulator.locks() == []


async def test_windows_are_routed_by_system_cleaned_up_and_found_again(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    (a4h, a4h_url), (_, qas_url) = systems["A4H"], systems["QAS"]
    async with Client(_bridge(systems)) as agent:
        standalone = await call(agent, "searchObjects", query="ZDEMO*", system="QAS")
        assert standalone["ok"] and "via" not in standalone, "no window: the bridge runs it"
        async with editor("A4H", a4h_url, runtime, "file:///work/a") as first:
            async with editor("QAS", qas_url, runtime, "file:///work/q") as second:
                to_qas = await call(agent, "searchObjects", query="ZDEMO*", system="QAS")
                to_a4h = await call(agent, "searchObjects", query="ZDEMO*", system="A4H")
                assert to_qas["via"] == f"editor:{second._server.pid}"  # type: ignore[union-attr]
                assert to_a4h["via"] == f"editor:{first._server.pid}"  # type: ignore[union-attr]
            gone = await call(agent, "searchObjects", query="ZDEMO*", system="QAS")
            assert "via" not in gone, "the closed window was dropped; the bridge ran it"
            assert first._server is not None
            first._server.send_signal(signal.SIGKILL)  # the editor process crashes
            await first._server.wait()
            crashed = await call(agent, "searchObjects", query="ZDEMO*", system="A4H")
            assert crashed["ok"] and "via" not in crashed
        async with editor("A4H", a4h_url, runtime, "file:///work/a") as restarted:
            back = await call(agent, "searchObjects", query="ZDEMO*", system="A4H")
            assert back["via"] == f"editor:{restarted._server.pid}"  # type: ignore[union-attr]
    assert a4h.locks() == []


async def test_workspace_routing_between_two_windows_of_one_system(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    _, url = systems["A4H"]
    async with Client(_bridge(systems)) as agent:
        async with editor("A4H", url, runtime, "file:///work/one") as one:
            async with editor("A4H", url, runtime, "file:///work/two") as two:
                first = await call(agent, "searchObjects", query="Z*", workspace="/work/one")
                second = await call(agent, "searchObjects", query="Z*", workspace="/work/two")
                assert first["via"] == f"editor:{one._server.pid}"  # type: ignore[union-attr]
                assert second["via"] == f"editor:{two._server.pid}"  # type: ignore[union-attr]


async def test_read_only_bridges_stay_read_only_through_an_editor(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    _, url = systems["A4H"]
    server = make_bridge(
        connections=Connections(SystemsConfig(), client_factory=AdtClient),
        policy=WritePolicy(read_only=True),
        passthrough=True,
    )
    async with editor("A4H", url, runtime) as window, Client(server) as agent:
        await window.open(uri("A4H"))
        read = await call(agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=1)
        refused = await error(
            agent,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=read["data"]["token"],
            startLine=1,
            endLine=1,
            content="x",
        )
        assert refused["name"] == "WRITE_REFUSED" and refused["via"].startswith("editor:")


def _searches(emulator: Emulator) -> int:
    return sum(n for key, n in emulator.request_counts().items() if "search" in str(key))


async def test_a_call_without_system_is_for_the_bridges_default_system(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    (a4h, _), (qas, qas_url) = systems["A4H"], systems["QAS"]
    async with editor("QAS", qas_url, runtime) as window, Client(_bridge(systems)) as agent:
        pid = window._server.pid  # type: ignore[union-attr]
        a4h.reset_request_log()
        qas.reset_request_log()
        default = await call(agent, "searchObjects", query="ZDEMO*")
        assert default["ok"] and "via" not in default, "A4H (the default) has no window"
        assert _searches(a4h) == 1 and _searches(qas) == 0
        to_qas = await call(agent, "searchObjects", query="ZDEMO*", system="QAS")
        assert to_qas["via"] == f"editor:{pid}" and _searches(qas) == 1
        read = await call(agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=1)
        assert "via" not in read and read["data"]["objectUrl"] == REPORT
    # A bridge without systems of its own sends such a call to the first window.
    async with editor("QAS", qas_url, runtime) as window, Client(_bridge({})) as agent:
        pid = window._server.pid  # type: ignore[union-attr]
        only_window = await call(agent, "searchObjects", query="ZDEMO*")
        assert only_window["via"] == f"editor:{pid}"


async def test_an_unknown_system_lists_the_windows_systems_too(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    _, qas_url = systems["QAS"]
    bridge = _bridge({"A4H": systems["A4H"]})
    async with editor("QAS", qas_url, runtime), Client(bridge) as agent:
        unknown = await error(agent, "searchObjects", query="Z*", system="PRD")
    assert unknown["name"] == "UNKNOWN_SYSTEM"
    assert unknown["details"]["available"] == ["A4H", "QAS"]
    assert "A4H, QAS" in unknown["error"]


async def test_a_workspace_that_names_no_window_is_an_error(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    emulator, url = systems["A4H"]
    async with editor("A4H", url, runtime, "file:///work/one"), Client(_bridge(systems)) as agent:
        wrong = await error(agent, "searchObjects", query="Z*", workspace="/work/typo")
        assert wrong["name"] == "INVALID_ARGUMENT"
        assert wrong["details"]["available"] == ["file:///work/one"]
        other = await error(agent, "searchObjects", query="Z*", workspace="/work/one", system="QAS")
        assert other["name"] == "INVALID_ARGUMENT" and other["details"]["available"] == ["A4H"]
        right = await call(agent, "searchObjects", query="Z*", workspace="/work/one")
        assert right["via"].startswith("editor:")
    assert emulator.locks() == []


async def test_the_bridges_response_limit_applies_in_the_editor(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    _, url = systems["A4H"]
    bridge = _bridge(systems, max_response_chars=5_000)
    async with editor("A4H", url, runtime) as window, Client(bridge) as agent:
        pid = window._server.pid  # type: ignore[union-attr]
        read = await call(agent, "getObjectSourceV2", objectUrl=LARGE)
        assert read["via"] == f"editor:{pid}"
        data = read["data"]
        assert data["truncated"] is True and data["nextStartLine"] == data["endLine"] + 1
        assert len(json.dumps(read)) <= 5_000
        grep = await call(agent, "grepObjectSource", objectUrl=LARGE, pattern="METHOD")
        assert grep["via"] == f"editor:{pid}" and grep["data"]["truncated"] is True
        assert len(json.dumps(grep)) <= 5_000


async def test_a_restarted_bridge_finds_the_open_editor_again(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    emulator, url = systems["A4H"]
    async with editor("A4H", url, runtime) as window:
        pid = window._server.pid  # type: ignore[union-attr]
        async with Client(_bridge(systems)) as agent:
            assert (await call(agent, "lock", objectUrl=REPORT))["via"] == f"editor:{pid}"
            assert (await call(agent, "unLock", objectUrl=REPORT))["ok"]
        async with Client(_bridge(systems)) as agent:  # the bridge was restarted
            again = await call(agent, "searchObjects", query="ZDEMO*")
            assert again["via"] == f"editor:{pid}"
    assert emulator.locks() == []


@contextlib.asynccontextmanager
async def fake_window(
    runtime: Path, *, answer_hello: bool, systems: tuple[str, ...] = ("A4H",)
) -> AsyncIterator[Path]:
    """A window that accepts connections but never answers (not even the handshake, unless
    ``answer_hello``), announced like a real one."""
    path = runtime / "fake.sock"
    connections: list[asyncio.StreamWriter] = []

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        connections.append(writer)
        if answer_hello:
            await reader.readline()
            reply = {"id": 0, "result": {"systems": list(systems), "workspaces": []}}
            writer.write(json.dumps(reply).encode() + b"\n")
            await writer.drain()
        await reader.read()  # never answers anything else

    server = await asyncio.start_unix_server(serve, path=str(path))
    announced = announce(
        Announcement(
            pid=os.getpid(), address=str(path), token="fake", systems=list(systems), started=0
        ),
        runtime,
    )
    try:
        yield announced
    finally:
        announced.unlink(missing_ok=True)
        for writer in connections:
            writer.close()
        server.close()


async def test_a_window_that_never_answers_does_not_hang_calls(
    systems: dict[str, tuple[Emulator, str]], runtime: Path, caplog: pytest.LogCaptureFixture
) -> None:
    caplog.set_level(logging.WARNING, logger="mcp_bridge.router")
    # the real default handshake limit: this test is about a window that never answers it
    bridge = _bridge(systems, channel_connect_timeout=DEFAULT_CONNECT_TIMEOUT)
    async with fake_window(runtime, answer_hello=False), Client(bridge) as agent:
        started = time.monotonic()
        first = await call(agent, "searchObjects", query="ZDEMO*", system="A4H")
        waited = time.monotonic() - started
        assert first["ok"] and "via" not in first, "run with the bridge's own session"
        assert waited < 4, f"the first call waited {waited:.1f} s for the silent window"
        started = time.monotonic()
        for _ in range(3):
            assert (await call(agent, "searchObjects", query="ZDEMO*"))["ok"]
        assert time.monotonic() - started < 1, "the silent window is not tried on every call"
    assert "did not answer the handshake" in caplog.text


async def test_a_window_that_stops_answering_calls_is_dropped(
    systems: dict[str, tuple[Emulator, str]], runtime: Path, caplog: pytest.LogCaptureFixture
) -> None:
    emulator, _ = systems["A4H"]
    caplog.set_level(logging.WARNING, logger="mcp_bridge.router")
    bridge = _bridge(systems, channel_call_timeout=0.5)
    async with fake_window(runtime, answer_hello=True), Client(bridge) as agent:
        started = time.monotonic()
        read = await call(agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=1)
        assert read["ok"] and "via" not in read, "a read falls back to the bridge's session"
        assert time.monotonic() - started < 3
        assert "did not answer getObjectSourceV2 within 0.5 s" in caplog.text
    async with (
        fake_window(runtime, answer_hello=True),
        Client(_bridge(systems, channel_call_timeout=0.5)) as agent,
    ):
        write = await error(
            agent,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token="0_empty",
            startLine=1,
            endLine=1,
            content="* never sent twice",
        )
        assert write["name"] == "NETWORK_ERROR" and write["retryAction"] == "getObjectSourceV2"
        assert "may or may not" in write["error"]
        after = await call(agent, "searchObjects", query="ZDEMO*")
        assert after["ok"] and "via" not in after
        # the dropped window was not asked again (a wait for it would be logged)
        assert "did not answer searchObjects" not in caplog.text
    assert "never sent twice" not in (emulator.source(REPORT_SOURCE) or "")
    assert emulator.locks() == []


async def test_a_window_of_another_system_with_the_same_name_is_not_used(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    """The editor calls its system A4H at one URL; the bridge's A4H is another system (here
    the QAS emulator). Matching by name alone would read — and write — the wrong system."""
    (a4h, a4h_url), (qas, _) = systems["A4H"], systems["QAS"]
    before = a4h.source(REPORT_SOURCE)
    async with editor("A4H", a4h_url, runtime) as window:
        await window.open(uri("A4H"))
        async with Client(_bridge({"A4H": systems["QAS"]})) as agent:
            read = await call(agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=1)
            assert "via" not in read
            assert any("bridge's own session" in note for note in read["notes"])
            patched = await call(
                agent,
                "setObjectSourceV2",
                objectUrl=REPORT,
                token=read["data"]["token"],
                startLine=1,
                endLine=0,
                content="* written to QAS",
            )
            assert patched["ok"] and "via" not in patched
    assert a4h.source(REPORT_SOURCE) == before
    assert (qas.source(REPORT_SOURCE) or "").startswith("* written to QAS")
    assert a4h.locks() == [] and qas.locks() == []


async def test_the_development_loop_tools_run_in_the_editor(
    systems: dict[str, tuple[Emulator, str]], runtime: Path
) -> None:
    emulator, url = systems["A4H"]
    async with editor("A4H", url, runtime) as window, Client(_bridge(systems)) as agent:
        pid = window._server.pid  # type: ignore[union-attr]
        found = await call(agent, "navigate", action="usages", name="ZIF_DEMO_GREETING")
        assert found["via"] == f"editor:{pid}" and found["data"]["total"] == 4
        assert found["adtRequests"] >= 2, "counted where the call ran"
        tests = await call(
            agent, "syntaxCheck", kind="unit", objectUrl="/sap/bc/adt/oo/classes/zcl_demo_greeter"
        )
        assert tests["via"] == f"editor:{pid}" and tests["data"]["green"]
        part = await call(
            agent,
            "getObjectSourceV2",
            objectUrl="/sap/bc/adt/oo/classes/zcl_demo_greeter",
            symbol="greet_all",
        )
        assert part["data"]["symbol"]["startLine"] == 44
    assert emulator.locks() == []
