"""Answers that public ADT clients rely on (docs/protocol/peer-answers.md): creating a test
include on its own, an ATC worklist without a check variant, and the keyword documentation,
over real HTTP as the peers send them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import httpx
import pytest

from adt.emulator import Emulator

from .helpers import ADT, STATEFUL, fetch_token, lock, unlock, write_abapgit

PLAIN = f"{ADT}/oo/classes/zcl_plain"
PLAIN_SOURCE = (
    "CLASS zcl_plain DEFINITION PUBLIC CREATE PUBLIC.\n  PUBLIC SECTION.\n"
    "    METHODS run.\nENDCLASS.\n\nCLASS zcl_plain IMPLEMENTATION.\n  METHOD run.\n"
    "    WRITE 'x'.\n  ENDMETHOD.\nENDCLASS.\n"
)


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[Emulator, httpx.AsyncClient]]:
    """A class without a test include, on a real socket."""
    emulator = Emulator(seed_dirs=[write_abapgit(tmp_path, {"zcl_plain.clas.abap": PLAIN_SOURCE})])
    async with emulator.serve() as url:
        async with httpx.AsyncClient(base_url=url, auth=("DEVELOPER", "developer")) as client:
            yield emulator, client
    assert emulator.locks() == []


async def test_posting_the_test_include_creates_it(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    emulator, client = served
    token = await fetch_token(client, stateful=True)
    include = f"{PLAIN}/includes/testclasses"
    assert (await client.get(include)).status_code == 404
    refused = await client.post(include, headers={"x-csrf-token": token, **STATEFUL})
    assert refused.status_code == 423  # the class must be locked first
    handle = await lock(client, token, PLAIN)
    try:
        created = await client.post(
            f"{include}?lockHandle={handle}", headers={"x-csrf-token": token, **STATEFUL}
        )
        assert created.status_code == 201, created.text
        read = await client.get(include, headers=STATEFUL)
        assert read.text == '*"* use this source file for your ABAP unit test classes'
        written = await client.put(
            f"{include}?lockHandle={handle}",
            content="CLASS ltcl_x DEFINITION FOR TESTING.\nENDCLASS.\n"
            "CLASS ltcl_x IMPLEMENTATION.\nENDCLASS.",
            headers={"x-csrf-token": token, "Content-Type": "text/plain", **STATEFUL},
        )
        assert written.status_code == 200, written.text
    finally:
        assert (await unlock(client, token, PLAIN, handle)).status_code == 200
    assert "ltcl_x" in (emulator.source(include) or "")


async def test_a_worklist_without_variant_uses_the_system_variant(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    _, client = served
    token = await fetch_token(client)
    headers = {"x-csrf-token": token, "Accept": "text/plain"}
    created = await client.post(f"{ADT}/atc/worklists", headers=headers)
    assert created.status_code == 200, created.text
    run = await client.post(
        f"{ADT}/atc/runs?worklistId={created.text}",
        content=(
            '<?xml version="1.0" encoding="UTF-8"?><atc:run maximumVerdicts="100" '
            'xmlns:atc="http://www.sap.com/adt/atc"><objectSets '
            'xmlns:adtcore="http://www.sap.com/adt/core"><objectSet kind="inclusive">'
            f'<adtcore:objectReferences><adtcore:objectReference adtcore:uri="{PLAIN}"/>'
            "</adtcore:objectReferences></objectSet></objectSets></atc:run>"
        ),
        headers={**headers, "Accept": "application/xml", "Content-Type": "application/xml"},
    )
    assert run.status_code == 200, run.text
    assert "FINDING_STATS" in run.text  # the DEFAULT variant's checks ran


async def test_keyword_documentation_answers_html(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    _, client = served
    token = await fetch_token(client)
    response = await client.post(
        f"{ADT}/docu/abap/langu",
        params={"uri": f"{PLAIN}/source/main#start=8,5", "language": "EN", "format": "eclipse"},
        content=PLAIN_SOURCE,
        headers={
            "x-csrf-token": token,
            "Content-Type": "text/plain",
            "Accept": "application/vnd.sap.adt.docu.v1+html,text/html",
        },
    )
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "text/html; charset=utf-8"
    assert "<title>WRITE</title>" in response.text
    missing = await client.post(f"{ADT}/docu/abap/langu", headers={"x-csrf-token": token})
    assert missing.status_code == 400
