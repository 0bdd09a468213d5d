"""An ABAP Unit run over repository objects: which sources hold the tests of an object, and
how their outcomes become the ``aunit:runResult`` of :mod:`adt.emulator.documents.unit`.

Runs read the **active** version, as a real system runs the generated load: a fix that was
saved but not activated does not change the result. Per object type:

* classes: the local test classes of the test-classes include (``CCAU``);
* programs: the local test classes in the program's own source;
* function groups: the local test classes in the group's source and its includes.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from urllib.parse import quote

from .aunit import Detail, Failure, UnitClass, object_constants, read_test_classes
from .documents.unit import AlertDoc, ClassDoc, DetailDoc, MethodDoc, ProgramDoc, StackDoc
from .dumps import Frame
from .model import CLAS, FINC, FUGR, PROG, RepoObject
from .objectsets import group_members
from .state import SystemState


@dataclass(frozen=True)
class RunOptions:
    """What the run configuration asks for."""

    risk_levels: frozenset[str]
    durations: frozenset[str]
    navigation: bool = True
    with_end: bool = False  # the asynchronous API's stack entries end with ``;end=L,0``


@dataclass(frozen=True)
class Selector:
    """One test class, or one of its methods, named by a reference's fragment."""

    test_class: str
    test_method: str | None = None

    def wants(self, test_class: str, method: str | None = None) -> bool:
        if self.test_class != test_class:
            return False
        return method is None or self.test_method in (None, method)


@dataclass(frozen=True)
class _Source:
    """A source that may hold test classes, and how ADT names places in it."""

    text: str
    uri: str
    include: str
    stack_type: str
    stack_name: str


@dataclass(frozen=True)
class _Flavour:
    """The ADT types and fragments of test classes in one kind of main program."""

    program_type: str
    class_type: str
    method_type: str
    class_fragment: str
    method_fragment: str


_CLASS = _Flavour("CLAS/OC", "CLAS/OL", "CLAS/OLI", "CLAS%2FOCL", "CLAS%2FOLD")
_PROGRAM = _Flavour("PROG/P", "PROG/PP", "PROG/OLI", "PROG%2FPL", "PROG%2FPLM")
_GROUP = _Flavour("FUGR/F", "PROG/PP", "PROG/OLI", "PROG%2FPL", "PROG%2FPLM")


def _active(obj: RepoObject, part: str) -> str | None:
    unit = obj.parts.get(part)
    picked = unit.pick("active") if unit is not None else None
    return picked[0].text if picked is not None else None


def main_program(obj: RepoObject) -> str:
    """The main program of an object, as ABAP Unit names it in its messages."""
    if obj.kind is CLAS:
        return obj.include_name("main")
    if obj.kind is FUGR:
        if obj.name.startswith("/"):
            _, namespace, rest = obj.name.split("/", 2)
            return f"/{namespace}/SAPL{rest}"
        return f"SAPL{obj.name}"
    return obj.name


def _group_sources(state: SystemState, obj: RepoObject, texts: list[str]) -> list[_Source]:
    """A function group's own source and its includes (modules only add constants)."""
    found: list[_Source] = []
    main = _active(obj, "main")
    if main is not None:
        found.append(_Source(main, obj.source_uri(), main_program(obj), "FUGR/F", obj.name))
    for member in group_members(state, obj):
        text = _active(member, "main")
        if text is None:
            continue
        texts.append(text)
        if member.kind is FINC:
            found.append(_Source(text, member.source_uri(), member.name, "FUGR/I", member.name))
    return found


def _sources(state: SystemState, obj: RepoObject) -> tuple[_Flavour, list[_Source], list[str]]:
    """(flavour, sources with tests, every active text of the object for its constants)."""
    texts = [t for t in (_active(obj, p) for p in obj.parts) if t is not None]
    if obj.kind is CLAS:
        text = _active(obj, "testclasses")
        uri, include = obj.source_uri("testclasses"), obj.include_name("testclasses")
        found = [_Source(text, uri, include, "CLAS/OCN/testclasses", obj.name)] if text else []
        return _CLASS, found, texts
    if obj.kind is PROG:
        text = _active(obj, "main")
        found = [_Source(text, obj.source_uri(), obj.name, "PROG/P", obj.name)] if text else []
        return _PROGRAM, found, texts
    return _GROUP, _group_sources(state, obj, texts), texts


def _details(details: Iterable[Detail]) -> tuple[DetailDoc, ...]:
    return tuple(DetailDoc(d.text, _details(d.children)) for d in details)


class _Builder:
    """Turns the test classes of one object into its ``program`` element."""

    def __init__(
        self, obj: RepoObject, flavour: _Flavour, options: RunOptions, abort: _Abort | None
    ) -> None:
        self.obj = obj
        self.flavour = flavour
        self.options = options
        self.abort = abort

    def program(
        self, classes: list[tuple[UnitClass, _Source]], selectors: list[Selector] | None
    ) -> ProgramDoc | None:
        docs = [self._class(c, s, selectors) for c, s in classes if self._chosen(c, selectors)]
        kept = tuple(d for d in docs if d.methods)
        if not kept:
            return None
        return ProgramDoc(self.obj.uri, self.flavour.program_type, self.obj.name, kept)

    def _chosen(self, test_class: UnitClass, selectors: list[Selector] | None) -> bool:
        if not test_class.selected(self.options.risk_levels, self.options.durations):
            return False
        return selectors is None or any(s.wants(test_class.name) for s in selectors)

    def _class(
        self, test_class: UnitClass, source: _Source, selectors: list[Selector] | None
    ) -> ClassDoc:
        methods = tuple(
            self._method(test_class.name, m.name, m.failure, source)
            for m in test_class.methods
            if selectors is None or any(s.wants(test_class.name, m.name) for s in selectors)
        )
        navigation = f"{source.uri}#type={self.flavour.class_fragment};name={test_class.name}"
        return ClassDoc(
            f"{self.obj.uri}#testclass={test_class.name}",
            self.flavour.class_type,
            test_class.name,
            navigation if self.options.navigation else None,
            test_class.duration,
            test_class.risk_level,
            methods,
        )

    def _method(
        self, test_class: str, name: str, failure: Failure | None, source: _Source
    ) -> MethodDoc:
        padded = quote(test_class.ljust(30), safe="") + name
        navigation = f"{source.uri}#type={self.flavour.method_fragment};name={padded}"
        alerts = (self._alert(test_class, name, failure, source),) if failure is not None else ()
        if failure is not None and failure.exception and self.abort is not None:
            self.abort(self.obj, f"{test_class}=>{name}", failure, source)
        return MethodDoc(
            f"{self.obj.uri}#testclass={test_class};testmethod={name}",
            self.flavour.method_type,
            name,
            navigation if self.options.navigation else None,
            alerts,
        )

    def _alert(self, test_class: str, method: str, failure: Failure, source: _Source) -> AlertDoc:
        where = f"Test '{test_class}->{method}' in Main Program '{main_program(self.obj)}'."
        fragment = f"#start={failure.line},0"
        if self.options.with_end:
            fragment += f";end={failure.line},0"
        stack = StackDoc(
            source.uri + fragment,
            source.stack_type,
            source.stack_name,
            f"Include: <{source.include}> Line: <{failure.line}> ({method})",
        )
        details = (*_details(failure.details), DetailDoc(where))
        return AlertDoc(failure.kind, failure.severity, failure.title, details, (stack,))


_Abort = Callable[[RepoObject, str, Failure, _Source], None]
_HANDLER = "CL_AUNIT_TEST_CLASS_HANDLER"
#: The frame under every test method: ABAP Unit's driver (its include and line assumed).
_DRIVER = Frame(
    "METHOD", f"{_HANDLER}===CP", f"{_HANDLER}===CM005", 34, f"{_HANDLER}=>RUN_TEST_METHOD"
)


def _dump_writer(state: SystemState, user: str) -> _Abort:
    """Writes the short dump of a test method an uncaught exception ended."""

    def write(obj: RepoObject, method: str, failure: Failure, source: _Source) -> None:
        program = main_program(obj)
        frames = (Frame("METHOD", program, source.include, failure.line, method), _DRIVER)
        where = (program, source.include, failure.line, source.uri)
        state.dumps.write(user, state.client, failure.exception, where, frames)

    return write


def program_result(
    state: SystemState,
    obj: RepoObject,
    options: RunOptions,
    selectors: list[Selector] | None = None,
    user: str | None = None,
) -> ProgramDoc | None:
    """The ``program`` element of one object, or ``None`` when it has no test to run.
    With ``user``, a test an uncaught exception ends writes a short dump for them."""
    if obj.kind not in (CLAS, PROG, FUGR):
        return None
    flavour, sources, texts = _sources(state, obj)
    constants = object_constants(texts)
    classes = [(c, s) for s in sources for c in read_test_classes(s.text, constants)]
    abort = _dump_writer(state, user) if user else None
    return _Builder(obj, flavour, options, abort).program(classes, selectors)


__all__ = ["RunOptions", "Selector", "main_program", "program_result"]
