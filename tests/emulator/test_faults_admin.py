"""Fault injection, inspection and the admin endpoint."""

from __future__ import annotations

import time

import httpx
import pytest

from adt.emulator import Emulator

from .helpers import ADT, GREETER, REPORT, fetch_token, lock, put_source


async def test_added_latency(emulator: Emulator, adt_client: httpx.AsyncClient) -> None:
    emulator.faults.add_latency(0.2, path_prefix=f"{ADT}/oo/")
    started = time.monotonic()
    await adt_client.get(GREETER)
    slow = time.monotonic() - started
    started = time.monotonic()
    await adt_client.get(REPORT)
    fast = time.monotonic() - started
    assert slow >= 0.2 > fast
    emulator.faults.clear()


async def test_fail_next_answers_5xx_and_applies_nothing(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    emulator.faults.fail_next(status=503, count=1, method="POST")
    failed = await adt_client.post(
        f"{REPORT}?_action=LOCK&accessMode=MODIFY",
        headers={"x-csrf-token": token, "X-sap-adt-sessiontype": "stateful"},
    )
    assert failed.status_code == 503
    assert emulator.locks() == []
    assert await lock(adt_client, token, REPORT)
    assert emulator.request_log[-2].status == 503


async def test_drop_next_in_process_is_a_transport_error(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    emulator.faults.drop_next(path_prefix=GREETER)
    with pytest.raises(httpx.TransportError):
        await adt_client.get(GREETER)
    assert (await adt_client.get(GREETER)).status_code == 200


def test_drop_next_over_a_socket(emulator: Emulator, emulator_url: str) -> None:
    emulator.faults.drop_next(count=1)
    with httpx.Client(base_url=emulator_url, auth=("DEVELOPER", "developer")) as client:
        with pytest.raises(httpx.TransportError):
            client.get(GREETER)
        assert client.get(GREETER).status_code == 200


async def test_request_log_and_counts(emulator: Emulator, adt_client: httpx.AsyncClient) -> None:
    emulator.reset_request_log()
    await adt_client.get(
        f"{GREETER}?version=active", headers={"X-sap-adt-sessiontype": "stateless"}
    )
    await adt_client.get(GREETER)
    counts = emulator.request_counts()
    assert counts[f"GET {GREETER}"] == 2
    first = emulator.request_log[0]
    assert (first.method, first.path, first.query, first.status) == (
        "GET",
        GREETER,
        "version=active",
        200,
    )
    assert (first.session_type, first.user) == ("stateless", "DEVELOPER")


async def test_admin_endpoint_is_off_by_default(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get("/__emulator__/locks")
    assert response.status_code == 404
    assert response.headers["content-type"] == "application/xml"


async def test_admin_endpoint() -> None:
    emulator = Emulator(admin=True)
    transport = httpx.ASGITransport(app=emulator.app)
    async with (
        httpx.AsyncClient(transport=transport, base_url="http://e") as admin,
        httpx.AsyncClient(
            transport=transport, base_url="http://e", auth=("DEVELOPER", "developer")
        ) as adt,
    ):
        handle = (
            await admin.post(
                "/__emulator__/lock_as", json={"user": "COLLEAGUE", "object_uri": REPORT}
            )
        ).json()["handle"]
        locks = (await admin.get("/__emulator__/locks")).json()
        assert locks == [
            {
                "object_uri": REPORT,
                "user": "COLLEAGUE",
                "handle": handle,
                "context_id": locks[0]["context_id"],
            }
        ]
        refused = await admin.post(
            "/__emulator__/write_as",
            json={"user": "DEVELOPER", "source_uri": f"{REPORT}/source/main", "text": "x"},
        )
        assert refused.status_code == 409
        await admin.post(
            "/__emulator__/unlock_as", json={"user": "COLLEAGUE", "object_uri": REPORT}
        )
        written = await admin.post(
            "/__emulator__/write_as",
            json={"user": "COLLEAGUE", "source_uri": f"{REPORT}/source/main", "text": "REPORT y."},
        )
        assert written.status_code == 200
        source = await admin.get("/__emulator__/source", params={"uri": f"{REPORT}/source/main"})
        assert source.text == "REPORT y."

        token = await fetch_token(adt, stateful=True)
        await lock(adt, token, REPORT)
        assert len((await admin.get("/__emulator__/contexts")).json()) == 2  # + COLLEAGUE
        await admin.post("/__emulator__/expire_contexts", json={})
        assert (await admin.get("/__emulator__/locks")).json() == []
        adt.cookies.delete("sap-contextid")  # the context is dead; forget it
        await admin.post("/__emulator__/expire_csrf_tokens")
        assert (await put_source(adt, token, f"{REPORT}/source/main", "X", "x")).status_code == 403

        await admin.post("/__emulator__/faults/fail_next", json={"status": 502})
        assert (await adt.get(GREETER)).status_code == 502
        await admin.post("/__emulator__/faults/latency", json={"seconds": 0.01})
        assert len((await admin.get("/__emulator__/faults")).json()) == 1
        await admin.delete("/__emulator__/faults")
        await admin.post("/__emulator__/faults/drop_next", json={"count": 1})
        with pytest.raises(httpx.TransportError):
            await adt.get(GREETER)
        counts = (await admin.get("/__emulator__/requests/counts")).json()
        assert counts[f"GET {GREETER}"] == 2
        assert all(
            not e["path"].startswith("/__emulator__")
            for e in (await admin.get("/__emulator__/requests")).json()
        )
        await admin.delete("/__emulator__/requests")
        assert (await admin.get("/__emulator__/requests")).json() == []
        assert len((await admin.get("/__emulator__/sessions")).json()) == 1
