"""The passthrough channel's parts on their own: discovery, handshake and call time limits,
and the write policy's settings."""

from __future__ import annotations

import asyncio
import json
import os
import tempfile
import time
from pathlib import Path
from typing import Any

import pytest

from adt.agent import AgentTools, WritePolicy, discovery
from adt.agent.channel import ChannelClient, ChannelError, ChannelServer, ChannelTimeout
from adt.agent.discovery import Announcement, announce, discover
from adt.errors import ConfigurationError
from adt.source.errors import WriteRefused
from adt.systems import BridgeSettings, Connections, SystemsConfig
from adt.systems.settings import load_section

GONE = 2**22 + 12_345  # above the usual pid_max: no such process


def _announcement(pid: int, address: str = "/nowhere.sock") -> Announcement:
    return Announcement(pid=pid, address=address, token="t", systems=["A4H"])


def test_stale_announcements_are_removed(tmp_path: Path) -> None:
    stale = announce(_announcement(GONE), tmp_path)
    announce(_announcement(os.getpid()), tmp_path)
    assert [a.pid for a in discover(tmp_path)] == [os.getpid()]
    assert not stale.exists()


def test_windows_never_signals_a_process_to_test_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """On Windows os.kill(pid, 0) would send CTRL_C_EVENT: the connection decides instead."""

    def kill(pid: int, signal: int) -> None:
        raise AssertionError("os.kill must not be called on Windows")

    monkeypatch.setattr(discovery, "_WINDOWS", True)
    monkeypatch.setattr(os, "kill", kill)
    announce(_announcement(GONE), tmp_path)
    assert [a.pid for a in discover(tmp_path)] == [GONE]


async def test_a_handshake_that_never_comes_times_out(tmp_path: Path) -> None:
    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()

    path = tmp_path / "silent.sock"
    server = await asyncio.start_unix_server(silent, path=str(path))
    try:
        client = ChannelClient(_announcement(os.getpid(), str(path)), connect_timeout=0.2)
        started = time.monotonic()
        with pytest.raises(ChannelTimeout, match=r"did not answer the handshake within 0\.2 s"):
            await client.connect()
        assert time.monotonic() - started < 1 and client.closed
    finally:
        server.close()


async def test_a_failing_call_is_answered_not_left_hanging(tmp_path: Path) -> None:
    def broken(policy: WritePolicy) -> AgentTools:
        raise RuntimeError("no tools here")

    channel = ChannelServer(broken, lambda: {"systems": ["A4H"]}, directory=tmp_path)
    announcement = await channel.start()
    client = ChannelClient(announcement, call_timeout=5)
    try:
        await client.connect()
        with pytest.raises(ChannelError, match="no tools here") as failed:
            await client.call("searchObjects", {"query": "Z*"}, WritePolicy())
        assert failed.value.delivered, "the call reached the window"
    finally:
        await client.close()
        await channel.close()


async def test_the_response_limit_travels_with_the_call(tmp_path: Path) -> None:
    seen: list[Any] = []

    class Recorder(AgentTools):
        async def call(self, name: str, arguments: Any, **options: Any) -> Any:
            seen.append(options.get("max_response_chars"))
            return await super().call(name, arguments, **options)

    tools = Recorder(Connections(SystemsConfig()))
    channel = ChannelServer(lambda policy: tools, lambda: {"systems": []}, directory=tmp_path)
    client = ChannelClient(await channel.start())
    try:
        await client.connect()
        await client.call("searchObjects", {"query": "Z*"}, WritePolicy(), max_response_chars=5000)
        await client.call("searchObjects", {"query": "Z*"}, WritePolicy())
    finally:
        await client.close()
        await channel.close()
    assert seen == [5000, None]


def _bridge_settings(env: dict[str, str]) -> BridgeSettings:
    return load_section(BridgeSettings, env=env)


def test_write_policy_settings_from_flags_and_environment() -> None:
    env = {"MCP_READ_ONLY": " TRUE ", "MCP_WRITE_ALLOWLIST": " $ZDEMO, ,zcl_* ,$ZDEMO"}
    policy = WritePolicy.from_settings(_bridge_settings(env), allow=["ZDEMO_TR"])
    assert policy.read_only is True
    assert policy.allow == ("ZDEMO_TR", "$ZDEMO", "zcl_*")
    for value in ("", "0", "false", "no", "off"):
        settings = _bridge_settings({"MCP_READ_ONLY": value})
        assert WritePolicy.from_settings(settings).read_only is False
    with pytest.raises(ConfigurationError, match="MCP_READ_ONLY"):
        _bridge_settings({"MCP_READ_ONLY": "maybe"})
    assert WritePolicy.from_settings(BridgeSettings(), read_only=True).read_only is True
    writable = WritePolicy(allow=policy.allow)
    writable.check("lock", "/x", "ZFOO", "$ZDEMO")  # by package
    with pytest.raises(WriteRefused, match="not on the write allowlist"):
        writable.check("lock", "/x", "ZFOO", "$OTHER")
    with pytest.raises(WriteRefused, match="package \\$OTHER"):
        writable.check("lock", "/x", "ZCL_A", "$OTHER")  # a name never matches a package pattern
    narrowed = WritePolicy(allow=("$ZDEMO",), allow_objects=("ZCL_*",))
    narrowed.check("lock", "/x", "ZCL_A", "$ZDEMO")
    with pytest.raises(WriteRefused, match="not one of the objects"):
        narrowed.check("lock", "/x", "ZFOO", "$ZDEMO")
    with pytest.raises(WriteRefused, match="not on the write allowlist"):
        narrowed.check("lock", "/x", "ZCL_A", "$OTHER")
    with pytest.raises(ConfigurationError, match="only narrows --allow"):
        WritePolicy(allow_objects=("ZCL_*",))


def test_a_runtime_directory_that_is_a_link_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (tmp_path / f"abap-adt-{os.getuid()}").symlink_to(elsewhere)
    with pytest.raises(discovery.UnsafeRuntimeDir, match="not a plain directory"):
        discovery.runtime_dir({})


@pytest.mark.skipif(os.getuid() != 0, reason="creating another user's directory needs root")
def test_a_runtime_directory_of_another_user_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    planted = tmp_path / f"abap-adt-{os.getuid()}"
    planted.mkdir(mode=0o777)
    os.chown(planted, 4242, 4242)
    with pytest.raises(discovery.UnsafeRuntimeDir, match="belongs to another user"):
        discovery.runtime_dir({})


async def test_a_handshake_that_is_not_an_object_is_refused_cleanly(
    tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    channel = ChannelServer(lambda policy: None, dict, directory=tmp_path)  # type: ignore[arg-type,return-value]
    announcement = await channel.start()
    try:
        for line in (
            b"[1, 2]\n",
            b'"hello"\n',
            b"not json\n",
            b'{"method": "hello", "params": 5}\n',
        ):
            reader, writer = await asyncio.open_unix_connection(announcement.address)
            writer.write(line)
            await writer.drain()
            answer = json.loads(await asyncio.wait_for(reader.readline(), 5))
            assert answer["error"]["message"] == "bad token"
            writer.close()
    finally:
        await channel.close()
    assert "Traceback" not in caplog.text and "Unhandled" not in caplog.text
