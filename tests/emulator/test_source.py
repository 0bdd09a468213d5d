"""Source read and write (§3, §5)."""

from __future__ import annotations

import httpx
import pytest

from adt.emulator import Emulator

from .helpers import (
    GREETER,
    LARGE,
    REPORT,
    exc_info,
    fetch_token,
    lock,
    put_source,
    unlock,
)


async def test_source_is_crlf_without_final_newline(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{REPORT}/source/main", headers={"Accept": "text/plain"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "text/plain; charset=utf-8"
    body = response.content
    assert b"\r\n" in body
    assert b"\n" not in body.replace(b"\r\n", b"")
    assert not body.endswith(b"\r\n")
    assert len(response.headers["etag"]) == 18
    assert response.headers["etag"].endswith("0011")
    assert response.headers["last-modified"].endswith(" GMT")


async def test_put_stores_like_a4h_and_reads_back(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, REPORT)
    text = "REPORT zdemo_report.  \r\n\tWRITE 'x'.\t \nWRITE 'y'.\n\n\n"
    response = await put_source(adt_client, token, f"{REPORT}/source/main", handle, text)
    assert response.status_code == 200
    assert response.content == b""
    assert response.headers["content-length"] == "0"
    assert "content-type" not in response.headers
    assert response.headers["etag"].endswith("0001")
    read = await adt_client.get(f"{REPORT}/source/main", headers=STATEFUL_ACCEPT)
    assert read.content == b"REPORT zdemo_report.\r\n\tWRITE 'x'.\r\nWRITE 'y'."
    assert read.headers["etag"] == response.headers["etag"]
    assert read.headers["last-modified"] == response.headers["last-modified"]
    assert (
        emulator.source(f"{REPORT}/source/main") == "REPORT zdemo_report.\n\tWRITE 'x'.\nWRITE 'y'."
    )


STATEFUL_ACCEPT = {"X-sap-adt-sessiontype": "stateful", "Accept": "text/plain"}


async def test_classes_keep_trailing_newlines(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, GREETER)
    response = await put_source(
        adt_client, token, f"{GREETER}/includes/macros", handle, "* macros  \n\n"
    )
    assert response.status_code == 200
    read = await adt_client.get(f"{GREETER}/includes/macros", headers=STATEFUL_ACCEPT)
    assert read.content == b"* macros\r\n\r\n"


async def test_versions(emulator: Emulator, adt_client: httpx.AsyncClient) -> None:
    source = f"{REPORT}/source/main"
    original = emulator.source(source, "active")
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, REPORT)
    await put_source(adt_client, token, source, handle, "REPORT zdemo_report.\nWRITE 'new'.")
    for query, expected in [
        ("", "new"),
        ("?version=inactive", "new"),
        ("?version=workingArea", "new"),
        ("?version=active", "old"),
    ]:
        read = await adt_client.get(source + query, headers=STATEFUL_ACCEPT)
        text = read.text.replace("\r\n", "\n")
        assert (text == original) == (expected == "old"), query
        assert read.headers["etag"].endswith("0011" if expected == "old" else "0001")
    assert emulator.source(source, "active") == original


async def test_missing_handle_is_400_wrong_handle_is_423(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client, stateful=True)
    missing = await put_source(adt_client, token, f"{REPORT}/source/main", None, "REPORT x.")
    assert missing.status_code == 400
    info = exc_info(missing)
    assert info["type"] == "ExceptionParameterNotFound"
    assert (info["T100KEY-ID"], info["T100KEY-NO"], info["T100KEY-V1"]) == (
        "SADT_RESOURCE",
        "017",
        "lockHandle",
    )
    wrong = await put_source(adt_client, token, f"{GREETER}/source/main", "ZZ_INVALID_0001", "x")
    assert wrong.status_code == 423
    info = exc_info(wrong)
    assert info["type"] == "ExceptionResourceInvalidLockHandle"
    assert info["message"] == (
        "Resource CLASS ZCL_DEMO_GREETER is not locked (invalid lock handle: ZZ_INVALID_0001)"
    )
    assert (info["T100KEY-NO"], info["T100KEY-V3"]) == ("026", "ZZ_INVALID_0001")


async def test_handle_of_another_context_is_refused(emulator: Emulator) -> None:
    transport = httpx.ASGITransport(app=emulator.app)
    auth = ("DEVELOPER", "developer")
    async with (
        httpx.AsyncClient(transport=transport, base_url="http://e", auth=auth) as first,
        httpx.AsyncClient(transport=transport, base_url="http://e", auth=auth) as second,
    ):
        token = await fetch_token(first, stateful=True)
        handle = await lock(first, token, REPORT)
        token2 = await fetch_token(second, stateful=True)
        response = await put_source(second, token2, f"{REPORT}/source/main", handle, "REPORT x.")
    assert response.status_code == 423
    assert exc_info(response)["message"].startswith("Resource INCLUDE ZDEMO_REPORT is not locked")


async def test_long_lines_are_refused_with_their_number(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, REPORT)
    before = emulator.source(f"{REPORT}/source/main")
    text = "REPORT x.\n" + "*" * 255 + "\n" + "*" * 256
    response = await put_source(adt_client, token, f"{REPORT}/source/main", handle, text)
    assert response.status_code == 400
    info = exc_info(response)
    assert info["type"] == "ExceptionResourceBadRequest"
    assert info["message"] == "The line 3 exceeds 255 characters. Source code cannot be processed"
    assert info["maxLineLength"] == "255"
    assert info["com.sap.adt.communicationFramework.subType"] == "TooLongLine"
    assert (info["T100KEY-ID"], info["T100KEY-NO"], info["T100KEY-V1"]) == ("SEDI_ADT", "015", "3")
    assert emulator.source(f"{REPORT}/source/main") == before


async def test_changed_at_strictly_increases_on_rapid_writes(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, REPORT)
    etags, dates = [], []
    for i in range(4):
        response = await put_source(
            adt_client, token, f"{REPORT}/source/main", handle, f"REPORT x.\nWRITE {i}."
        )
        etags.append(response.headers["etag"])
        dates.append(response.headers["last-modified"])
    assert etags == sorted(set(etags))
    assert len(set(dates)) == 4
    await unlock(adt_client, token, REPORT, handle)


async def test_large_class_is_served_whole(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{LARGE}/source/main")
    assert response.status_code == 200
    assert response.text.count("\r\n") == 9_999


@pytest.mark.parametrize("accept", ["text/plain", "*/*", "text/plain; charset=utf-8", "text/*"])
async def test_source_accepts(adt_client: httpx.AsyncClient, accept: str) -> None:
    response = await adt_client.get(f"{REPORT}/source/main", headers={"Accept": accept})
    assert response.status_code == 200


async def test_source_406_and_404(adt_client: httpx.AsyncClient) -> None:
    bad = await adt_client.get(f"{REPORT}/source/main", headers={"Accept": "application/json"})
    assert bad.status_code == 406
    missing = await adt_client.get(f"{REPORT}x/source/main")
    assert missing.status_code == 404
    no_include = await adt_client.get("/sap/bc/adt/oo/classes/zcl_demo_counter/includes/macros")
    assert no_include.status_code == 404


async def test_put_into_a_never_created_include_fails_like_sap(
    adt_client: httpx.AsyncClient,
) -> None:
    counter = "/sap/bc/adt/oo/classes/zcl_demo_counter"
    token = await fetch_token(adt_client, stateful=True)
    handle = await lock(adt_client, token, counter)
    refused = await put_source(adt_client, token, f"{counter}/includes/macros", handle, "* m")
    assert refused.status_code == 500
    assert "does not have any inactive version" in exc_info(refused)["message"]
    created = await adt_client.post(
        f"{counter}/includes?lockHandle={handle}",
        content=(
            '<?xml version="1.0" encoding="UTF-8"?><class:abapClassInclude '
            'xmlns:class="http://www.sap.com/adt/oo/classes" '
            'xmlns:adtcore="http://www.sap.com/adt/core" adtcore:name="dummy" '
            'class:includeType="macros"/>'
        ),
        headers={"x-csrf-token": token, "X-sap-adt-sessiontype": "stateful"},
    )
    assert created.status_code == 200
    again = await put_source(adt_client, token, f"{counter}/includes/macros", handle, "* m")
    assert again.status_code == 200
