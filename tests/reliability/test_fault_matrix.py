"""The fault matrix: every fault at every step of a write, and for each the same promise —
the edit is saved exactly once or refused with a clear error, nothing is silently
overwritten, and the emulator's lock table is empty at the end.

The faults are injected between the client and the in-process emulator
(:mod:`support.faulty`): a 503 before the request reaches the server, a connection reset
before it (nothing applied) or after it (applied, answer lost), CSRF tokens expiring, the
application server restarting (every context and token gone), and another user's lock.
"""

from __future__ import annotations

import pytest
from support.faulty import Fault, FaultyTransport, faulty_client, restart

from adt.emulator import Emulator
from adt.source import SourceConfig, SourceError, SourceService

REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
SOURCE = f"{REPORT}/source/main"
LINE = "* written once"
SAVED = "saved"

LOCK = ("POST", REPORT, "_action=LOCK")
UNLOCK = ("POST", REPORT, "_action=UNLOCK")
READ = ("GET", SOURCE, "")
PUT = ("PUT", SOURCE, "")


def _service(emulator: Emulator) -> tuple[SourceService, FaultyTransport]:
    client, transport = faulty_client(emulator)
    config = SourceConfig(retry_delays=(0.0, 0.0, 0.0))
    return SourceService(client, system="A4H", config=config), transport


CASES: dict[str, tuple[tuple[str, str, str], str, int, str]] = {
    # step, fault kind, count, expected outcome (SAVED or the error name)
    "unlock answers 503 once": (UNLOCK, "fail", 1, SAVED),
    "unlock answers 503 every time": (UNLOCK, "fail", 20, SAVED),
    "unlock connection reset every time": (UNLOCK, "reset-before", 20, SAVED),
    "unlock applied, answer lost": (UNLOCK, "reset-after", 1, SAVED),
    "lock answers 503": (LOCK, "fail", 1, "BACKEND_ERROR"),
    "lock connection reset": (LOCK, "reset-before", 1, SAVED),
    "lock taken, answer lost": (LOCK, "reset-after", 1, SAVED),
    "read under the lock answers 503 once": (READ, "fail", 1, SAVED),
    "read under the lock connection reset": (READ, "reset-before", 1, SAVED),
    "put answers 503": (PUT, "fail", 1, "BACKEND_ERROR"),
    "put connection reset before the server": (PUT, "reset-before", 1, SAVED),
    "put applied, answer lost": (PUT, "reset-after", 1, SAVED),
}


@pytest.mark.parametrize("case", list(CASES))
async def test_network_faults_at_each_step(emulator: Emulator, case: str) -> None:
    (method, path, query), kind, count, expected = CASES[case]
    service, transport = _service(emulator)
    transport.add(Fault(method, path, query, kind=kind, count=count))
    await _write_once_or_refuse(emulator, service, expected)
    assert transport.faults[0].hits >= 1, "the fault was hit"


@pytest.mark.parametrize("case", list(CASES))
async def test_network_faults_during_a_rebased_write(emulator: Emulator, case: str) -> None:
    """The same faults while the write is moved over a colleague's change made since the
    read: saved once on top of their change, or refused with their change intact."""
    (method, path, query), kind, count, expected = CASES[case]
    service, transport = _service(emulator)
    transport.add(Fault(method, path, query, kind=kind, count=count))
    await _write_once_or_refuse(emulator, service, expected, rebase_over="* colleague")
    assert transport.faults[0].hits >= 1, "the fault was hit"


@pytest.mark.parametrize(
    ("step", "when"),
    [(LOCK, "before"), (LOCK, "after"), (READ, "after"), (PUT, "after")],
    ids=["before the lock", "between lock and read", "between read and write", "before unlock"],
)
async def test_csrf_expiry_at_each_step(
    emulator: Emulator, step: tuple[str, str, str], when: str
) -> None:
    service, transport = _service(emulator)
    method, path, query = step
    transport.add(Fault(method, path, query, kind=when, action=emulator.expire_csrf_tokens))
    await _write_once_or_refuse(emulator, service, SAVED)


async def test_an_unlock_whose_tokens_are_refused_twice_leaves_no_lock(emulator: Emulator) -> None:
    """The unlock's token expires, and the token fetched again too (two faults in a row, as
    the soak met them once): the unlock fails with the CSRF error; the write is saved, and the
    context is ended so that its lock does not outlive the failure (it stayed held until the
    session closed)."""
    service, transport = _service(emulator)
    method, path, query = UNLOCK
    fault = Fault(method, path, query, kind="before", count=2, action=emulator.expire_csrf_tokens)
    transport.add(fault)
    await _write_once_or_refuse(emulator, service, SAVED)
    assert fault.hits == 2, "both sends of the unlock met an expired token"


@pytest.mark.parametrize(
    "step", [LOCK, READ, PUT], ids=["after the lock", "after the read", "after the write"]
)
async def test_application_server_restart_during_a_write(
    emulator: Emulator, step: tuple[str, str, str]
) -> None:
    service, transport = _service(emulator)
    method, path, query = step
    transport.add(Fault(method, path, query, kind="after", action=restart(emulator)))
    await _write_once_or_refuse(emulator, service, SAVED)


async def test_a_second_users_lock_refuses_the_write(emulator: Emulator) -> None:
    service, _ = _service(emulator)
    emulator.lock_as("COLLEAGUE", REPORT)
    try:
        await _write_once_or_refuse(emulator, service, "OBJECT_LOCKED", colleague=True)
    finally:
        emulator.unlock_as("COLLEAGUE", REPORT)
    assert emulator.locks() == []


async def test_csrf_expiry_between_an_agents_lock_and_its_write(emulator: Emulator) -> None:
    """The caller's own lock (the lock tool, then writes with lockHandle): a new token on the
    same session, and the write goes through under the same lock."""
    service, _ = _service(emulator)
    read = await service.get_source_v2(REPORT)
    info = await service.lock(REPORT, owner="agent")
    emulator.expire_csrf_tokens()
    outcome = await service.set_source_v2(
        REPORT,
        token=read.token,
        start_line=1,
        end_line=0,
        content=LINE,
        lock_handle=info.lock_handle,
        owner="agent",
    )
    assert outcome.updated and _count(emulator) == 1
    assert [lock.handle for lock in emulator.locks()] == [info.lock_handle]
    await service.unlock(REPORT, owner="agent")
    assert emulator.locks() == []
    await _close(service)


async def _write_once_or_refuse(
    emulator: Emulator,
    service: SourceService,
    expected: str,
    *,
    colleague: bool = False,
    rebase_over: str | None = None,
) -> None:
    before = emulator.source(SOURCE)
    assert before is not None
    read = await service.get_source_v2(REPORT)
    if rebase_over is not None:  # a colleague's line at the end, after our read
        before = f"{before}\n{rebase_over}"
        emulator.write_as("COLLEAGUE", SOURCE, before)
    message = ""
    try:
        written = await service.set_source_v2(
            REPORT,
            token=read.token,
            start_line=1,
            end_line=0,
            content=LINE,
            rebase=rebase_over is not None,
        )
        assert (written.rebased_over is not None) == (rebase_over is not None)
        outcome = SAVED
    except SourceError as exc:
        outcome, message = exc.name, exc.message
    assert outcome == expected
    if outcome != SAVED:
        assert message, "a refusal says why"
    if colleague:
        assert "COLLEAGUE" in message
    after = emulator.source(SOURCE)
    if outcome == SAVED:
        assert after == f"{LINE}\n{before}", "saved exactly once, on top of what was there"
    else:
        assert after == before, "a refused write changed nothing"
    mine = [lock for lock in emulator.locks() if lock.user == "DEVELOPER"]
    assert mine == [], f"no lock left behind: {mine}"
    await _close(service)


def _count(emulator: Emulator) -> int:
    return (emulator.source(SOURCE) or "").split("\n").count(LINE)


async def _close(service: SourceService) -> None:
    await service.close()
    await service.client.close()
