"""A lock must not outlive an outage that makes every way of releasing it fail at once: the
write, the unlock and the session end. The stateful context that holds it goes to the
client's release journal, which keeps ending it in the background until the system
answers; the emulator's lock table is empty at the end."""

from __future__ import annotations

import anyio
import httpx
import pytest
from support.emulated import USERS, no_sleep

from adt import AdtClient, ConnectionProfile
from adt.emulator import Emulator
from adt.source import SourceConfig, SourceError, SourceService

REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
SOURCE = f"{REPORT}/source/main"


def _service(emulator: Emulator) -> tuple[SourceService, AdtClient]:
    profile = ConnectionProfile(
        base_url="http://emulator", user="DEVELOPER", password=USERS["DEVELOPER"], name="A4H"
    )  # type: ignore[arg-type]
    client = AdtClient(
        profile,
        transport=httpx.ASGITransport(app=emulator.app),
        sleep=no_sleep,
        release_delays=(0.01, 0.05),
    )
    return SourceService(client, system="A4H", config=SourceConfig(retry_delays=())), client


async def test_a_lock_left_by_an_outage_is_released_when_the_system_is_back(
    emulator: Emulator, caplog: pytest.LogCaptureFixture
) -> None:
    service, client = _service(emulator)
    before = emulator.source(SOURCE)
    read = await service.get_source_v2(REPORT)
    emulator.faults.outage_from(method="PUT")  # the system goes down as the write is sent
    with pytest.raises(SourceError) as failed:
        await service.set_source_v2(
            REPORT, token=read.token, start_line=1, end_line=0, content="* lost in the outage"
        )
    assert failed.value.name == "BACKEND_ERROR"
    assert [lock.object_uri for lock in emulator.locks()] == [REPORT], "the outage kept it"
    assert client.release_journal.pending == [REPORT]
    # the record names the objects, for whoever watches the journals (the soak does)
    taken = [getattr(r, "journal_adopted", None) for r in caplog.records]
    assert (REPORT,) in taken

    emulator.faults.clear()  # the system is back
    with anyio.fail_after(10):
        await client.release_journal.wait_released()
    assert emulator.locks() == []
    assert emulator.source(SOURCE) == before, "nothing was written"
    # the client works on: a fresh session writes and leaves no lock
    again = await service.get_source_v2(REPORT)
    await service.set_source_v2(REPORT, token=again.token, start_line=1, end_line=0, content="* ok")
    assert emulator.source(SOURCE).startswith("* ok\n")
    await service.close()
    await client.close()
    assert emulator.locks() == []


async def test_a_context_still_unreachable_at_close_is_given_up_and_logged(
    emulator: Emulator, caplog: pytest.LogCaptureFixture
) -> None:
    service, client = _service(emulator)
    read = await service.get_source_v2(REPORT)
    emulator.faults.outage_from(method="PUT")
    with pytest.raises(SourceError):
        await service.set_source_v2(
            REPORT, token=read.token, start_line=1, end_line=0, content="* x"
        )
    await service.close()
    await client.close()  # one last try, still in the outage: logged by object
    assert client.release_journal.pending == []
    assert f"the locks on {REPORT} stay until SAP ends their session" in caplog.text
    emulator.faults.clear()
    emulator.expire_contexts()  # SAP's idle timeout ends it
    assert emulator.locks() == []
