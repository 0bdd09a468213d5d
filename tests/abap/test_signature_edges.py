"""Parameter lists that used to be misread: a generic typing (``TYPE any``, ``TYPE STANDARD
TABLE``) swallowed the next word (``RAISING``, the next parameter) as its type name, and
``DEFAULT sy-uname`` declared a parameter ``UNAME``; completion after ``lo->`` now offers
the implemented interfaces as ``zif_x~`` prefixes. The fixture is a small class written
for these cases."""

from __future__ import annotations

from pathlib import Path

import pytest

from adt.abap.completion import complete
from adt.abap.index import ProgramIndex, Unit
from adt.abap.signatures import signature
from adt.abap.symbols import Symbol, SymbolKind

FIXTURE = Path(__file__).resolve().parent / "fixtures" / "zcl_signature_edges.clas.abap"
UNIT = "src"


@pytest.fixture(scope="module")
def index() -> ProgramIndex:
    return ProgramIndex("ZCL_SIGNATURE_EDGES", [Unit(UNIT, FIXTURE.read_text(encoding="utf-8"))])


def _method(index: ProgramIndex, name: str) -> Symbol:
    cls = index.symbol("ZCL_SIGNATURE_EDGES")
    assert cls is not None and cls.members is not None
    method = cls.members.local(name)
    assert method is not None
    return method


def _line(name: str) -> int:
    lines = FIXTURE.read_text(encoding="utf-8").split("\n")
    return next(n for n, text in enumerate(lines, start=1) if name in text)


def test_generic_typings_end_before_the_next_parameter(index: ProgramIndex) -> None:
    params = {p.name: p for p in _method(index, "ATTACH").params}
    assert list(params) == ["IV_PAYLOAD", "IT_ROWS", "IV_USER", "IV_COUNT", "RV_OK"]
    assert params["IV_PAYLOAD"].typing == "TYPE ANY"
    assert params["IT_ROWS"].typing == "TYPE STANDARD TABLE"
    assert params["RV_OK"].typing == "TYPE ABAP_BOOL"
    keep = {p.name: p.typing for p in _method(index, "KEEP").params}
    assert keep == {"IT_ANY": "TYPE ANY TABLE", "IT_LINES": "TYPE STANDARD TABLE OF STRING"}


def test_a_generic_typing_before_raising_keeps_the_exception_a_class(index: ProgramIndex) -> None:
    fail = _method(index, "FAIL")
    assert [(p.name, p.typing) for p in fail.params] == [("IV_PAYLOAD", "TYPE ANY")]
    line = _line("lcx_error=>raise( |unexpected")
    found = index.occurrence_at(UNIT, line, 6)
    assert found is not None
    assert (found.symbol.kind, found.symbol.name) == (SymbolKind.CLASS, "LCX_ERROR")
    raise_call = index.occurrence_at(UNIT, line, 16)
    assert raise_call is not None and raise_call.symbol.name == "RAISE"


def test_default_values_are_one_operand(index: ProgramIndex) -> None:
    params = {p.name: p for p in _method(index, "ATTACH").params}
    assert "UNAME" not in params
    assert params["IV_USER"].default == "sy-uname" and params["IV_USER"].optional
    assert params["IV_COUNT"].default == "-1"
    assert "DEFAULT sy-uname" in signature(_method(index, "ATTACH"))


def test_member_completion_offers_interface_prefixes(index: ProgramIndex) -> None:
    line = _line("    lo_self->")
    found = complete(index, UNIT, line, len("    lo_self->"))
    names = [p.identifier for p in found.proposals]
    assert "LIF_RUN~" in names and "ATTACH" in names
    prefix = next(p for p in found.proposals if p.identifier == "LIF_RUN~")
    assert prefix.symbol is not None and prefix.symbol.kind is SymbolKind.INTERFACE
