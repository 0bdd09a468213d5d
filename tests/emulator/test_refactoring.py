"""The rename refactoring at ``/sap/bc/adt/refactorings`` (docs/protocol/refactoring.md):
evaluate names the symbol and every place, preview answers the replacements for the new
name, execute applies them all or none — over real HTTP, as public clients send them."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from urllib.parse import quote

import httpx
import pytest
from lxml import etree

from adt.emulator import Emulator

from .helpers import ADT, STATEFUL, fetch_token, lock, unlock, write_abapgit

REL = "http://www.sap.com/adt/relations/refactoring/rename"
CHANGE_PACKAGE = "http://www.sap.com/adt/relations/refactoring/changepackage"
NS = {
    "rename": "http://www.sap.com/adt/refactoring/renamerefactoring",
    "generic": "http://www.sap.com/adt/refactoring/genericrefactoring",
    "adtcore": "http://www.sap.com/adt/core",
}
CLASS = f"{ADT}/oo/classes/zcl_rn_calc"
CLASS_MAIN = f"{CLASS}/source/main"
INTF_MAIN = f"{ADT}/oo/interfaces/zif_rn_calc/source/main"
REPORT_MAIN = f"{ADT}/programs/programs/zrn_report/source/main"

INTF = """INTERFACE zif_rn_calc PUBLIC.
  METHODS add IMPORTING iv_a TYPE i iv_b TYPE i RETURNING VALUE(rv_sum) TYPE i.
ENDINTERFACE."""
CLAS = """CLASS zcl_rn_calc DEFINITION PUBLIC CREATE PUBLIC.
  PUBLIC SECTION.
    INTERFACES zif_rn_calc.
    DATA mv_total TYPE i.
    METHODS double IMPORTING iv_value TYPE i RETURNING VALUE(rv_result) TYPE i.
ENDCLASS.

CLASS zcl_rn_calc IMPLEMENTATION.
  METHOD zif_rn_calc~add.
    DATA lv_sum TYPE i.
    lv_sum = iv_a + iv_b.
    mv_total = mv_total + lv_sum.
    rv_sum = lv_sum.
  ENDMETHOD.
  METHOD double.
    rv_result = iv_value * 2.
  ENDMETHOD.
ENDCLASS."""
PROG = """REPORT zrn_report.
CLASS lcl_helper DEFINITION.
  PUBLIC SECTION.
    CLASS-METHODS run.
ENDCLASS.
CLASS lcl_helper IMPLEMENTATION.
  METHOD run.
  ENDMETHOD.
ENDCLASS.
DATA lo_calc TYPE REF TO zcl_rn_calc.
DATA lv_x TYPE i.
START-OF-SELECTION.
  CREATE OBJECT lo_calc.
  lv_x = lo_calc->zif_rn_calc~add( iv_a = 1 iv_b = 2 ).
  lv_x = lo_calc->double( iv_value = lv_x ).
  WRITE lo_calc->mv_total.
  lcl_helper=>run( )."""


@pytest.fixture
async def served(tmp_path: Path) -> AsyncIterator[tuple[Emulator, httpx.AsyncClient]]:
    files = {
        "zif_rn_calc.intf.abap": INTF,
        "zcl_rn_calc.clas.abap": CLAS,
        "zrn_report.prog.abap": PROG,
    }
    emulator = Emulator(
        seed_dirs=[write_abapgit(tmp_path, files)],
        users={"DEVELOPER": "developer", "COLLEAGUE": "colleague"},
    )
    async with emulator.serve() as url:
        async with httpx.AsyncClient(base_url=url, auth=("DEVELOPER", "developer")) as client:
            yield emulator, client
    assert emulator.locks() == []


def _at(text: str, word: str, nth: int = 0) -> tuple[int, int]:
    """Line (1-based) and column (0-based) of the ``nth`` occurrence of ``word``."""
    seen = 0
    for number, line in enumerate(text.split("\n"), start=1):
        start = line.lower().find(word.lower())
        while start >= 0:
            if seen == nth:
                return number, start
            seen += 1
            start = line.lower().find(word.lower(), start + 1)
    raise AssertionError(word)


async def _evaluate(
    client: httpx.AsyncClient, source: str, text: str, word: str, nth: int = 0
) -> httpx.Response:
    token = await fetch_token(client)
    line, column = _at(text, word, nth)
    uri = f"{source}#start={line},{column};end={line},{column + len(word)}"
    return await client.post(
        f"{ADT}/refactorings?step=evaluate&rel={quote(REL, safe='')}&uri={quote(uri, safe='')}",
        headers={"x-csrf-token": token, "Content-Type": "application/*", "Accept": "application/*"},
    )


def _places(body: bytes) -> dict[str, list[tuple[str, str, str]]]:
    root = etree.fromstring(body)
    found: dict[str, list[tuple[str, str, str]]] = {}
    for obj in root.iterfind(".//generic:affectedObject", NS):
        found[obj.get(f"{{{NS['adtcore']}}}uri") or ""] = [
            (
                d.findtext("generic:rangeFragment", namespaces=NS) or "",
                d.findtext("generic:contentOld", namespaces=NS) or "",
                d.findtext("generic:contentNew", namespaces=NS) or "",
            )
            for d in obj.iterfind(".//generic:textReplaceDelta", NS)
        ]
    return found


def _preview_body(evaluated: bytes, new: str, transport: str = "") -> bytes:
    root = etree.fromstring(evaluated)
    root.find("rename:newName", NS).text = new  # type: ignore[union-attr]
    generic = root.find("generic:genericRefactoring", NS)
    assert generic is not None
    generic.find("generic:transport", NS).text = transport  # type: ignore[union-attr]
    return etree.tostring(root, xml_declaration=True, encoding="UTF-8")


async def _post(client: httpx.AsyncClient, query: str, body: bytes) -> httpx.Response:
    token = await fetch_token(client)
    return await client.post(
        f"{ADT}/refactorings?{query}",
        content=body,
        headers={"x-csrf-token": token, "Content-Type": "application/*", "Accept": "application/*"},
    )


@pytest.mark.parametrize(
    ("source", "text", "word", "nth", "expected"),
    [
        # a method of an interface: its declaration, the implementation, the call
        (INTF_MAIN, INTF, "add", 0, {INTF_MAIN: 1, CLASS_MAIN: 1, REPORT_MAIN: 1}),
        # an attribute: declaration, two uses in the class, one in the report
        (CLASS_MAIN, CLAS, "mv_total", 0, {CLASS_MAIN: 3, REPORT_MAIN: 1}),
        # a parameter: declaration, the use in the method, the named argument of the call
        (CLASS_MAIN, CLAS, "iv_value", 0, {CLASS_MAIN: 2, REPORT_MAIN: 1}),
        # a local variable: only inside its method
        (CLASS_MAIN, CLAS, "lv_sum", 0, {CLASS_MAIN: 4}),
        # a local class and its static call
        (REPORT_MAIN, PROG, "lcl_helper", 0, {REPORT_MAIN: 3}),
        # a global class: its DEFINITION and IMPLEMENTATION, the report's TYPE REF TO
        (CLASS_MAIN, CLAS, "zcl_rn_calc", 0, {CLASS_MAIN: 2, REPORT_MAIN: 1}),
        # a global interface: its own statement, INTERFACES, METHOD i~m, the call i~m
        (INTF_MAIN, INTF, "zif_rn_calc", 0, {INTF_MAIN: 1, CLASS_MAIN: 2, REPORT_MAIN: 1}),
    ],
)
async def test_evaluate_lists_every_place_of_the_symbol(
    served: tuple[Emulator, httpx.AsyncClient],
    source: str,
    text: str,
    word: str,
    nth: int,
    expected: dict[str, int],
) -> None:
    _, client = served
    answer = await _evaluate(client, source, text, word, nth)
    assert answer.status_code == 200, answer.text
    root = etree.fromstring(answer.content)
    assert root.tag == f"{{{NS['rename']}}}renameRefactoring"
    assert root.findtext("rename:oldName", namespaces=NS) == word
    assert root.findtext("rename:newName", namespaces=NS) == word  # unchanged until preview
    places = _places(answer.content)
    assert {uri: len(deltas) for uri, deltas in places.items()} == expected
    for deltas in places.values():
        assert all(old.lower() == word.lower() for _, old, _ in deltas)


async def test_preview_then_execute_renames_everywhere(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    _emulator, client = served
    evaluated = await _evaluate(client, CLASS_MAIN, CLAS, "mv_total")
    preview = await _post(
        client,
        f"step=preview&rel={quote(REL, safe='')}",
        _preview_body(evaluated.content, "mv_sum_all"),
    )
    assert preview.status_code == 200, preview.text
    places = _places(preview.content)
    assert all(new == "mv_sum_all" for deltas in places.values() for _, _, new in deltas)
    generic = etree.fromstring(preview.content).find("generic:genericRefactoring", NS)
    assert generic is not None
    executed = await _post(client, "step=execute", etree.tostring(generic))
    assert executed.status_code == 200, executed.text
    clas = (await client.get(CLASS_MAIN)).text
    prog = (await client.get(REPORT_MAIN)).text
    assert "mv_total" not in clas.lower() and clas.count("mv_sum_all") == 3
    assert "WRITE lo_calc->mv_sum_all." in prog
    # inactive versions, as a real execute leaves them
    assert "mv_total" in (await client.get(CLASS_MAIN + "?version=active")).text


async def test_execute_refuses_everything_when_one_object_changed_meanwhile(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    emulator, client = served
    evaluated = await _evaluate(client, CLASS_MAIN, CLAS, "mv_total")
    preview = await _post(
        client,
        f"step=preview&rel={quote(REL, safe='')}",
        _preview_body(evaluated.content, "mv_grand"),
    )
    generic = etree.fromstring(preview.content).find("generic:genericRefactoring", NS)
    assert generic is not None
    emulator.write_as(
        "COLLEAGUE",
        REPORT_MAIN,
        PROG.replace("WRITE lo_calc->mv_total.", "WRITE / lo_calc->mv_total."),
    )
    executed = await _post(client, "step=execute", etree.tostring(generic))
    assert executed.status_code == 400
    assert "ZRN_REPORT was changed" in executed.text
    assert "mv_grand" not in (await client.get(CLASS_MAIN)).text  # nothing written


async def test_execute_refuses_an_object_another_user_is_editing(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    _emulator, client = served
    evaluated = await _evaluate(client, CLASS_MAIN, CLAS, "lv_sum")
    preview = await _post(
        client,
        f"step=preview&rel={quote(REL, safe='')}",
        _preview_body(evaluated.content, "lv_total"),
    )
    generic = etree.fromstring(preview.content).find("generic:genericRefactoring", NS)
    assert generic is not None
    async with httpx.AsyncClient(
        base_url=str(client.base_url), auth=("COLLEAGUE", "colleague")
    ) as other:
        token = await fetch_token(other, stateful=True)
        handle = await lock(other, token, CLASS)
        try:
            executed = await _post(client, "step=execute", etree.tostring(generic))
            assert executed.status_code == 403
            assert "COLLEAGUE" in executed.text
        finally:
            await unlock(other, token, CLASS, handle)
    assert "lv_total" not in (await client.get(CLASS_MAIN, headers=STATEFUL)).text


@pytest.mark.parametrize(
    ("new", "message"),
    [("lv_x y", "not a valid ABAP name"), ("iv_a", "already exists")],
)
async def test_preview_refuses_a_bad_or_taken_name(
    served: tuple[Emulator, httpx.AsyncClient], new: str, message: str
) -> None:
    _, client = served
    evaluated = await _evaluate(client, CLASS_MAIN, CLAS, "iv_b")
    preview = await _post(
        client, f"step=preview&rel={quote(REL, safe='')}", _preview_body(evaluated.content, new)
    )
    assert preview.status_code == 400
    assert message in preview.text


async def test_a_global_class_is_previewed_under_a_free_customer_name_only(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    _, client = served
    evaluated = await _evaluate(client, CLASS_MAIN, CLAS, "zcl_rn_calc")
    assert evaluated.status_code == 200, evaluated.text
    query = f"step=preview&rel={quote(REL, safe='')}"
    for name, said in (
        ("zif_rn_calc", "Interface ZIF_RN_CALC already exists"),
        ("cl_rn_calc", "customer name range"),
        ("zcl_" + "x" * 27, "not a valid ABAP name"),
    ):
        refused = await _post(client, query, _preview_body(evaluated.content, name))
        assert refused.status_code == 400 and said in refused.text, (name, refused.text)
    preview = await _post(client, query, _preview_body(evaluated.content, "zcl_rn_adder"))
    assert preview.status_code == 200, preview.text
    places = _places(preview.content)
    assert [new for _, _, new in places[CLASS_MAIN]] == ["zcl_rn_adder"] * 2
    # the class itself is not renamed by execute here: the client creates the new object
    generic = etree.fromstring(preview.content).find("generic:genericRefactoring", NS)
    executed = await _post(client, "step=execute", etree.tostring(generic))
    assert executed.status_code == 400 and "creates the new object" in executed.text
    assert "zcl_rn_adder" not in (await client.get(REPORT_MAIN)).text, "nothing written"


async def test_a_program_and_other_refactorings_are_refused(
    served: tuple[Emulator, httpx.AsyncClient],
) -> None:
    _, client = served
    refused = await _evaluate(client, REPORT_MAIN, PROG, "zrn_report")
    assert refused.status_code == 400
    assert "repository object" in refused.text
    token = await fetch_token(client)
    change_package = await client.post(
        f"{ADT}/refactorings?step=evaluate&rel={quote(CHANGE_PACKAGE, safe='')}",
        headers={"x-csrf-token": token},
    )
    assert change_package.status_code == 404
    assert (await client.get(f"{ADT}/refactorings?step=evaluate")).status_code == 405
