"""The ADT client's full cycle against the emulator over a real socket."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from support.emulated import USERS, no_sleep

from adt import AdtClient, ConnectionProfile
from adt.emulator import Emulator
from adt.errors import (
    AdtError,
    AdtTransportError,
    AuthenticationError,
    LockConflictError,
    NotFoundError,
    SessionTimedOutError,
)
from adt.text import server_canonical

PROGRAM = "/sap/bc/adt/programs/programs/zdemo_report"
SOURCE = f"{PROGRAM}/source/main"
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"


@pytest.fixture
def url(emulator: Emulator) -> str:
    with emulator.serve_in_thread() as base_url:
        yield base_url  # type: ignore[misc]


def _client(url: str, user: str = "DEVELOPER", password: str | None = None) -> AdtClient:
    profile = ConnectionProfile(base_url=url, user=user, password=password or USERS[user])  # type: ignore[arg-type]
    return AdtClient(profile, sleep=no_sleep)


async def test_full_cycle(url: str, emulator: Emulator) -> None:
    async with _client(url) as adt:
        meta = await adt.object_metadata(PROGRAM)
        assert (meta.name, meta.type, meta.package) == ("ZDEMO_REPORT", "PROG/P", "$ZDEMO")
        original = await adt.read_source(meta.source_url or SOURCE)
        assert original.etag == meta.source_etag()
        assert meta.changed_at is not None and original.last_modified == meta.changed_at
        new_text = original.text + "\n* written by the client test   \n\n"
        lock = await adt.lock(PROGRAM)
        assert lock.is_local and len(lock.handle) == 40
        written = await adt.write_source(SOURCE, new_text, lock_handle=lock.handle)
        assert written.etag and written.etag != original.etag
        with pytest.raises(LockConflictError) as refused:
            await adt.activate(PROGRAM)
        assert refused.value.holder == "DEVELOPER", "our own lock blocks activation"
        await adt.unlock(PROGRAM, lock.handle)
        activation = await adt.activate(PROGRAM)
        assert activation.success
        active = await adt.read_source(SOURCE, version="active")
        assert active.text == server_canonical(new_text), "trailing blanks and newlines trimmed"
    assert emulator.locks() == []
    adt_requests = [e for e in emulator.request_log if e.path.startswith("/sap/bc/adt/")]
    stateful = [e for e in adt_requests if e.session_type == "stateful"]
    assert {e.method for e in stateful} == {"GET", "POST", "PUT"}
    assert all(e.context_id for e in stateful), "every stateful request ran in a context"
    stateless = [e for e in adt_requests if e.session_type != "stateful"]
    assert all(e.context_id is None for e in stateless)


async def test_class_includes_and_search(url: str) -> None:
    async with _client(url) as adt:
        meta = await adt.object_metadata(GREETER)
        assert set(meta.include_types) >= {"main", "definitions", "testclasses"}
        definitions = meta.include("definitions")
        assert definitions is not None
        text = await adt.read_source(definitions.source_url)
        assert text.etag == definitions.etag and "\r" not in text.text
        hits = await adt.quick_search("zcl_demo_*", max_results=2)
        assert len(hits) == 2 and all(h.name.startswith("ZCL_DEMO_") for h in hits)
        package = await adt.package_contents("$ZDEMO")
        assert "ZDEMO_REPORT" in {node.name for node in package.nodes}
        with pytest.raises(NotFoundError):
            await adt.package_contents("$NOPE")
        check = await adt.check_syntax(PROGRAM, text="REPORT x.\nIF 1 = 1.")
        assert check.errors and check.errors[0].line is not None


async def test_csrf_expiry_is_cured_by_one_refetch(url: str, emulator: Emulator) -> None:
    async with _client(url) as adt:
        await adt.activate(PROGRAM)
        emulator.expire_csrf_tokens()
        assert (await adt.activate(PROGRAM)).success
        fetches = [e for e in emulator.request_log if e.path.endswith("/core/discovery")]
        assert len(fetches) == 2


async def test_a_burst_of_first_requests_logs_on_once(url: str, emulator: Emulator) -> None:
    """An editor opening several documents starts with a burst of reads. They go on one
    security session, not one each: every session hands out its own CSRF token, and a token
    met with the cookie another answer brought back was refused (a completion failed so)."""
    async with _client(url) as adt:
        texts = await asyncio.gather(*(adt.read_source(SOURCE) for _ in range(6)))
        assert len({t.etag for t in texts}) == 1
        assert len(emulator.state.sessions.sessions) == 1
        assert (await adt.activate(PROGRAM)).success
        emulator.expire_contexts()
        await asyncio.gather(*(adt.read_source(SOURCE) for _ in range(6)))
        assert len(emulator.state.sessions.sessions) == 1


async def test_session_death_is_reported_and_leaves_no_lock(url: str, emulator: Emulator) -> None:
    async with _client(url) as adt:
        lock = await adt.lock(PROGRAM)
        emulator.expire_contexts()
        with pytest.raises(SessionTimedOutError, match="released its locks"):
            await adt.write_source(SOURCE, "REPORT zdemo_report.", lock_handle=lock.handle)
        assert emulator.locks() == [] and adt.held_locks == {}
        relocked = await adt.lock(PROGRAM)
        await adt.unlock(PROGRAM, relocked.handle)


async def test_lock_conflict_with_another_user(url: str, emulator: Emulator) -> None:
    emulator.lock_as("COLLEAGUE", PROGRAM)
    async with _client(url) as adt:
        with pytest.raises(LockConflictError) as caught:
            await adt.lock(PROGRAM)
        assert caught.value.holder == "COLLEAGUE"
    emulator.unlock_as("COLLEAGUE", PROGRAM)


async def test_wrong_password_is_tried_once(url: str, emulator: Emulator) -> None:
    async with _client(url, password="wrong") as adt:
        with pytest.raises(AuthenticationError):
            await adt.read_source(SOURCE)
        with pytest.raises(AuthenticationError):
            await adt.read_source(SOURCE)
    assert [e.status for e in emulator.request_log if e.path == SOURCE] == [401]


async def test_retries_only_idempotent_requests(url: str, emulator: Emulator) -> None:
    async with _client(url) as adt:
        emulator.faults.fail_next(status=503, count=2, method="GET", path_prefix=SOURCE)
        assert (await adt.read_source(SOURCE)).text
        emulator.faults.drop_next(method="GET", path_prefix=SOURCE)
        assert (await adt.read_source(SOURCE)).text
        emulator.faults.drop_next(method="POST", path_prefix="/sap/bc/adt/activation")
        with pytest.raises(AdtTransportError, match="not retried"):
            await adt.activate(PROGRAM)
    counts = emulator.request_counts()
    assert counts[f"GET {SOURCE}"] == 5
    assert counts["POST /sap/bc/adt/activation"] == 1


async def test_posts_that_only_read_are_retried_on_a_dropped_connection(
    url: str, emulator: Emulator
) -> None:
    """Code intelligence, formatting and checks post the text they read; the system changes
    nothing. A connection the server closed under the request (a keep-alive that ran out
    while it was sent) is retried, not reported to the editor as a failure."""
    text = emulator.source(SOURCE)
    assert text is not None
    async with _client(url) as adt:
        calls: dict[str, Callable[[], Awaitable[object]]] = {
            "/sap/bc/adt/abapsource/codecompletion/proposal": lambda: adt.completion.proposals(
                SOURCE, text, 2, 0
            ),
            "/sap/bc/adt/abapsource/prettyprinter": lambda: adt.formatting.pretty_print(text),
            "/sap/bc/adt/navigation/target": lambda: adt.navigation.definition(SOURCE, text, 1, 8),
            "/sap/bc/adt/checkruns": lambda: adt.check_syntax(PROGRAM, text=text),
        }
        for path, call in calls.items():
            emulator.faults.drop_next(method="POST", path_prefix=path)
            try:
                await call()
            except AdtTransportError as exc:
                pytest.fail(f"{path}: {exc}")
            except AdtError:
                pass  # the system's answer (no definition there): the request got through
            assert emulator.request_counts()[f"POST {path}"] == 2, path


async def test_a_dropped_connection_is_resent_at_once_and_an_outage_waits(
    url: str, emulator: Emulator
) -> None:
    """A kept-alive connection closed under a read is resent on a new one without waiting
    (an editor idle past the system's keep-alive would wait a second for nothing); a second
    drop, or a system answering 503, waits the profile's pauses as before."""
    pauses: list[float] = []

    async def recorded(seconds: float) -> None:
        pauses.append(seconds)

    profile = ConnectionProfile(base_url=url, user="DEVELOPER", password=USERS["DEVELOPER"])  # type: ignore[arg-type]
    async with AdtClient(profile, sleep=recorded) as adt:
        await adt.read_source(SOURCE)  # logged on: the next requests are reads alone
        emulator.faults.drop_next(method="GET", path_prefix=SOURCE)
        assert (await adt.read_source(SOURCE)).text == emulator.source(SOURCE)
        assert pauses == []
        emulator.faults.drop_next(count=2, method="GET", path_prefix=SOURCE)
        await adt.read_source(SOURCE)
        assert pauses == [1.0]
        emulator.faults.drop_next(method="POST", path_prefix="/sap/bc/adt/abapsource/prettyprinter")
        await adt.formatting.pretty_print(emulator.source(SOURCE) or "")
        assert pauses == [1.0]
    assert emulator.request_counts()[f"GET {SOURCE}"] == 1 + 2 + 3
