"""A read of a long program's source makes the system index its saved text in the background
(the emulator's stand-in for a compiled load): the first completion on the editor's unsaved
text then builds nothing, and answers as a system that had not prepared it."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.emulated import make_client

from adt.abap.index import ProgramIndex
from adt.emulator import Emulator
from adt.emulator.intelligence.bodies import Skeleton
from adt.emulator.intelligence.focus import FocusedIndexes
from adt.emulator.intelligence.prepared import PREPARED_LINES, PreparedLoads
from adt.emulator.intelligence.repository import Program

PROGRAMS = "/sap/bc/adt/programs/programs"
LONG, SHORT = "zprep_long", "zprep_short"


def _program(name: str, methods: int) -> str:
    """A report with a local class of ``methods`` methods of ten statements each."""
    lines = [f"REPORT {name}.", "CLASS lcl DEFINITION.", "  PUBLIC SECTION."]
    lines += [
        f"    METHODS m{k} IMPORTING iv_x TYPE i RETURNING VALUE(rv_y) TYPE i."
        for k in range(methods)
    ]
    lines += ["ENDCLASS.", "CLASS lcl IMPLEMENTATION."]
    for k in range(methods):
        lines.append(f"  METHOD m{k}.")
        lines += [f"    rv_y = iv_x * {k} + {s}." for s in range(10)]
        lines.append("  ENDMETHOD.")
    return "\n".join([*lines, "ENDCLASS."]) + "\n"


def _seed(folder: Path) -> None:
    for name, methods in ((LONG, PREPARED_LINES // 12 + 10), (SHORT, 5)):
        (folder / f"{name}.prog.abap").write_text(_program(name, methods))
        (folder / f"{name}.prog.xml").write_text(
            '<?xml version="1.0" encoding="utf-8"?>\n<abapGit version="v1.0.0">\n <asx:abap '
            'xmlns:asx="http://www.sap.com/abapxml" version="1.0">\n  <asx:values>\n'
            f"   <PROGDIR>\n    <NAME>{name.upper()}</NAME>\n    <SUBC>1</SUBC>\n"
            "   </PROGDIR>\n  </asx:values>\n </asx:abap>\n</abapGit>\n"
        )


@pytest.fixture
def folder(tmp_path: Path) -> Path:
    _seed(tmp_path)
    return tmp_path


def _loads(emulator: Emulator) -> PreparedLoads:
    """The code intelligence's preparer (told of every read through the state)."""
    found = [getattr(listener, "__self__", None) for listener in emulator.state.source_read]
    loads = [f for f in found if isinstance(f, PreparedLoads)]
    assert len(loads) == 1
    return loads[0]


async def _first_completion(emulator: Emulator, name: str, *, read: bool) -> tuple[int, list[str]]:
    """Read the source (or not), then complete ``me->m`` typed into the last method: the
    skeleton indexes built before the request, and the proposals."""
    url = f"{PROGRAMS}/{name}/source/main"
    client = make_client(emulator)
    try:
        text = (await client.read_source(url)).text if read else emulator.source(url)
        for thread in _loads(emulator).threads:
            thread.join()
        built = _loads(emulator).focus.built
        lines = text.split("\n")
        last = max(n for n, line in enumerate(lines) if line.strip().startswith("METHOD "))
        lines.insert(last + 1, "    me->m")
        found = await client.completion.proposals(url, "\n".join(lines), last + 2, 9)
        return built, [p.identifier for p in found]
    finally:
        await client.close()


async def test_a_long_source_read_is_indexed_before_the_first_request(folder: Path) -> None:
    prepared = Emulator(seed_dirs=[folder])
    built, first = await _first_completion(prepared, LONG, read=True)
    loads = _loads(prepared)
    assert built == 1 and len(loads.threads) == 1, "indexed in the background after the read"
    assert loads.focus.built == 1, "the first request started from the prepared index"
    cold = Emulator(seed_dirs=[folder])
    assert await _first_completion(cold, LONG, read=False) == (0, first)
    assert _loads(cold).focus.built == 1 and _loads(cold).threads == []
    assert len(first) == 50 and first[0] == "M0"


async def test_a_short_source_read_starts_nothing(folder: Path) -> None:
    emulator = Emulator(seed_dirs=[folder])
    assert await _first_completion(emulator, SHORT, read=True) == (
        0,
        ["M0", "M1", "M2", "M3", "M4"],
    )
    assert _loads(emulator).threads == []
    assert _loads(emulator).focus.built == 1


async def test_a_source_saved_during_the_build_is_not_answered_from_the_old_text(
    folder: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A colleague saves a method more while the read's build lexes the old text (outside
    the state lock): that build is not kept (it could serve no request on the new text),
    and requests on the new text answer from it."""
    emulator = Emulator(seed_dirs=[folder])
    url = f"{PROGRAMS}/{LONG}/source/main"
    stored = emulator.source(url)
    assert stored is not None
    added = stored.replace("  PUBLIC SECTION.\n", "  PUBLIC SECTION.\n    METHODS mnew.\n", 1)
    added = (
        added.rstrip("\n").removesuffix("ENDCLASS.") + "  METHOD mnew.\n  ENDMETHOD.\nENDCLASS.\n"
    )
    unresolved = FocusedIndexes.unresolved

    def saved_meanwhile(program: Program) -> tuple[list[Skeleton], ProgramIndex]:
        built = unresolved(program)
        emulator.write_as("DEVELOPER", url, added)
        return built

    monkeypatch.setattr(FocusedIndexes, "unresolved", staticmethod(saved_meanwhile))
    client = make_client(emulator)
    try:
        assert (await client.read_source(url)).text == stored
        for thread in _loads(emulator).threads:
            thread.join()
        assert _loads(emulator).focus.built == 0, "the build of the old text was not kept"
        lines = added.split("\n")
        at = lines.index("    METHODS mnew.") + 1  # the saved text, as an editor shows it
        info = await client.navigation.element_info(url, added, at, len("    METHODS mn"))
        assert info is not None and info.name.upper() == "MNEW"
        lines.insert(lines.index("  METHOD mnew.") + 1, "    me->mn")
        typed = lines.index("    me->mn") + 1
        found = await client.completion.proposals(url, "\n".join(lines), typed, 10)
        assert [p.identifier for p in found] == ["MNEW"]
    finally:
        await client.close()
