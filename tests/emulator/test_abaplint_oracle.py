"""abaplint as the oracle of the emulator's syntax check: both judge the same 100 planted
errors (tests/support/planted.py in the samples and fixtures) and the clean sources; every
case where they disagree must be listed in ``docs/emulator.md`` (section "Where abaplint
judges differently"), and every case listed there must still disagree.
"""

from __future__ import annotations

import re
from pathlib import Path

from support.abaplint import abaplint, file_name
from support.planted import Planted

from adt.emulator.model import CLAS, INTF
from adt.emulator.state import SystemState

from .semantic_support import fixture_emulator, judge, planted_in, state_of

DOCS = Path(__file__).resolve().parents[2] / "docs" / "emulator.md"
SYNTAX_RULES: dict[str, object] = {"parser_error": True, "check_syntax": True}
#: Generated and 10,000 lines long: adds nothing to the comparison but time.
_SKIPPED = {"ZCL_DEMO_LARGE"}


def _files(state: SystemState) -> dict[str, dict[str, str]]:
    """Object URI → {abapGit file name → active text} for the classes and interfaces."""
    found: dict[str, dict[str, str]] = {}
    for uri, obj in sorted(state.objects.items()):
        if obj.kind not in (CLAS, INTF) or obj.name in _SKIPPED:
            continue
        kind = obj.kind.r3tr
        found[uri] = {
            file_name(obj.name, kind, part): unit.active.text + "\n"
            for part, unit in obj.parts.items()
            if unit.active is not None
        }
    return found


def _case(files: dict[str, dict[str, str]], planted: Planted, state: SystemState) -> dict[str, str]:
    """The changed object and the objects it names (abaplint needs them to resolve calls;
    fewer files keep the oracle fast)."""
    obj = state.objects[planted.key]
    own = files[planted.key]
    mentioned = " ".join(own.values()).upper()
    merged = {
        name: text
        for uri, texts in files.items()
        if uri == planted.key or state.objects[uri].name in mentioned
        for name, text in texts.items()
    }
    merged[file_name(obj.name, obj.kind.r3tr, planted.part)] = planted.text + "\n"
    return merged


def _documented() -> set[str]:
    text = DOCS.read_text(encoding="utf-8")
    section = text.split("#### Where abaplint judges differently", 1)[1].split("\n#", 1)[0]
    return set(re.findall(r"^\* `([^`]+)`", section, re.M))


def test_abaplint_and_the_checker_disagree_only_where_documented() -> None:
    oracle = abaplint()
    state = state_of(fixture_emulator())
    files = _files(state)
    planted = planted_in(state)
    cases = {"clean": {n: t for texts in files.values() for n, t in texts.items()}}
    cases.update({str(i): _case(files, p, state) for i, p in enumerate(planted)})
    results = oracle.run(cases, SYNTAX_RULES)
    disagreements: set[str] = set()
    for issue in results["clean"]:
        disagreements.add(f"clean {issue.file}:{issue.line} {issue.key}")
    for i, p in enumerate(planted):
        obj = state.objects[p.key]
        changed = file_name(obj.name, obj.kind.r3tr, p.part)
        lines = range(p.statement_line or p.line, p.line + 1)
        theirs = any(x.file == changed and x.line in lines for x in results[str(i)])
        ours = judge(state, p).caught
        if theirs != ours:
            winner = "only the emulator" if ours else "only abaplint"
            disagreements.add(f"{p.kind} {obj.name} {p.part}:{p.line} {p.what} — {winner}")
    documented = _documented()
    unexplained = [d for d in disagreements if not any(_covers(e, d) for e in documented)]
    assert unexplained == [], sorted(unexplained)
    stale = [e for e in documented if not any(_covers(e, d) for d in disagreements)]
    assert stale == [], f"listed in docs/emulator.md but no longer true: {stale}"


def _covers(entry: str, disagreement: str) -> bool:
    """A documented entry names one case, or a whole kind: ``duplicate — only the emulator``."""
    if entry == disagreement:
        return True
    kind, _, winner = entry.partition(" — ")
    return " " not in kind and disagreement.startswith(kind + " ") and disagreement.endswith(winner)
