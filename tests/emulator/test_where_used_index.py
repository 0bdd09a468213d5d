"""The where-used index answers exactly as resolving every program afresh would — on the
seeded samples, for every declared symbol, and again after writes (of a using program and
of the declaring one, whose symbols then move) — and its corpus spot checks on abapGit
(``ABAP_ADT_ABAPGIT``, default /work/corpora/abapgit/src; skipped when absent)."""

from __future__ import annotations

import gc
import os
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from adt.abap.index import ProgramIndex
from adt.abap.symbols import Symbol
from adt.emulator import Emulator
from adt.emulator.intelligence.handlers import CodeIntelligence
from adt.emulator.intelligence.whereused import collector_paused
from adt.emulator.model import CLAS, INTF

from .helpers import GREETER, INTERFACE, REPORT

Seen = set[tuple[str, int, int, str]]
GREETER_MAIN = f"{GREETER}/source/main"
REPORT_MAIN = f"{REPORT}/source/main"
ABAPGIT = Path(os.environ.get("ABAP_ADT_ABAPGIT", "/work/corpora/abapgit/src"))


def _fresh(intelligence: CodeIntelligence) -> tuple[dict[object, Seen], dict[object, Symbol]]:
    """Usages by symbol key, and every declared symbol, from a fresh index of each program
    (no cache, no where-used index)."""
    repo = intelligence.repo
    repo.refresh()
    usages: dict[object, Seen] = {}
    declared: dict[object, Symbol] = {}
    for program in repo.programs():
        index = ProgramIndex(program.name, program.units, repo)
        for occ in index.occurrences():
            if occ.is_usage:
                usages.setdefault(occ.symbol.key, set()).add(
                    (occ.unit, occ.line, occ.column, occ.role)
                )
            elif occ.role == "declaration":
                declared.setdefault(occ.symbol.key, occ.symbol)
    return usages, declared


def _indexed(intelligence: CodeIntelligence, target: Symbol) -> Seen:
    intelligence.repo.refresh()
    return {
        (u.occurrence.unit, u.occurrence.line, u.occurrence.column, u.occurrence.role)
        for u in intelligence.where.usages(target)
    }


def _agree(intelligence: CodeIntelligence) -> int:
    """Compare the index with the fresh resolution for every declared symbol; how many
    symbols have usages."""
    usages, declared = _fresh(intelligence)
    used = 0
    for key, symbol in declared.items():
        expected = usages.get(key, set())
        assert _indexed(intelligence, symbol) == expected, symbol.name
        used += bool(expected)
    return used


def test_the_index_finds_what_a_fresh_resolution_finds() -> None:
    intelligence = CodeIntelligence(Emulator().state)
    assert _agree(intelligence) > 40
    assert len(intelligence.where.index) > 5  # the answers did come from the index


def test_the_index_follows_writes_of_users_and_of_the_declaring_object() -> None:
    emulator = Emulator()
    intelligence = CodeIntelligence(emulator.state)
    intelligence.repo.refresh()
    interface = intelligence.repo.global_symbol("ZIF_DEMO_GREETING")
    assert interface is not None
    before = _indexed(intelligence, interface)
    report = _text(emulator, REPORT_MAIN)
    extra = "\nDATA gr_extra TYPE REF TO zif_demo_greeting."
    emulator.write_as("DEVELOPER", REPORT_MAIN, "\n" + report + extra)
    after = _indexed(intelligence, interface)
    moved = {(u, line + 1 if u == REPORT_MAIN else line, c, r) for u, line, c, r in before}
    assert len(after) == len(moved) + 1 and moved < after
    _agree(intelligence)

    greeter = _text(emulator, GREETER_MAIN)  # its declarations move two lines down
    emulator.write_as("DEVELOPER", GREETER_MAIN, "\n\n" + greeter)
    _agree(intelligence)
    interface_text = _text(emulator, f"{INTERFACE}/source/main")
    emulator.write_as("DEVELOPER", f"{INTERFACE}/source/main", "\n" + interface_text)
    assert _agree(intelligence) > 40


def _text(emulator: Emulator, source: str) -> str:
    found = emulator.state.resolve(source)
    assert found is not None
    obj, part = found
    picked = obj.parts[part or "main"].pick(None)
    assert picked is not None
    return picked[0].text


@pytest.mark.skipif(not ABAPGIT.is_dir(), reason=f"abapGit corpus not found at {ABAPGIT}")
def test_abapgit_raise_after_a_generic_parameter_is_a_usage_of_the_exception() -> None:
    intelligence = CodeIntelligence(Emulator(seed_dirs=[ABAPGIT]).state)
    repo = intelligence.repo
    repo.refresh()
    agent = repo.named("ZCL_ABAPGIT_HTTP_AGENT", CLAS)
    assert agent is not None
    index = repo.index(repo.program(agent))
    unit = agent.source_uri("main")
    found = index.occurrence_at(unit, 46, 8)
    assert found is not None and found.symbol.name == "ZCX_ABAPGIT_EXCEPTION"
    assert found.symbol.is_global
    method = repo.global_symbol("ZCL_ABAPGIT_HTTP_AGENT")
    assert method is not None and method.members is not None
    attach = method.members.local("ATTACH_PAYLOAD")
    assert attach is not None
    assert [p.name for p in attach.params] == ["II_REQUEST", "IV_PAYLOAD"]


@pytest.mark.skipif(not ABAPGIT.is_dir(), reason=f"abapGit corpus not found at {ABAPGIT}")
def test_abapgit_where_used_equals_a_full_resolution_of_sampled_programs() -> None:
    """On abapGit, the index (declarations once, then only the method bodies and statements
    that mention the name) finds in a program exactly what resolving the whole program
    finds: for the most used class, its ``raise`` and the string map's ``get``, in every
    eighth program that mentions them (a fixed sample, to keep the test short)."""
    intelligence = CodeIntelligence(Emulator(seed_dirs=[ABAPGIT]).state)
    repo = intelligence.repo
    repo.refresh()
    exception = repo.global_symbol("ZCX_ABAPGIT_EXCEPTION")
    string_map = repo.global_symbol("ZCL_ABAPGIT_STRING_MAP")
    assert exception is not None and exception.members is not None
    assert string_map is not None and string_map.members is not None
    targets = [exception, exception.members.local("RAISE"), string_map.members.local("GET")]
    fresh: dict[str, ProgramIndex] = {}
    compared = 0
    for target in targets:
        assert target is not None
        indexed: Seen = set()
        for usage in intelligence.where.usages(target):
            occ = usage.occurrence
            indexed.add((occ.unit, occ.line, occ.column, occ.role))
        mentioning = [
            p
            for p in repo.programs()
            if target.name.lower() in " ".join(u.text for u in p.units).lower()
        ]
        for program in mentioning[::16]:
            index = fresh.get(program.name) or ProgramIndex(program.name, program.units, repo)
            fresh[program.name] = index
            expected = {
                (o.unit, o.line, o.column, o.role)
                for o in index.occurrences()
                if o.is_usage and o.symbol.key == target.key
            }
            units = {u.id for u in program.units}
            assert {u for u in indexed if u[0] in units} == expected, program.name
            compared += len(expected)
    assert compared > 150


def test_a_where_used_declares_each_program_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Where-used's first step is a program's declaration-only index too, and one built for
    a look-up while where-used runs keeps its statements for that step: the interface pool,
    looked up by the class that implements it before its own turn, is declared once (it was
    twice), and what was kept is let go at the end."""
    intelligence = CodeIntelligence(Emulator().state)
    repo = intelligence.repo
    repo.refresh()
    interface = repo.named("ZIF_DEMO_GREETING", INTF)
    assert interface is not None
    pool = repo.program(interface)
    target = ProgramIndex(pool.name, pool.units).symbol("ZIF_DEMO_GREETING")  # no library
    assert target is not None
    declared: Counter[str] = Counter()
    original = ProgramIndex.__init__

    def counting(self: ProgramIndex, name: str, *args: Any, **kwargs: Any) -> None:
        declared[name.upper()] += 1
        original(self, name, *args, **kwargs)

    monkeypatch.setattr(ProgramIndex, "__init__", counting)
    usages = intelligence.where.usages(target)
    assert {u.obj.name for u in usages} >= {"ZCL_DEMO_GREETER"}
    assert declared[pool.name] == 1 and max(declared.values()) == 1, declared
    assert repo.declarations(pool).structures == []  # its statements were let go


def test_where_used_requests_run_with_the_collector_paused_and_restore_it() -> None:
    """The handlers of ``usageReferences`` and ``usageSnippets`` pause the cyclic collector
    (see :func:`collector_paused`) and give it back as they found it, also on an error."""
    seen: list[bool] = []

    @collector_paused
    def handler(fail: bool) -> int:
        seen.append(gc.isenabled())
        if fail:
            raise ValueError("fault")
        return 1

    assert gc.isenabled()
    assert handler(False) == 1
    with pytest.raises(ValueError, match="fault"):
        handler(True)
    assert seen == [False, False] and gc.isenabled()
    gc.disable()
    try:
        handler(False)
        assert not gc.isenabled()  # not switched on by a request that found it off
    finally:
        gc.enable()
    for name in ("usage_references", "usage_snippets"):
        assert getattr(CodeIntelligence, name).__wrapped__  # the handlers are wrapped
