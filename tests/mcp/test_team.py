"""Team mode (one HTTP bridge, several people, each as their own SAP user) and replicas
(several bridge processes writing the same object)."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from support.bridge_process import HttpBridge, bridge_env, http_process
from support.emulated import REPORT, USERS
from support.mcp_calls import call, error

from adt.emulator import Emulator
from adt.errors import ConfigurationError
from adt.systems import load_settings, token_digest

ALICE = "alice-token-" + "a" * 32
BOB = "bob-token-" + "b" * 32


def _team_file(tmp: Path, url: str, *, bob: str = 'tokenEnv = "BOB_TOKEN"') -> Path:
    path = tmp / "systems.toml"
    path.write_text(
        f"""
[systems.A4H]
url = "{url}"
user = "DEVELOPER"
password_env = "BRIDGE_PASSWORD"

[team.alice]
tokenSha256 = "{token_digest(ALICE)}"
user = "DEVELOPER"
passwordEnv = "ALICE_PASSWORD"

[team.bob]
{bob}
user = "COLLEAGUE"
passwordEnv = "BOB_PASSWORD"
""",
        encoding="utf-8",
    )
    return path


def _team_env(config: Path, tmp: Path) -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if not key.startswith(("ADT_", "MCP_"))}
    env.update(
        ABAP_ADT_CONFIG=str(config),
        ABAP_ADT_RUNTIME_DIR=str(tmp),
        BRIDGE_PASSWORD=USERS["DEVELOPER"],
        ALICE_PASSWORD=USERS["DEVELOPER"],
        BOB_PASSWORD=USERS["COLLEAGUE"],
        BOB_TOKEN=BOB,
        MCP_HTTP_TOKEN="x" * 40,  # ignored in team mode (and said so)
    )
    return env


@contextlib.asynccontextmanager
async def _agent(bridge: HttpBridge, token: str) -> AsyncIterator[Client]:
    async with httpx2.AsyncClient(headers={"Authorization": f"Bearer {token}"}) as http:
        async with Client(streamable_http_client(bridge.url, http_client=http)) as client:
            yield client


@pytest.fixture
def team_bridge(emulator_url: str, tmp_path: Path) -> Iterator[HttpBridge]:
    env = _team_env(_team_file(tmp_path, emulator_url), tmp_path)
    with http_process(env, stderr=tmp_path / "bridge.log") as bridge:
        yield bridge


async def test_each_member_works_as_their_own_sap_user(
    emulator: Emulator, team_bridge: HttpBridge
) -> None:
    with anyio.fail_after(60):
        async with _agent(team_bridge, ALICE) as alice, _agent(team_bridge, BOB) as bob:
            read = await call(alice, "getObjectSourceV2", objectUrl=REPORT)
            written = await call(
                alice,
                "setObjectSourceV2",
                objectUrl=REPORT,
                token=read["data"]["token"],
                startLine=1,
                endLine=0,
                content="* alice",
            )
            assert written["ok"], written
            by_alice = await call(alice, "objectStructure", objectUrl=REPORT)
            assert by_alice["data"]["changedBy"] == "DEVELOPER"

            # bob's first read is his own: alice's cache does not answer for him
            theirs = await call(bob, "getObjectSourceV2", objectUrl=REPORT)
            assert theirs["adtRequests"] >= 1
            assert theirs["data"]["content"].startswith("* alice")
            done = await call(
                bob,
                "setObjectSourceV2",
                objectUrl=REPORT,
                token=theirs["data"]["token"],
                startLine=1,
                endLine=1,
                content="* bob",
            )
            assert done["ok"], done
            by_bob = await call(bob, "objectStructure", objectUrl=REPORT)
            assert by_bob["data"]["changedBy"] == "COLLEAGUE"

            # a lock names the person who holds it, and only its owner's calls use it
            held = await call(alice, "lock", objectUrl=REPORT)
            assert held["ok"]
            assert [lock.user for lock in emulator.locks()] == ["DEVELOPER"]
            fresh = await call(bob, "getObjectSourceV2", objectUrl=REPORT)
            refused = await error(
                bob,
                "setObjectSourceV2",
                objectUrl=REPORT,
                token=fresh["data"]["token"],
                startLine=1,
                endLine=1,
                content="* bob again",
            )
            assert refused["name"] == "OBJECT_LOCKED"
            assert refused["details"]["lockedBy"] == "DEVELOPER"
            # another member's handle releases nothing, and the answer says so
            stolen = await error(
                bob, "unLock", objectUrl=REPORT, lockHandle=held["data"]["lockHandle"]
            )
            assert stolen["name"] == "OBJECT_LOCKED" and "still locked" in stolen["error"]
            assert [lock.user for lock in emulator.locks()] == ["DEVELOPER"]
            assert (await call(alice, "unLock", objectUrl=REPORT))["ok"]
    assert emulator.source(f"{REPORT}/source/main", "inactive").startswith("* bob\n")
    assert emulator.locks() == []


async def test_a_token_that_is_no_members_is_refused(team_bridge: HttpBridge) -> None:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream"}
    async with httpx2.AsyncClient() as raw:
        for token in ("x" * 40, ALICE[:-1], "bearer"):
            answer = await raw.post(
                team_bridge.url, json=body, headers={**headers, "Authorization": f"Bearer {token}"}
            )
            assert answer.status_code == 401
        ok = await raw.post(
            team_bridge.url, json=body, headers={**headers, "Authorization": f"Bearer {BOB}"}
        )
        assert ok.status_code == 200 and len(ok.json()["result"]["tools"]) == 16


async def _status(bridge: HttpBridge, token: str) -> int:
    body = {"jsonrpc": "2.0", "id": 1, "method": "tools/list"}
    headers = {"Accept": "application/json, text/event-stream", "Authorization": f"Bearer {token}"}
    async with httpx2.AsyncClient() as raw:
        return (await raw.post(bridge.url, json=body, headers=headers, timeout=10)).status_code


async def test_revoked_and_rotated_tokens_take_effect_without_a_restart(
    team_bridge: HttpBridge, tmp_path: Path
) -> None:
    config = tmp_path / "systems.toml"
    original = config.read_text()
    assert await _status(team_bridge, ALICE) == 200
    # revoked: alice's table is gone from the file
    start = original.index("[team.alice]")
    config.write_text(original[:start] + original[original.index("[team.bob]") :])
    assert await _status(team_bridge, ALICE) == 401
    assert await _status(team_bridge, BOB) == 200
    # rotated: the same member, a new token
    rotated = "alice-rotated-" + "r" * 32
    config.write_text(original.replace(token_digest(ALICE), token_digest(rotated)))
    assert await _status(team_bridge, ALICE) == 401
    assert await _status(team_bridge, rotated) == 200
    # a change the file's stamps do not show (same size, old mtime): SIGHUP reads it again
    before = config.stat()
    again = "alice-again-" + "g" * 34
    config.write_text(original.replace(token_digest(ALICE), token_digest(again)))
    os.utime(config, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert await _status(team_bridge, again) == 401, "not noticed without the signal"
    os.kill(team_bridge.pid, signal.SIGHUP)
    with anyio.fail_after(10):  # the signal is handled before the next request
        while await _status(team_bridge, again) != 200:
            await anyio.lowlevel.checkpoint()
    assert await _status(team_bridge, rotated) == 401
    # a broken file keeps the team that was loaded, and says so
    config.write_text("[team\n")
    assert await _status(team_bridge, again) == 200
    assert "was not reloaded" in (tmp_path / "bridge.log").read_text()


async def test_a_short_bearer_token_is_refused_before_hashing(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import adt.systems.team as team_module
    from mcp_bridge.http import Gate
    from mcp_bridge.team import LiveTeam

    hashed: list[str] = []
    digest = team_module.token_digest
    monkeypatch.setattr(team_module, "token_digest", lambda t: hashed.append(t) or digest(t))
    team = team_module.Team((team_module.Member("alice", digest(ALICE), None),))  # type: ignore[arg-type]

    async def app(scope: Any, receive: Any, send: Any) -> None:
        raise AssertionError("a refused request never reaches the bridge")

    gate = Gate(app, "unused" * 8, LiveTeam(team))
    transport = httpx2.ASGITransport(app=gate)
    async with httpx2.AsyncClient(transport=transport, base_url="http://127.0.0.1") as raw:
        for header in ("Bearer", "Bearer ", "Bearer  x", "Bearer " + "a" * 31, "bearer" + " " * 40):
            answer = await raw.post("/mcp", headers={"Authorization": header})
            assert answer.status_code == 401, header
        assert hashed == [], "short tokens are refused before any hashing"
        answer = await raw.post("/mcp", headers={"Authorization": "Bearer " + "a" * 32})
        assert answer.status_code == 401 and len(hashed) == 1


@pytest.mark.parametrize(
    ("bob", "message"),
    [
        (f'token = "{BOB}"', "clear-text token"),
        ('tokenSha256 = "abc"', "64 hexadecimal digits"),
        (f'tokenSha256 = "{token_digest(ALICE)}"', "same token"),
        ('tokenEnv = "NOT_SET_ANYWHERE"', "at least 32 characters"),
        ("", "needs tokenSha256 or tokenEnv"),
    ],
)
def test_team_configuration_errors_name_the_member(tmp_path: Path, bob: str, message: str) -> None:
    config = _team_file(tmp_path, "http://127.0.0.1:1", bob=bob)
    env = _team_env(config, tmp_path)
    with pytest.raises(ConfigurationError, match=message) as raised:
        load_settings(env=env, config_file=config)
    assert "bob" in str(raised.value) or message == "same token"


def test_a_members_missing_password_names_the_member(tmp_path: Path) -> None:
    config = _team_file(tmp_path, "http://127.0.0.1:1")
    env = _team_env(config, tmp_path)
    del env["BOB_PASSWORD"]
    with pytest.raises(ConfigurationError, match=r"team member 'bob'.*BOB_PASSWORD"):
        load_settings(env=env, config_file=config)


def test_team_members_get_their_own_identity_per_system(tmp_path: Path) -> None:
    config = _team_file(tmp_path, "http://127.0.0.1:1")
    team = load_settings(env=_team_env(config, tmp_path), config_file=config).team
    alice, bob = team.members
    assert team.member_for(BOB) is bob and team.member_for(ALICE) is alice
    assert team.member_for("nobody") is None
    assert bob.systems.get("A4H").user == "COLLEAGUE"
    assert bob.systems.get("A4H").password.reveal() == USERS["COLLEAGUE"]
    assert "tok" not in repr(bob), "no token material in a member's repr"


# --- replicas ---------------------------------------------------------------------------------


async def _writer(bridge: HttpBridge, name: str, rounds: int) -> dict[str, int]:
    """Append ``rounds`` lines, each on top of what the writer just read; retry on a
    conflict or a lock (what an agent does); count what was written."""
    counts = {"written": 0, "conflicts": 0, "locked": 0}
    async with _agent(bridge, bridge.token) as agent:
        for index in range(rounds):
            while True:
                read = await call(
                    agent, "getObjectSourceV2", objectUrl=REPORT, startLine=1, endLine=1
                )
                outcome = await call(
                    agent,
                    "setObjectSourceV2",
                    objectUrl=REPORT,
                    token=read["data"]["token"],
                    startLine=1,
                    endLine=0,
                    content=f"* {name} {index}",
                )
                if outcome["ok"]:
                    counts["written"] += 1
                    break
                assert outcome["name"] in ("VERSION_CONFLICT", "OBJECT_LOCKED"), outcome
                counts["conflicts" if outcome["name"] == "VERSION_CONFLICT" else "locked"] += 1
                await asyncio.sleep(0.01)
    return counts


async def test_two_replicas_lose_no_update_and_leave_no_lock(
    emulator: Emulator, emulator_url: str, tmp_path: Path
) -> None:
    env = bridge_env(emulator_url, str(tmp_path))
    env["MCP_HTTP_TOKEN"] = "replica-token-" + "r" * 32  # one address, one token, two processes
    env["MCP_MAX_RESPONSE_CHARS"] = "80000"
    before = emulator.source(f"{REPORT}/source/main") or ""
    rounds = 8
    with http_process(env) as one, http_process(env) as two:
        with anyio.fail_after(120):
            results = await asyncio.gather(_writer(one, "one", rounds), _writer(two, "two", rounds))
    after = emulator.source(f"{REPORT}/source/main") or ""
    added = after.split("\n")[: len(after.split("\n")) - len(before.split("\n"))]
    assert sorted(added) == sorted(
        [f"* one {i}" for i in range(rounds)] + [f"* two {i}" for i in range(rounds)]
    ), "every write that succeeded is there, once"
    assert after.endswith(before)
    assert sum(r["written"] for r in results) == 2 * rounds
    assert emulator.locks() == []


async def _stale_write(agent: Client, token: str, text: str) -> dict[str, Any]:
    """A write with a token that may be stale; a lock held by the other replica is waited
    out, so the answer is either success or the conflict."""
    while True:
        outcome = await call(
            agent,
            "setObjectSourceV2",
            objectUrl=REPORT,
            token=token,
            startLine=1,
            endLine=0,
            content=text,
        )
        if outcome["ok"] or outcome["name"] != "OBJECT_LOCKED":
            return outcome
        await asyncio.sleep(0.01)


async def test_two_replicas_writing_on_the_same_token_one_wins(
    emulator: Emulator, emulator_url: str, tmp_path: Path
) -> None:
    env = bridge_env(emulator_url, str(tmp_path))
    env["MCP_HTTP_TOKEN"] = "replica-token-" + "r" * 32
    with http_process(env) as one, http_process(env) as two:
        async with _agent(one, one.token) as first, _agent(two, two.token) as second:
            token = (await call(first, "getObjectSourceV2", objectUrl=REPORT))["data"]["token"]
            same = (await call(second, "getObjectSourceV2", objectUrl=REPORT))["data"]["token"]
            assert token == same
            outcomes = await asyncio.gather(
                _stale_write(first, token, "* first"), _stale_write(second, token, "* second")
            )
    winners = [o for o in outcomes if o["ok"]]
    losers = [o for o in outcomes if not o["ok"]]
    assert len(winners) == 1 and len(losers) == 1
    assert losers[0]["name"] == "VERSION_CONFLICT"
    stored = emulator.source(f"{REPORT}/source/main") or ""
    assert stored.startswith(("* first\n", "* second\n"))
    assert not stored.startswith("* first\n* second") and not stored.startswith("* second\n* first")
    assert emulator.locks() == []
