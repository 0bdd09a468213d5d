"""Shared by the semantic-check tests: seeding an emulator, reading its programs, and
judging planted errors the way a check run would (the emulator's own ``check_object``)."""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

import pytest
from support.planted import Planted, Planter, Program

from adt.emulator import Emulator, samples_dir
from adt.emulator.model import CLAS, INTF, PROG, RepoObject
from adt.emulator.state import SystemState

FIXTURES = Path(__file__).parent / "fixtures" / "semantic"
#: Corpora (abapGit repositories) and the variables that point to them.
CORPORA = {
    "abapgit": ("ABAP_ADT_CORPUS_ABAPGIT", "/work/corpora/abapgit"),
    "abapopenchecks": ("ABAP_ADT_CORPUS_ABAPOPENCHECKS", "/work/corpora/abapopenchecks"),
    "flight-2023": ("ABAP_ADT_CORPUS_FLIGHT_2023", "/work/corpora/flight-2023"),
    "flight-cloud": ("ABAP_ADT_CORPUS_FLIGHT_CLOUD", "/work/corpora/flight-cloud"),
}


def corpus(name: str) -> Path:
    """The corpus folder, or a skip when it is not on this machine."""
    variable, default = CORPORA[name]
    path = Path(os.environ.get(variable, default))
    if not (path / "src").is_dir():
        pytest.skip(f"corpus {name} not found at {path} (set {variable})")
    return path


def state_of(emulator: Emulator) -> SystemState:
    state = emulator.state
    assert isinstance(state, SystemState)
    return state


def programs(state: SystemState, kinds: tuple[object, ...] = (CLAS, PROG, INTF)) -> list[Program]:
    """Every object of the given kinds with the active text of each part."""
    found: list[Program] = []
    for uri in sorted(state.objects):
        obj = state.objects[uri]
        if obj.kind not in kinds:
            continue
        parts = {p: u.active.text for p, u in obj.parts.items() if u.active is not None}
        found.append(Program(uri, parts))
    return found


@dataclass
class Verdict:
    planted: Planted
    caught: bool
    messages: list[str]


def judge(state: SystemState, planted: Planted) -> Verdict:
    """Check the changed program as a check run with the editor's text would."""
    obj: RepoObject = state.objects[planted.key]
    messages = state.check_object(obj, "active", {planted.part: planted.text})
    uri = obj.source_uri(planted.part)
    lines = range(planted.statement_line or planted.line, planted.line + 1)
    at_line = [m.text for m in messages if m.uri == uri and m.line in lines]
    return Verdict(planted, bool(at_line), [f"{m.line}: {m.text}" for m in messages])


def fixture_emulator() -> Emulator:
    return Emulator(seed_dirs=[samples_dir(), FIXTURES])


#: Generated, not written by anyone: no place to plant a developer's mistake.
_GENERATED = {"/sap/bc/adt/oo/classes/zcl_demo_large"}


def planted_in(state: SystemState, per_kind: int = 20) -> list[Planted]:
    """``per_kind`` planted errors of each kind in the classes of the repository."""
    written = [p for p in programs(state, (CLAS,)) if p.key not in _GENERATED]
    return Planter(written).pick(per_kind)
