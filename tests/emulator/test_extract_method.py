"""Extract method at ``/sap/bc/adt/refactorings`` (docs/protocol/refactoring.md): evaluate
infers the new method's signature from the index, preview answers the declaration, the call
and the implementation, execute writes them — over real HTTP, in abap-adt-api's shapes."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from lxml import etree

from adt.emulator import Emulator

from .helpers import ADT, activate, fetch_token, write_abapgit

REL = "http://www.sap.com/adt/relations/refactoring/extractmethod"
NS = {
    "em": "http://www.sap.com/adt/refactoring/extractmethodrefactoring",
    "generic": "http://www.sap.com/adt/refactoring/genericrefactoring",
    "adtcore": "http://www.sap.com/adt/core",
}
CLASS = f"{ADT}/oo/classes/zcl_em_calc"
MAIN = f"{CLASS}/source/main"
CLAS = """CLASS zcl_em_calc DEFINITION PUBLIC CREATE PUBLIC.
  PUBLIC SECTION.
    DATA mv_total TYPE i.
    METHODS run IMPORTING iv_a TYPE i EXPORTING ev_text TYPE string RETURNING VALUE(rv_sum) TYPE i.
    CLASS-METHODS twice IMPORTING iv_n TYPE i RETURNING VALUE(rv_n) TYPE i.
  PRIVATE SECTION.
    DATA mv_seen TYPE i.
ENDCLASS.

CLASS zcl_em_calc IMPLEMENTATION.
  METHOD run.
    DATA lv_sum TYPE i.
    DATA lv_text TYPE string.
    lv_sum = iv_a + 1.
    IF lv_sum > 2.
      lv_sum = lv_sum * iv_a.
      lv_text = `big`.
    ENDIF.
    mv_total = mv_total + lv_sum.
    ev_text = lv_text.
    rv_sum = lv_sum.
  ENDMETHOD.
  METHOD twice.
    DATA lv_tmp TYPE i.
    lv_tmp = iv_n * 2.
    rv_n = lv_tmp.
    RETURN.
  ENDMETHOD.
ENDCLASS."""


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[Emulator, httpx.AsyncClient]]:
    emulator = Emulator(
        seed_dirs=[write_abapgit(tmp_path, {"zcl_em_calc.clas.abap": CLAS})],
        users={"DEVELOPER": "developer", "COLLEAGUE": "colleague"},
    )
    async with emulator.serve() as url:
        async with httpx.AsyncClient(base_url=url, auth=("DEVELOPER", "developer")) as client:
            yield emulator, client
    assert emulator.locks() == []


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.split("\n"), 1) if needle in line)


async def _post(client: httpx.AsyncClient, query: str, body: bytes = b"") -> httpx.Response:
    token = await fetch_token(client)
    return await client.post(
        f"{ADT}/refactorings?{query}",
        content=body,
        headers={"x-csrf-token": token, "Content-Type": "application/*", "Accept": "application/*"},
    )


async def _evaluate(client: httpx.AsyncClient, first: int, last: int) -> httpx.Response:
    """The lines ``first``–``last`` selected as an editor sends them (the end at the start
    of the line after the selection)."""
    uri = f"{MAIN}#start={first},0;end={last + 1},0"
    return await _post(client, f"step=evaluate&rel={quote(REL, safe='')}&uri={quote(uri, safe='')}")


def _parameters(body: bytes) -> dict[str, tuple[str, str, str]]:
    root = etree.fromstring(body)
    return {
        p.findtext("em:name", namespaces=NS) or "": (
            p.findtext("em:direction", namespaces=NS) or "",
            p.findtext("em:typeType", namespaces=NS) or "",
            p.findtext("em:type", namespaces=NS) or "",
        )
        for p in root.iterfind("em:parameters/em:parameter", NS)
    }


def _named(evaluated: bytes, name: str) -> bytes:
    root = etree.fromstring(evaluated)
    root.find("em:name", NS).text = name  # type: ignore[union-attr]
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


async def test_evaluate_infers_the_signature_from_reads_and_writes(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    _, client = served
    first, last = _line(CLAS, "IF lv_sum > 2."), _line(CLAS, "ENDIF.")
    answer = await _evaluate(client, first, last)
    assert answer.status_code == 200, answer.text
    root = etree.fromstring(answer.content)
    assert root.tag == f"{{{NS['em']}}}extractMethodRefactoring"
    assert _parameters(answer.content) == {
        "lv_sum": ("CHANGING", "TYPE", "i"),  # read, written, used after
        "iv_a": ("IMPORTING", "TYPE", "i"),  # read only
        "lv_text": ("EXPORTING", "TYPE", "string"),  # written only
    }
    assert root.findtext("em:isStatic", namespaces=NS) == "false"
    assert root.findtext("em:className", namespaces=NS) == "ZCL_EM_CALC"
    assert (root.findtext("em:content", namespaces=NS) or "").startswith("    IF lv_sum > 2.")
    affected = root.find(".//generic:affectedObject", NS)
    assert affected is not None and affected.get(f"{{{NS['adtcore']}}}uri") == MAIN


async def test_preview_and_execute_write_a_method_that_activates(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    emulator, client = served
    first, last = _line(CLAS, "IF lv_sum > 2."), _line(CLAS, "ENDIF.")
    evaluated = await _evaluate(client, first, last)
    preview = await _post(
        client, f"step=preview&rel={quote(REL, safe='')}", _named(evaluated.content, "scale")
    )
    assert preview.status_code == 200, preview.text
    generic = etree.fromstring(preview.content)
    assert generic.tag == f"{{{NS['generic']}}}genericRefactoring"  # bare, as parsed
    assert len(generic.findall(".//generic:textReplaceDelta", NS)) == 3
    assert "scale" not in emulator.source(MAIN, "inactive")  # a preview changes nothing
    executed = await _post(client, "step=execute", preview.content)
    assert executed.status_code == 200, executed.text
    text = emulator.source(MAIN, "inactive")
    assert "    METHODS scale\n      IMPORTING\n        iv_a TYPE i\n" in text
    assert (
        "      EXPORTING\n        lv_text TYPE string\n      CHANGING\n        lv_sum TYPE i."
        in text
    )
    assert "    scale(\n      EXPORTING iv_a = iv_a\n      IMPORTING lv_text = lv_text\n" in text
    body = text[text.index("  METHOD scale.") :]
    assert body.startswith("  METHOD scale.\n    IF lv_sum > 2.\n      lv_sum = lv_sum * iv_a.")
    activated = await activate(client, await fetch_token(client), CLASS, stateful=False)
    assert activated.status_code == 200, activated.text
    assert 'type="E"' not in activated.text and "scale" in emulator.source(MAIN, "active")


async def test_a_static_method_gets_a_static_method(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    emulator, client = served
    line = _line(CLAS, "lv_tmp = iv_n * 2.")
    evaluated = await _evaluate(client, line, line)
    assert etree.fromstring(evaluated.content).findtext("em:isStatic", namespaces=NS) == "true"
    preview = await _post(
        client, f"step=preview&rel={quote(REL, safe='')}", _named(evaluated.content, "doubled")
    )
    assert preview.status_code == 200, preview.text
    assert (await _post(client, "step=execute", preview.content)).status_code == 200
    text = emulator.source(MAIN, "inactive")
    assert "CLASS-METHODS doubled\n" in text
    assert "    doubled( EXPORTING iv_n = iv_n IMPORTING lv_tmp = lv_tmp )." not in text
    assert "    doubled(\n      EXPORTING iv_n = iv_n\n      IMPORTING lv_tmp = lv_tmp )." in text


@pytest.mark.parametrize(
    ("first", "last", "said"),
    [
        ("lv_sum = lv_sum * iv_a.", "ENDIF.", "splits a block"),  # half an IF
        ("lv_tmp = iv_n * 2.", "RETURN.", "would leave the new method"),
        ("DATA lv_sum TYPE i.", "lv_sum = iv_a + 1.", "declared in the selection"),
        ("CLASS zcl_em_calc IMPLEMENTATION.", "METHOD run.", "inside one method"),
    ],
)
async def test_a_selection_that_cannot_be_a_method_is_refused(
    served: tuple[Emulator, httpx.AsyncClient], first: str, last: str, said: str
) -> None:
    _, client = served
    answer = await _evaluate(client, _line(CLAS, first), _line(CLAS, last))
    assert answer.status_code == 400
    assert said in answer.text


async def test_a_taken_name_or_a_colleagues_change_changes_nothing(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    emulator, client = served
    first, last = _line(CLAS, "IF lv_sum > 2."), _line(CLAS, "ENDIF.")
    evaluated = await _evaluate(client, first, last)
    rel = f"step=preview&rel={quote(REL, safe='')}"
    taken = await _post(client, rel, _named(evaluated.content, "mv_seen"))
    assert taken.status_code == 400 and "already has a component mv_seen" in taken.text
    preview = await _post(client, rel, _named(evaluated.content, "scale"))
    theirs = emulator.source(MAIN, "inactive").replace("lv_sum * iv_a", "lv_sum * 3")
    emulator.write_as("COLLEAGUE", MAIN, theirs)
    executed = await _post(client, "step=execute", preview.content)
    assert executed.status_code == 400 and "changed since the preview" in executed.text
    assert emulator.source(MAIN, "inactive") == theirs
