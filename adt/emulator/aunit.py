"""ABAP Unit without a runtime: test classes found in the source, assertions read, not run.

What counts as a test: a ``CLASS … DEFINITION … FOR TESTING`` (its ``RISK LEVEL`` and
``DURATION``, default ``CRITICAL`` and ``SHORT`` as in ABAP) and every method its
``METHODS`` statements declare ``FOR TESTING``. A test method passes unless one of its
statements *at the method's own level* (not inside IF, CASE, DO, WHILE, LOOP or TRY, which
may or may not run) is an assertion the emulator can decide and that surely runs: after a
statement that may leave the method (``RETURN``, ``RAISE``, ``LEAVE``, ``EXIT``/``CHECK``
outside a loop) inside a block, or a top-level ``CHECK``, later assertions are "could not
decide"; after a top-level ``RETURN``/``EXIT``/``RAISE`` they never run:

* ``cl_abap_unit_assert=>fail( … )`` always fails;
* ``assert_equals`` / ``assert_differs`` fail when ``act`` and ``exp`` are both known values
  (see :mod:`adt.emulator.abapexpr`) and compare the wrong way;
* ``assert_true`` / ``assert_false`` fail when ``act`` is a known text other than ``X`` / other
  than blank; ``assert_initial`` / ``assert_not_initial`` when ``act`` is a known value of
  the wrong kind.

A top-level ``RAISE EXCEPTION TYPE cx`` (or ``NEW cx( )``, or ``RAISE SHORTDUMP``) that surely
runs aborts the method: a ``runtimeAbortion`` alert and a short dump (:mod:`adt.emulator.dumps`).

The first failing assertion ends the method (ABAP Unit's default ``quit``); everything the
emulator cannot decide passes. ``setup``/``teardown`` and helper methods are not read.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field

from adt.abap.scanner import Statement, statements

from .abapexpr import (
    Value,
    arguments,
    constants_of,
    evaluate,
    group_after,
    mixed_case,
    statement_text,
    tokens,
    values_equal,
)

RISK_LEVELS = ("harmless", "dangerous", "critical")
DURATIONS = ("short", "medium", "long")

_OPENERS = {"IF", "CASE", "DO", "WHILE", "LOOP", "TRY"}
_CLOSERS = {"ENDIF", "ENDCASE", "ENDDO", "ENDWHILE", "ENDLOOP", "ENDTRY"}
_LOOPS = {"DO", "WHILE", "LOOP"}
#: Statements that leave the method wherever they stand (without failing the test).
_LEAVE = {"RETURN", "RAISE", "LEAVE", "STOP", "REJECT", "SUBMIT"}
#: Statements that leave the method when no loop encloses them (else only the loop).
_LEAVE_OUTSIDE_LOOPS = {"EXIT", "CHECK"}
#: Whether the statements that follow run: surely, perhaps (a path left the method before,
#: so the evaluator cannot decide), or never (the method was left unconditionally).
CERTAIN, PERHAPS, NEVER = "certain", "perhaps", "never"
_ASSERT_CALL = re.compile(r"^(?:CL_ABAP_UNIT_ASSERT|CL_AUNIT_ASSERT)=>(\w+)\($", re.IGNORECASE)
_ASSERT_NAME = re.compile(r"^(?:CL_ABAP_UNIT_ASSERT|CL_AUNIT_ASSERT)=>(\w+)$", re.IGNORECASE)
_TITLES = {
    "critical": "Critical Assertion Error",
    "fatal": "Fatal Assertion Error",
    "tolerable": "Tolerable Assertion Error",
}


@dataclass(frozen=True)
class Detail:
    """One ``details/detail`` line, possibly with nested lines."""

    text: str
    children: tuple[Detail, ...] = ()


@dataclass(frozen=True)
class Failure:
    """Why a test method failed and the (1-based) line of the failing statement."""

    kind: str
    severity: str
    title: str
    details: tuple[Detail, ...]
    line: int
    #: An uncaught exception ended the method (a short dump is written for it).
    exception: str = ""


@dataclass(frozen=True)
class UnitMethod:
    name: str
    failure: Failure | None = None


@dataclass(frozen=True)
class UnitClass:
    """A local test class with its attributes (lower case, as ADT writes them)."""

    name: str
    risk_level: str
    duration: str
    methods: tuple[UnitMethod, ...]

    def selected(self, risk_levels: Iterable[str], durations: Iterable[str]) -> bool:
        return self.risk_level in set(risk_levels) and self.duration in set(durations)


@dataclass(frozen=True)
class _Call:
    """An assertion call: method name, positional and named argument tokens."""

    name: str
    positional: list[str]
    named: dict[str, list[str]]

    def argument(self, name: str, *, first: bool = False) -> list[str] | None:
        if name in self.named:
            return self.named[name]
        return self.positional if first and self.positional else None


def object_constants(texts: Iterable[str]) -> dict[str, Value]:
    """Constants with a literal value declared anywhere in an object's sources."""
    found: dict[str, Value] = {}
    for text in texts:
        lines = text.split("\n")
        for name, value in constants_of(lines, statements(text)).items():
            found.setdefault(name, value)
    return found


def read_test_classes(text: str, constants: Mapping[str, Value] | None = None) -> list[UnitClass]:
    """The test classes of one source, each method with its outcome."""
    return _Reader(text, constants or {}).read()


@dataclass
class _Definition:
    name: str
    risk_level: str
    duration: str
    methods: list[str] = field(default_factory=list)


class _Reader:
    """One pass over the statements: definitions, then the bodies of the test methods."""

    def __init__(self, text: str, constants: Mapping[str, Value]) -> None:
        self.text = text
        self.lines = text.split("\n")
        self.constants = constants
        self.definitions: dict[str, _Definition] = {}
        self.failures: dict[tuple[str, str], Failure] = {}
        self._defining: _Definition | None = None
        self._implementing: str | None = None
        self._method: tuple[str, str] | None = None
        self._blocks: list[str] = []
        self._reach = CERTAIN

    def read(self) -> list[UnitClass]:
        for statement in statements(self.text):
            if statement.words:
                self._statement(statement)
        return [
            UnitClass(
                d.name,
                d.risk_level,
                d.duration,
                tuple(UnitMethod(m, self.failures.get((d.name, m))) for m in d.methods),
            )
            for d in self.definitions.values()
            if d.methods
        ]

    def _statement(self, statement: Statement) -> None:
        words = statement.words
        head = words[0]
        if head == "CLASS" and len(words) >= 3:
            self._class(words)
        elif head == "ENDCLASS":
            self._defining, self._implementing = None, None
        elif head == "METHODS" and self._defining is not None:
            self._declare(words)
        elif head == "METHOD" and self._implementing is not None and len(words) >= 2:
            self._method, self._blocks, self._reach = (self._implementing, words[1]), [], CERTAIN
        elif head == "ENDMETHOD":
            self._method = None
        elif self._method is not None:
            self._body(statement)

    def _class(self, words: list[str]) -> None:
        name, what = words[1], words[2]
        if what == "IMPLEMENTATION":
            self._implementing = name
            return
        if what != "DEFINITION" or "DEFERRED" in words or "LOAD" in words:
            return
        if not _follows(words, "FOR", "TESTING"):
            self._defining = None
            return
        risk = _after(words, "LEVEL", ("RISK",)) or "CRITICAL"
        duration = _after(words, "DURATION", ()) or "SHORT"
        self._defining = self.definitions.setdefault(
            name, _Definition(name, risk.lower(), duration.lower())
        )

    def _declare(self, words: list[str]) -> None:
        assert self._defining is not None
        for index in range(1, len(words) - 1):
            if words[index] == "FOR" and words[index + 1] == "TESTING":
                name = words[index - 1]
                if name != "METHODS" and name not in self._defining.methods:
                    self._defining.methods.append(name)

    def _body(self, statement: Statement) -> None:
        head, key = statement.words[0], self._method
        if head in _OPENERS:
            self._blocks.append(head)
        elif head in _CLOSERS:
            if self._blocks:
                self._blocks.pop()
        elif self._aborts(statement.words) and key is not None and self._pending(key):
            self.failures[key] = _aborted(statement.words, statement.line)
            self._reach = NEVER
        elif self._leaves(statement.words):
            if self._reach != NEVER:
                self._reach = PERHAPS if self._blocks or head == "CHECK" else NEVER
        elif not self._blocks and self._reach == CERTAIN and key is not None and self._pending(key):
            failure = self._assertion(statement, key[1])
            if failure is not None:
                self.failures[key] = failure

    def _leaves(self, words: list[str]) -> bool:
        """Whether a statement may end the method here (``RETURN``; ``EXIT``/``CHECK``
        outside loops; ``RAISE``, ``LEAVE`` …): later statements may not run."""
        head = words[0]
        if head == "RAISE" and words[1:2] == ["EVENT"]:
            return False
        if head == "SUBMIT" and "RETURN" in words:
            return False
        if head in _LEAVE:
            return True
        return head in _LEAVE_OUTSIDE_LOOPS and not any(b in _LOOPS for b in self._blocks)

    def _aborts(self, words: list[str]) -> bool:
        """An exception raised where nothing catches it: outside every block (a ``TRY``
        may catch it; an ``IF`` may not run it) on a path that surely runs."""
        raising = words[0] == "RAISE" and words[1:2] in (["EXCEPTION"], ["SHORTDUMP"])
        return raising and len(words) > 3 and not self._blocks and self._reach == CERTAIN

    def _pending(self, key: tuple[str, str]) -> bool:
        """A test method that has not failed yet (the first failure ends it)."""
        return self._is_test(key) and key not in self.failures

    def _is_test(self, key: tuple[str, str]) -> bool:
        definition = self.definitions.get(key[0])
        return definition is not None and key[1] in definition.methods

    def _assertion(self, statement: Statement, method: str) -> Failure | None:
        call = _call(statement_text(self.lines, statement))
        if call is None or call.name not in _RULES:
            return None
        details = _RULES[call.name](call, self.constants)
        if details is None:
            return None
        severity = _severity(call.argument("LEVEL"))
        message = evaluate(call.argument("MSG", first=call.name == "FAIL") or [], self.constants)
        shown = message.show() if message is not None else f"{mixed_case(method)}: {call.name}"
        title = f"{_TITLES[severity]}: '{shown}'"
        return Failure("failedAssertion", severity, title, details, statement.line)


def _aborted(words: Sequence[str], line: int) -> Failure:
    """``RAISE EXCEPTION TYPE cx`` / ``RAISE EXCEPTION NEW cx( )`` / ``RAISE SHORTDUMP …``
    left uncaught: the run is aborted with runtime error UNCAUGHT_EXCEPTION."""
    exception = words[3].split("(", 1)[0].upper()
    title = f"Runtime Error: UNCAUGHT_EXCEPTION ({exception})"
    details = (Detail(f"Exception {exception} was raised and not caught"),)
    return Failure("runtimeAbortion", "critical", title, details, line, exception)


def _follows(words: Sequence[str], first: str, second: str) -> bool:
    return any(words[i] == first and words[i + 1] == second for i in range(len(words) - 1))


def _after(words: Sequence[str], keyword: str, before: tuple[str, ...]) -> str | None:
    """The word after ``keyword`` (itself preceded by ``before``), e.g. RISK LEVEL <x>."""
    for index in range(len(before), len(words) - 1):
        if words[index] == keyword and tuple(words[index - len(before) : index]) == before:
            return words[index + 1]
    return None


def _call(text: str) -> _Call | None:
    items = tokens(text)
    if not items:
        return None
    match = _ASSERT_CALL.match(items[0])
    if match is not None:
        positional, named = arguments(group_after(items, 0))
        return _Call(match.group(1).upper(), positional, named)
    if len(items) >= 3 and [i.upper() for i in items[:2]] == ["CALL", "METHOD"]:
        match = _ASSERT_NAME.match(items[2])
        if match is not None:
            positional, named = arguments(items[3:])
            return _Call(match.group(1).upper(), positional, named)
    return None


def _severity(level: list[str] | None) -> str:
    text = " ".join(level or []).upper()
    if "TOLERABLE" in text or "LOW" in text:
        return "tolerable"
    if "FATAL" in text or "HIGH" in text:
        return "fatal"
    return "critical"


Rule = Callable[[_Call, Mapping[str, Value]], "tuple[Detail, ...] | None"]


def _pair(call: _Call, constants: Mapping[str, Value]) -> tuple[Value, Value] | None:
    act = evaluate(call.argument("ACT") or [], constants)
    exp = evaluate(call.argument("EXP") or [], constants)
    return (act, exp) if act is not None and exp is not None else None


def _act(call: _Call, constants: Mapping[str, Value]) -> Value | None:
    return evaluate(call.argument("ACT", first=True) or [], constants)


def _fail(call: _Call, constants: Mapping[str, Value]) -> tuple[Detail, ...] | None:
    detail = evaluate(call.argument("DETAIL") or [], constants)
    return (Detail(detail.show()),) if detail is not None and detail.show() else ()


def _equals(call: _Call, constants: Mapping[str, Value]) -> tuple[Detail, ...] | None:
    pair = _pair(call, constants)
    if pair is None or values_equal(*pair) is not False:
        return None
    act, exp = pair
    return (
        Detail("Different Values:", (Detail(f"Expected [{exp.show()}] Actual [{act.show()}]"),)),
    )


def _differs(call: _Call, constants: Mapping[str, Value]) -> tuple[Detail, ...] | None:
    pair = _pair(call, constants)
    if pair is None or values_equal(*pair) is not True:
        return None
    return (Detail("Different values expected:", (Detail(f"Actual [{pair[0].show()}]"),)),)


def _true(call: _Call, constants: Mapping[str, Value]) -> tuple[Detail, ...] | None:
    act = _act(call, constants)
    if act is None or act.is_number or act.text == "X":
        return None
    return (Detail("True expected"),)


def _false(call: _Call, constants: Mapping[str, Value]) -> tuple[Detail, ...] | None:
    act = _act(call, constants)
    if act is None or act.is_number or act.text == "":
        return None
    return (Detail("False expected"),)


def _initial(call: _Call, constants: Mapping[str, Value]) -> tuple[Detail, ...] | None:
    act = _act(call, constants)
    if act is None or act.is_initial:
        return None
    return (Detail("Initial value expected", (Detail(f"Actual [{act.show()}]"),)),)


def _not_initial(call: _Call, constants: Mapping[str, Value]) -> tuple[Detail, ...] | None:
    act = _act(call, constants)
    if act is None or not act.is_initial:
        return None
    return (Detail("Non-initial value expected"),)


_RULES: dict[str, Rule] = {
    "FAIL": _fail,
    "ASSERT_EQUALS": _equals,
    "ASSERT_DIFFERS": _differs,
    "ASSERT_TRUE": _true,
    "ASSERT_FALSE": _false,
    "ASSERT_INITIAL": _initial,
    "ASSERT_NOT_INITIAL": _not_initial,
}
