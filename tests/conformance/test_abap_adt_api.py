"""Issue 9's bar: the independent npm client ``abap-adt-api`` succeeds against the emulator.

The pinned package (``abap_adt_api/package-lock.json``, install scripts off) is installed with
``npm ci`` into ``abap_adt_api/node_modules`` when that is missing or was installed from another
lock file; a failing ``npm ci`` fails the test with npm's message (no registry is no pass).
Then ``drive.js`` runs the scenarios ``edit-cycle`` and ``dev-loop`` over real HTTP against one
fresh emulator on 127.0.0.1, and each step the driver reports is one test here. The only skip:
``node`` or ``npm`` is not on PATH.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from support.emulated import USERS
from support.node_deps import installing

from adt.emulator import Emulator

DRIVER_DIR = Path(__file__).parent / "abap_adt_api"
NODE_MODULES = DRIVER_DIR / "node_modules"
#: Written after a successful ``npm ci``: the digest of the files it installed from.
STAMP = NODE_MODULES / ".conformance-install-stamp"
PINNED_VERSION = "8.4.3"
SCENARIOS = ("edit-cycle", "dev-loop")

#: Every step the two scenarios report, in order: a step that disappears or appears is a
#: change of the bar and must show up here.
STEPS: tuple[tuple[str, str], ...] = (
    ("edit-cycle", "login"),
    ("edit-cycle", "objectStructure"),
    ("edit-cycle", "getObjectSource"),
    ("edit-cycle", "stateful switch"),
    ("edit-cycle", "lock"),
    ("edit-cycle", "setObjectSource"),
    ("edit-cycle", "unLock"),
    ("edit-cycle", "stateless switch"),
    ("edit-cycle", "activate"),
    ("edit-cycle", "getObjectSource (active)"),
    ("edit-cycle", "searchObject"),
    ("edit-cycle", "syntaxCheck"),
    ("edit-cycle", "dropSession: login"),
    ("edit-cycle", "dropSession: stateful lock"),
    ("edit-cycle", "dropSession()"),
    ("edit-cycle", "dropSession: request after dropSession"),
    ("edit-cycle", "dropSession: second request after dropSession"),
    ("edit-cycle", "dropSession: stateful again (lock + unLock)"),
    ("edit-cycle", "dropSession() again"),
    ("edit-cycle", "dropSession: request after the second dropSession"),
    ("edit-cycle", "logout"),
    ("dev-loop", "login"),
    ("dev-loop", "getObjectSource(ZCL_DEMO_GREETER main, definitions, implementations)"),
    ("dev-loop", "codeCompletion (mo_formatter->cap|)"),
    ("dev-loop", "codeCompletionFull (capitalize)"),
    ("dev-loop", "codeCompletionElement (capitalize)"),
    ("dev-loop", "findDefinition (capitalize call → METHODS capitalize)"),
    ("dev-loop", "findDefinition implementation (→ METHOD capitalize)"),
    ("dev-loop", "usageReferences (method capitalize)"),
    ("dev-loop", "usageReferenceSnippets (method capitalize)"),
    ("dev-loop", "createTransport (new request)"),
    ("dev-loop", "transportInfo (new class in ZDEMO_TR)"),
    ("dev-loop", "validateNewObject (CLAS/OC)"),
    ("dev-loop", "createObject (CLAS/OC in ZDEMO_TR with the transport)"),
    ("dev-loop", "objectStructure (created, inactive)"),
    ("dev-loop", "stateful switch"),
    ("dev-loop", "lock"),
    ("dev-loop", "createTestInclude"),
    ("dev-loop", "setObjectSource (main)"),
    ("dev-loop", "setObjectSource (testclasses)"),
    ("dev-loop", "unLock"),
    ("dev-loop", "stateless switch"),
    ("dev-loop", "getObjectSource (inactive main, as written)"),
    ("dev-loop", "inactiveObjects (lists the new class)"),
    ("dev-loop", "activate"),
    ("dev-loop", "inactiveObjects (none left)"),
    ("dev-loop", "unitTestRun (DOUBLES_TWO passes, FAILS_ON_PURPOSE fails)"),
    ("dev-loop", "codeCompletion (tw| in quadruple)"),
    ("dev-loop", "codeCompletionFull (twice)"),
    ("dev-loop", "findDefinition (twice call → METHODS twice)"),
    ("dev-loop", "findDefinition implementation (→ METHOD twice)"),
    ("dev-loop", "classComponents (the new class)"),
    ("dev-loop", "findObjectPath (the new class in ZDEMO_TR)"),
    ("dev-loop", "usageReferences (method twice)"),
    ("dev-loop", "usageReferenceSnippets (method twice)"),
    ("dev-loop", "prettyPrinterSetting"),
    ("dev-loop", "setPrettyPrinterSetting (indentation, keywordLower)"),
    ("dev-loop", "prettyPrinter (keywordLower)"),
    ("dev-loop", "setPrettyPrinterSetting (indentation, keywordUpper)"),
    ("dev-loop", "prettyPrinter (keywordUpper)"),
    ("dev-loop", "prettyPrinter (the new class, keywordUpper: unchanged)"),
    ("dev-loop", "setPrettyPrinterSetting (restore)"),
    ("dev-loop", "renameEvaluate (method twice)"),
    ("dev-loop", "renamePreview (twice → doubled, with the transport)"),
    ("dev-loop", "renameExecute"),
    ("dev-loop", "getObjectSource (renamed: main and test classes)"),
    ("dev-loop", "activate (renamed class)"),
    ("dev-loop", "extractMethodEvaluate (quadruple's statement)"),
    ("dev-loop", "extractMethodPreview (named quadrupled)"),
    ("dev-loop", "extractMethodExecute"),
    ("dev-loop", "getObjectSource (extracted)"),
    ("dev-loop", "activate (extracted method)"),
    ("dev-loop", "stateful switch (delete)"),
    ("dev-loop", "lock (delete)"),
    ("dev-loop", "deleteObject (with the transport)"),
    ("dev-loop", "unLock (delete)"),
    ("dev-loop", "dropSession()"),
    ("dev-loop", "objectStructure after delete (404)"),
    ("dev-loop", "getObjectSource after delete (404)"),
    ("dev-loop", "searchObject after delete (no hit)"),
    ("dev-loop", "transportDetails (the request records the class)"),
    ("dev-loop", "logout"),
)


@dataclass(frozen=True)
class DriverRun:
    """What one run of drive.js produced, and the emulator's lock table afterwards."""

    lines: list[dict[str, Any]]
    returncode: int
    stderr: str
    locks_after: list[Any]

    def step(self, scenario: str, name: str) -> dict[str, Any] | None:
        for line in self.lines:
            if line.get("scenario") == scenario and line.get("step") == name:
                return line
        return None


def _install_digest() -> str:
    digest = hashlib.sha256()
    for name in ("package.json", "package-lock.json", ".npmrc"):
        digest.update((DRIVER_DIR / name).read_bytes())
    return digest.hexdigest()


def _installed_version() -> str | None:
    manifest = NODE_MODULES / "abap-adt-api" / "package.json"
    if not manifest.is_file():
        return None
    return str(json.loads(manifest.read_text(encoding="utf-8")).get("version"))


def _installed_current(digest: str) -> bool:
    current = STAMP.read_text(encoding="utf-8").strip() if STAMP.is_file() else None
    return current == digest and _installed_version() == PINNED_VERSION


def _ensure_installed(npm: str) -> None:
    """``npm ci`` unless node_modules holds exactly what the lock file pins."""
    digest = _install_digest()
    if _installed_current(digest):
        return
    with installing(DRIVER_DIR):
        if not _installed_current(digest):  # another worker may have installed it
            _npm_ci(npm, digest)


def _npm_ci(npm: str, digest: str) -> None:
    result = subprocess.run(
        [npm, "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
        cwd=DRIVER_DIR,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    if result.returncode != 0:
        pytest.fail(
            f"npm ci in {DRIVER_DIR} failed (exit {result.returncode}):\n"
            f"{result.stderr[-4000:] or result.stdout[-4000:]}",
            pytrace=False,
        )
    installed = _installed_version()
    if installed != PINNED_VERSION:
        pytest.fail(f"npm ci installed abap-adt-api {installed}, not {PINNED_VERSION}")
    STAMP.write_text(digest + "\n", encoding="utf-8")


@pytest.fixture(scope="module")
def driver_run() -> DriverRun:
    """Install the client if needed, then run both scenarios once against a fresh emulator."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        missing = " and ".join(name for name, path in (("node", node), ("npm", npm)) if not path)
        pytest.skip(f"{missing} not found on PATH: the abap-adt-api conformance test needs both")
    _ensure_installed(npm)
    emulator = Emulator(users=USERS)
    with emulator.serve_in_thread() as url:
        result = subprocess.run(
            [node, "drive.js", "--url", url, "--quiet-http", "--timeout", "20", *SCENARIOS],
            cwd=DRIVER_DIR,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        locks = emulator.locks()
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return DriverRun(lines, result.returncode, result.stderr, list(locks))


@pytest.mark.parametrize(("scenario", "name"), STEPS, ids=[f"{s}: {n}" for s, n in STEPS])
def test_step_succeeds(driver_run: DriverRun, scenario: str, name: str) -> None:
    line = driver_run.step(scenario, name)
    assert line is not None, (
        f"drive.js reported no step {name!r} in {scenario}; stderr:\n{driver_run.stderr[-2000:]}"
    )
    assert line["ok"], (
        f"{scenario} / {name} failed: {json.dumps(line.get('error'), ensure_ascii=False)}\n"
        f"detail: {json.dumps(line.get('detail'), ensure_ascii=False)[:2000]}"
    )


def test_driver_ran_to_the_end_with_exactly_the_known_steps(driver_run: DriverRun) -> None:
    assert driver_run.returncode == 0, driver_run.stderr[-2000:]
    reported = [(line["scenario"], line["step"]) for line in driver_run.lines]
    assert reported == list(STEPS)


def test_no_lock_is_left_behind(driver_run: DriverRun) -> None:
    assert driver_run.locks_after == []


# --- CDS, RAP and dictionary kinds (issue 19) -------------------------------------------

KINDS_FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "kinds" / "$zkinds"
#: Every kind abap-adt-api 8.4.3 creates among ours (its objectcreator has no BDEF); the
#: source-based ones are then written, activated and read back.
_CDS_CREATED = (
    "DDLS/DF",
    "DDLX/EX",
    "DCLS/DL",
    "SRVD/SRV",
    "TABL/DT",
    "TABL/DS",
    "DTEL/DE",
    "MSAG/N",
)
_CDS_SOURCES = ("DDLS/DF", "DDLX/EX", "DCLS/DL", "SRVD/SRV", "TABL/DT", "TABL/DS")
#: The rows of ZKINDS_TRIP the data preview steps read (seeded beside the fixture's copy).
TRIP_ROWS = [
    {"CLIENT": "001", "TRIP_ID": "00000001", "STATUS": "O", "PRICE": "100.00", "CURRENCY": "EUR"},
    {"CLIENT": "001", "TRIP_ID": "00000002", "STATUS": "A", "PRICE": "250.50", "CURRENCY": "USD"},
    {"CLIENT": "001", "TRIP_ID": "00000003", "STATUS": "O", "PRICE": "75.00", "CURRENCY": "EUR"},
]
CDS_STEPS: tuple[str, ...] = (
    "login",
    "getObjectSource (zi_kinds_trip.ddls.asddls)",
    "getObjectSource (#zns#i_gadget.ddls.asddls)",
    "objectStructure (DDLS)",
    "searchObject (DDLS /ZNS/*)",
    "tableContents (ZKINDS_TRIP, 2 rows)",
    "tableContents (ZI_KINDS_TRIP, WHERE)",
    "runQuery (SELECT FROM zkinds_trip)",
    *(
        step
        for code in _CDS_CREATED
        for step in (
            f"validateNewObject ({code})",
            f"createObject ({code})",
            f"objectStructure ({code}, inactive)",
            *(
                (
                    f"lock ({code})",
                    f"setObjectSource ({code})",
                    f"unLock ({code})",
                    f"activate ({code})",
                    f"getObjectSource ({code}, active)",
                )
                if code in _CDS_SOURCES
                else ()
            ),
        )
    ),
    "logout",
)


@pytest.fixture(scope="module")
def cds_run(tmp_path_factory: pytest.TempPathFactory) -> DriverRun:
    """The ``cds`` scenario against an emulator seeded with the kinds fixture (a copy, with
    ZKINDS_TRIP's rows in ``data/`` beside it)."""
    node, npm = shutil.which("node"), shutil.which("npm")
    if node is None or npm is None:
        pytest.skip("node and npm are needed for the abap-adt-api conformance test")
    _ensure_installed(npm)
    root = tmp_path_factory.mktemp("kinds")
    seeded = shutil.copytree(KINDS_FIXTURE, root / KINDS_FIXTURE.name)
    (root / "data").mkdir()
    (root / "data" / "zkinds_trip.tabu.json").write_text(json.dumps(TRIP_ROWS), "utf-8")
    emulator = Emulator(seed_dirs=[seeded], users=USERS)
    with emulator.serve_in_thread() as url:
        result = subprocess.run(
            [
                node,
                "drive.js",
                "--url",
                url,
                "--quiet-http",
                "--timeout",
                "20",
                "--fixture",
                str(KINDS_FIXTURE),
                "cds",
            ],
            cwd=DRIVER_DIR,
            capture_output=True,
            text=True,
            timeout=120,
            check=False,
        )
        locks = emulator.locks()
    lines = [json.loads(line) for line in result.stdout.splitlines() if line.strip()]
    return DriverRun(lines, result.returncode, result.stderr, list(locks))


@pytest.mark.parametrize("name", CDS_STEPS)
def test_cds_step_succeeds(cds_run: DriverRun, name: str) -> None:
    line = cds_run.step("cds", name)
    assert line is not None, f"no step {name!r}; stderr:\n{cds_run.stderr[-2000:]}"
    assert line["ok"], (
        f"cds / {name} failed: {json.dumps(line.get('error'), ensure_ascii=False)}\n"
        f"detail: {json.dumps(line.get('detail'), ensure_ascii=False)[:2000]}"
    )


def test_cds_scenario_reports_nothing_else_and_leaves_no_lock(cds_run: DriverRun) -> None:
    assert [line["step"] for line in cds_run.lines] == list(CDS_STEPS)
    assert cds_run.locks_after == []
