"""ABAP Unit test runs over the seeded test classes (docs/protocol/abap-unit.md).

* ``POST /abapunit/testruns`` (and ``…/testruns/evaluation``, abap-adt-api's re-run of single
  methods): the run configuration in, the complete ``aunit:runResult`` out;
* ``POST /abapunit/runs`` → 201 + ``Location``; ``GET /abapunit/runs/<id>`` (always
  ``FINISHED``) and ``GET /abapunit/results/<id>``: the asynchronous API.

How tests are found and judged is :mod:`adt.emulator.aunit`; which sources an object's tests
live in is :mod:`adt.emulator.unitrun`.
"""

from __future__ import annotations

import re
import threading
import uuid
from dataclasses import dataclass
from typing import TYPE_CHECKING
from urllib.parse import unquote

from lxml import etree
from starlette.responses import Response

from adt.emulator import errors, objectsets, stamps
from adt.emulator.areas import Route
from adt.emulator.aunit import DURATIONS, RISK_LEVELS
from adt.emulator.calls import XML_UTF8, Call, respond
from adt.emulator.documents.unit import (
    RUN_RESULT_API,
    RUN_STATUS_API,
    ProgramDoc,
    unit_run_result,
    unit_run_status,
)
from adt.emulator.model import ADT, CLAS, FUGR, FUNC, PROG, RepoObject
from adt.emulator.negotiation import choose
from adt.emulator.unitrun import RunOptions, Selector, program_result

if TYPE_CHECKING:
    from adt.emulator.state import SystemState

NS_ADTCORE = "{http://www.sap.com/adt/core}"
NS_API = "{http://www.sap.com/adt/api/aunit}"
NS_OSL = "{http://www.sap.com/api/osl}"
_METHOD_FRAGMENTS = ("OLD", "OLI", "PLM")


def _parse(body: bytes) -> etree._Element:
    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True)
        return etree.fromstring(body, parser)
    except etree.XMLSyntaxError as exc:
        raise errors.bad_request(f"The request body is not valid XML: {exc}") from None


def _flags(element: etree._Element | None, names: tuple[str, ...]) -> frozenset[str]:
    """The names whose attribute is ``true``; an absent element allows all of them."""
    if element is None:
        return frozenset(names)
    return frozenset(n for n in names if (element.get(n) or "").lower() == "true")


def _selector(fragment: str) -> Selector | None:
    """``testclass=X;testmethod=Y`` or ``type=CLAS%2FOLD;name=<class padded to 30><method>``."""
    values = {}
    for item in fragment.split(";"):
        key, _, value = item.partition("=")
        values[key.strip().lower()] = unquote(value)
    if values.get("testclass"):
        return Selector(
            values["testclass"].upper(), (values.get("testmethod") or "").upper() or None
        )
    name = values.get("name")
    if not name:
        return None
    if values.get("type", "").upper().endswith(_METHOD_FRAGMENTS):
        return Selector(name[:30].strip().upper(), name[30:].strip().upper() or None)
    return Selector(name.strip().upper())


@dataclass
class _Target:
    obj: RepoObject
    selectors: list[Selector] | None


@dataclass(frozen=True)
class _AsyncRun:
    title: str
    context: str
    user: str
    started: str
    ended: str
    result: str


class _Unit:
    """The area's handlers and the results of asynchronous runs."""

    def __init__(self, state: SystemState) -> None:
        self.state = state
        self.runs: dict[str, _AsyncRun] = {}
        self._lock = threading.Lock()

    # synchronous runs ----------------------------------------------------------------------
    def testruns(self, call: Call, match: re.Match[str]) -> Response:
        if call.method != "POST":
            raise errors.method_not_supported(call.method)
        if choose(call.headers.get("accept"), ["application/xml"]) is None:
            raise errors.not_acceptable(["application/xml"])
        root = _parse(call.body)
        if etree.QName(root).localname != "runConfiguration":
            raise errors.bad_request("The request body is not an ABAP Unit run configuration")
        navigation = root.find(".//withNavigationUri")
        options = RunOptions(
            risk_levels=_flags(root.find(".//testRiskLevels"), RISK_LEVELS),
            durations=_flags(root.find(".//testDurations"), DURATIONS),
            navigation=navigation is None or (navigation.get("enabled") or "").lower() == "true",
        )
        uris = [r.get(f"{NS_ADTCORE}uri") or "" for r in root.iter(f"{NS_ADTCORE}objectReference")]
        programs = self._run(self._targets(uris), options, call.user)
        return respond(unit_run_result(programs), content_type=XML_UTF8)

    def _targets(self, uris: list[str]) -> list[_Target]:
        """Objects in reference order; fragments narrow an object to classes or methods."""
        targets: dict[str, _Target] = {}
        for uri in uris:
            found = objectsets.resolve(self.state, [uri])
            if found.missing:
                raise objectsets.not_found(found.missing[0])
            selector = _selector(uri.split("#", 1)[1]) if "#" in uri else None
            for obj in found.objects:
                target = targets.setdefault(obj.uri, _Target(obj, []))
                if selector is None or objectsets.package_of_uri(uri) is not None:
                    target.selectors = None
                elif target.selectors is not None:
                    target.selectors.append(selector)
        return list(targets.values())

    def _run(self, targets: list[_Target], options: RunOptions, user: str) -> list[ProgramDoc]:
        with self.state.lock:
            found = (
                program_result(self.state, t.obj, options, t.selectors, user.upper())
                for t in targets
            )
            return [p for p in found if p is not None]

    # the asynchronous API ------------------------------------------------------------------
    def start(self, call: Call, match: re.Match[str]) -> Response:
        if call.method != "POST":
            raise errors.method_not_supported(call.method)
        root = _parse(call.body)
        if root.tag != f"{NS_API}run":
            raise errors.bad_request("The request body is not an ABAP Unit run")
        started = stamps.iso(stamps.now_seconds())
        options = RunOptions(
            risk_levels=_flags(root.find(f".//{NS_API}riskLevel"), RISK_LEVELS),
            durations=_flags(root.find(f".//{NS_API}duration"), DURATIONS),
            navigation=False,
            with_end=True,
        )
        programs = self._run(self._api_targets(root), options, call.user)
        run_id = uuid.uuid4().hex.upper()
        run = _AsyncRun(
            root.get("title") or "",
            root.get("context") or "",
            call.user,
            started,
            stamps.iso(stamps.now_seconds()),
            unit_run_result(programs),
        )
        with self._lock:
            self.runs[run_id] = run
        return respond(status=201, headers={"location": f"{ADT}/abapunit/runs/{run_id}"})

    def _api_targets(self, root: etree._Element) -> list[_Target]:
        """``osl:objectSet`` (flat: ``osl:object``; ``multiPropertySet``: a package) or
        ``aunit:tests/aunit:test`` (one local test class of a class)."""
        targets: dict[str, _Target] = {}
        for obj in self._api_objects(root):
            targets.setdefault(obj.uri, _Target(obj, None))
        for test in root.iter(f"{NS_API}test"):
            container = self._by_name("CLAS", test.get("containerClass") or "")
            if container is None:
                continue
            target = targets.setdefault(container.uri, _Target(container, []))
            if target.selectors is not None:
                target.selectors.append(Selector((test.get("class") or "").upper()))
        return list(targets.values())

    def _api_objects(self, root: etree._Element) -> list[RepoObject]:
        found = [
            self._by_name(item.get("type") or "", item.get("name") or "")
            for item in root.iter(f"{NS_OSL}object")
        ]
        for prop in root.iter(f"{NS_OSL}property"):
            if (prop.get("key") or "").lower() == "package":
                package = (prop.get("value") or "").upper()
                found += objectsets.package_objects(self.state, package)
        return [obj for obj in found if obj is not None]

    def _by_name(self, kind: str, name: str) -> RepoObject | None:
        kinds = {"CLAS": CLAS, "PROG": PROG, "FUGR": FUGR}
        wanted = kind.upper().split("/")[0]
        if wanted == "FUNC":
            with self.state.lock:
                for obj in self.state.objects.values():
                    if obj.kind is FUNC and obj.name == name.upper():
                        return objectsets.container(self.state, obj)
            return None
        if wanted not in kinds or not name:
            return None
        return self.state.find(objectsets.object_uri(kinds[wanted], name.upper()))

    def _stored(self, match: re.Match[str]) -> _AsyncRun:
        with self._lock:
            run = self.runs.get(match.group(1).upper())
        if run is None:
            raise errors.AdtException(
                404, "ExceptionResourceNotFound", f"ABAP Unit run {match.group(1)} does not exist"
            )
        return run

    def status(self, call: Call, match: re.Match[str]) -> Response:
        if call.method != "GET":
            raise errors.method_not_supported(call.method)
        if choose(call.headers.get("accept"), [RUN_STATUS_API]) is None:
            raise errors.not_acceptable([RUN_STATUS_API])
        run = self._stored(match)
        body = unit_run_status(
            match.group(1).upper(), run.title, run.context, run.user, run.started, run.ended
        )
        return respond(body, content_type=f"{RUN_STATUS_API}; charset=utf-8")

    def result(self, call: Call, match: re.Match[str]) -> Response:
        if call.method != "GET":
            raise errors.method_not_supported(call.method)
        if choose(call.headers.get("accept"), [RUN_RESULT_API]) is None:
            raise errors.not_acceptable([RUN_RESULT_API])
        run = self._stored(match)
        return respond(run.result, content_type=f"{RUN_RESULT_API}; charset=utf-8")


def routes(state: SystemState) -> list[Route]:
    unit = _Unit(state)
    run_id = r"/([0-9A-Fa-f]{32})/?"
    return [
        Route.at(f"{ADT}/abapunit/testruns", unit.testruns),
        Route.at(f"{ADT}/abapunit/testruns/evaluation", unit.testruns),
        Route.at(f"{ADT}/abapunit/runs", unit.start),
        Route(re.compile(re.escape(f"{ADT}/abapunit/runs") + run_id, re.IGNORECASE), unit.status),
        Route(
            re.compile(re.escape(f"{ADT}/abapunit/results") + run_id, re.IGNORECASE), unit.result
        ),
    ]
