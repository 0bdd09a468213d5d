"""The client driven end to end against recorded SAP answers (skipped without ../shared).

A replay transport answers each request with the next recorded response of an edit cycle and
checks that the client asks for what the recording's client asked for (method, path, action),
so the client's requests and its reading of SAP's answers are both held to real traffic.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import httpx
import pytest
from support.captures import Capture, capture, requires_captures

from adt import AdtClient, ConnectionProfile
from adt._session import CSRF_PATHS
from adt.errors import (
    InvalidLockHandleError,
    LockConflictError,
    NotFoundError,
)

pytestmark = [requires_captures, pytest.mark.captures]

PROGRAM = "/sap/bc/adt/programs/programs/zmcp_dbg_demo"
SOURCE = f"{PROGRAM}/source/main"
CLASS = "/sap/bc/adt/oo/classes/zmcp_bld_ansch01"
CSRF_FETCH = "a4h/211-np-csrf-a"
_DROPPED = {"content-length", "content-encoding", "transfer-encoding", "connection", "set-cookie"}


def _response(recorded: Capture) -> httpx.Response:
    """The recorded answer (bodies are stored decoded; cookies were redacted)."""
    assert recorded.status is not None
    headers = {k: v for k, v in recorded.response_headers.items() if k not in _DROPPED}
    return httpx.Response(recorded.status, headers=headers, content=recorded.body or b"")


class Replay:
    """Answers requests with recorded responses, in order. A token fetch the recording made
    elsewhere is answered from a recorded fetch whenever the client asks for one."""

    def __init__(self, *names: str) -> None:
        self.script = [capture(name) for name in names]
        self.requests: list[httpx.Request] = []

    def handler(self, request: httpx.Request) -> httpx.Response:
        self.requests.append(request)
        expected = self.script[0] if self.script else None
        if expected is not None and _matches(request, expected):
            return _response(self.script.pop(0))
        if request.url.path in CSRF_PATHS:  # the recording fetched its token elsewhere
            return _response(capture(CSRF_FETCH))
        wanted = f"{expected.method} {expected.path}" if expected else "nothing more"
        raise AssertionError(f"unexpected {request.method} {request.url}; recording has {wanted}")


def _matches(request: httpx.Request, recorded: Capture) -> bool:
    return (
        request.method == recorded.method
        and request.url.path == recorded.path.lower()  # names go lower case, as SAP allows
        and request.url.params.get("_action") == recorded.query.get("_action")
    )


@pytest.fixture
def profile() -> ConnectionProfile:
    return ConnectionProfile(
        base_url="http://203.0.113.10:50000",
        user="DEVELOPER",
        password="developer",  # type: ignore[arg-type]
        retry_delays=(),
    )


async def _client(profile: ConnectionProfile, replay: Replay) -> AsyncIterator[AdtClient]:
    async with AdtClient(profile, transport=httpx.MockTransport(replay.handler)) as client:
        yield client


async def test_an_edit_cycle_reads_every_recorded_answer(profile: ConnectionProfile) -> None:
    replay = Replay(
        "a4h/212-np-source-original",
        "a4h/213-np-lock",
        "a4h/214-np-put-modified",
        "a4h/215-np-unlock",
        "a4h/216-np-activate",
        "a4h/217-np-source-verify",
    )
    async for client in _client(profile, replay):
        original = await client.read_source(SOURCE)
        assert "\r" not in original.text and original.text.startswith("REPORT zmcp_dbg_demo.")
        assert original.etag and original.last_modified is not None
        lock = await client.lock(PROGRAM)
        assert len(lock.handle) == 40 and lock.is_local
        await client.write_source(SOURCE, original.text + "\n* changed", lock_handle=lock.handle)
        put = replay.requests[-1]
        assert put.url.params["lockHandle"] == lock.handle
        assert put.headers["x-sap-adt-sessiontype"] == "stateful"
        await client.unlock(PROGRAM, lock.handle)
        activation = await client.activate(PROGRAM)
        assert activation.success, "an empty 200 is a successful activation"
        verified = await client.read_source(SOURCE)
        assert verified.text != original.text
    assert replay.script == [], "every recorded step was asked for"


async def test_activation_refused_while_locked_names_the_lock_holder(
    profile: ConnectionProfile,
) -> None:
    replay = Replay("a4h/093-np-lock", "a4h/095-np-activate", "a4h/096-np-unlock")
    async for client in _client(profile, replay):
        lock = await client.lock(PROGRAM)
        with pytest.raises(LockConflictError) as caught:
            await client.activate(PROGRAM)
        assert caught.value.info.status == 403 and caught.value.holder == "DEVELOPER"
        await client.unlock(PROGRAM, lock.handle)
    assert replay.script == []


async def test_a_lock_held_by_someone_else_names_them(profile: ConnectionProfile) -> None:
    replay = Replay("trl/refusal-lock-held-by-other--01-lock")
    async for client in _client(profile, replay):
        with pytest.raises(LockConflictError) as caught:
            await client.lock(CLASS)
        assert caught.value.holder and caught.value.holder in str(caught.value)


async def test_a_write_with_a_dead_lock_handle_is_typed(profile: ConnectionProfile) -> None:
    replay = Replay("trl/refusal-write-not-locked--01-update-source")
    async for client in _client(profile, replay):
        with pytest.raises(InvalidLockHandleError):
            await client.write_source(
                f"{CLASS}/source/main", "CLASS x.", lock_handle="ZZ_INVALID_LOCK_HANDLE_0001"
            )


async def test_a_missing_object_is_not_found(profile: ConnectionProfile) -> None:
    replay = Replay("trl/refusal-object-not-found--01-read-source")
    async for client in _client(profile, replay):
        with pytest.raises(NotFoundError) as caught:
            await client.read_source("/sap/bc/adt/oo/classes/ZMCP_BLD_NOPE_CLS99/source/main")
        assert caught.value.info.status == 404


async def test_a_failed_activation_in_a_200_is_a_failure(profile: ConnectionProfile) -> None:
    replay = Replay("trl/refusal-activation-fails--01-activation")
    async for client in _client(profile, replay):
        result = await client.activate(CLASS)
    assert not result.success and result.errors
    assert all(message.text for message in result.errors)
