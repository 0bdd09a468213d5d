"""The VS Code extension (editors/vscode), checked without VS Code.

VS Code cannot run here, so this checks what does run: every JavaScript file parses
(``node --check``), the unit tests of the pure modules pass (``node --test``), the manifest
agrees with the code and with docs/lsp-protocol.md, and the pure modules make the right
decisions on the answers of the real language server (against the emulator). The sources are
also type-checked against the VS Code API, after ``npm ci`` in editors/vscode (run here when
node_modules is missing or was installed from another lock file).
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import shutil
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_lsp
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from pytest_lsp import ClientServerConfig, client_capabilities
from support.cds_loop import (
    FIELD_LINE,
    NEW_SERVICE,
    NEW_URLS,
    NEW_VIEW,
    REFUSAL,
    TRANSPORTABLE,
    VIEW_SOURCE_URL,
    assert_both_active,
    assert_created_from_templates,
    cds_emulator,
    new_inactive_table_and_view,
)
from support.emulated import USERS
from support.lsp_editor import EditorClient, make_editor_client
from support.node_deps import NodeDepsError, ensure_node_modules

from adt.emulator import Emulator

REPO = Path(__file__).resolve().parents[2]
EXTENSION = REPO / "editors" / "vscode"
CONTRACT = Path(__file__).with_name("vscode_contract.js")
PROTOCOL_DOC = REPO / "docs" / "lsp-protocol.md"
JAVASCRIPT = sorted([*EXTENSION.glob("src/*.js"), *EXTENSION.glob("test/*.js"), CONTRACT])
LIVE_SETTINGS = ("lockMode", "pollInterval", "checkDelay", "mergeOnSave")


def _node_major(node: str | None) -> int:
    if node is None:
        return 0
    version = subprocess.run([node, "--version"], capture_output=True, text=True, check=False)
    match = re.match(r"v(\d+)\.", version.stdout)
    return int(match.group(1)) if match else 0


NODE = shutil.which("node")
needs_node = pytest.mark.skipif(
    _node_major(NODE) < 20, reason="Node.js 20 or later is not installed"
)


def _node(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess[str]:
    assert NODE is not None
    return subprocess.run(
        [NODE, *args],
        cwd=EXTENSION,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=120,
        check=False,
    )


def _manifest() -> dict[str, Any]:
    return json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def _documented_settings() -> dict[str, tuple[str, str]]:
    """The settings table of docs/lsp-protocol.md: key → (default, meaning)."""
    section = PROTOCOL_DOC.read_text(encoding="utf-8").split("\n## Settings", 1)[1]
    rows = re.findall(r"^\| `(\w+)` \| (.*?) \| (.*) \|$", section, flags=re.MULTILINE)
    return {key: (default.strip("` "), meaning) for key, default, meaning in rows}


def _value(cell: str) -> object:
    """A default as documented: JSON when it parses (``30``, ``0.5``), else the text."""
    try:
        return json.loads(cell)
    except json.JSONDecodeError:
        return cell


def _registered_commands() -> set[str]:
    code = (EXTENSION / "src" / "extension.js").read_text(encoding="utf-8")
    return set(re.findall(r"registerCommand\(\s*'([^']+)'", code))


# --- JavaScript ---------------------------------------------------------------------------


def test_every_javascript_file_is_type_checked_by_the_editor() -> None:
    assert len(JAVASCRIPT) > 10
    for path in JAVASCRIPT:
        assert path.read_text(encoding="utf-8").startswith("// @ts-check\n"), path


@needs_node
@pytest.mark.parametrize("path", JAVASCRIPT, ids=lambda p: p.name)
def test_javascript_parses(path: Path) -> None:
    result = _node("--check", str(path))
    assert result.returncode == 0, result.stderr


@needs_node
def test_unit_tests_of_the_pure_modules_pass(node_modules: Path) -> None:
    """All of them: the grammar's tests too, which need vscode-textmate from node_modules."""
    files = sorted(str(p) for p in EXTENSION.glob("test/*.test.js"))
    result = _node("--test", "--test-reporter=tap", *files)
    assert result.returncode == 0, result.stdout + result.stderr
    passed = re.search(r"^# pass (\d+)$", result.stdout, flags=re.MULTILINE)
    assert passed is not None and int(passed.group(1)) >= 80, result.stdout
    assert re.search(r"^# fail 0$", result.stdout, flags=re.MULTILINE), result.stdout
    assert re.search(r"^# skipped 0$", result.stdout, flags=re.MULTILINE), result.stdout


@pytest.fixture(scope="module")
def node_modules() -> Path:
    """editors/vscode/node_modules as the lock file has it (`npm ci` when missing or stale)."""
    try:
        ensure_node_modules(EXTENSION)
    except NodeDepsError as exc:
        pytest.fail(str(exc))
    return EXTENSION / "node_modules"


@needs_node
def test_sources_type_check_against_the_vscode_api(node_modules: Path) -> None:
    tsc = node_modules / "typescript" / "bin" / "tsc"
    result = _node(str(tsc), "-p", "jsconfig.json")
    assert result.returncode == 0, result.stdout + result.stderr


@needs_node
def test_sources_are_formatted_with_prettier(node_modules: Path) -> None:
    """The extension's code keeps the style of its `.prettierrc.json` (`npm run format`)."""
    prettier = node_modules / "prettier" / "bin" / "prettier.cjs"
    result = _node(str(prettier), "--check", "src", "test")
    assert result.returncode == 0, result.stdout + result.stderr


# --- the manifest -------------------------------------------------------------------------


def test_manifest_basics() -> None:
    manifest = _manifest()
    assert manifest["name"] == "abap-adt"
    assert manifest["engines"]["vscode"] == "^1.85.0"
    assert (EXTENSION / manifest["main"]).is_file()
    assert "vscode-languageclient" in manifest["dependencies"]
    # vsce refuses @types/vscode newer than the engine
    types_version = manifest["devDependencies"]["@types/vscode"].lstrip("~^")
    assert tuple(map(int, types_version.split(".")[:2])) <= (1, 85)


def test_contributed_commands_are_registered_and_activate_the_extension() -> None:
    manifest = _manifest()
    contributed = {command["command"] for command in manifest["contributes"]["commands"]}
    assert contributed == _registered_commands()
    assert {
        "abapAdt.openObject",
        "abapAdt.activate",
        "abapAdt.resolveConflict",
        "abapAdt.searchObjects",
    } <= contributed
    events = set(manifest["activationEvents"])
    # onStartupFinished: Ctrl+T (workspace symbols) finds objects before anything was opened
    assert events == {"onFileSystem:adt", "onStartupFinished"} | {
        f"onCommand:{name}" for name in contributed
    }


def test_menus_and_keybindings_name_contributed_commands() -> None:
    contributes = _manifest()["contributes"]
    contributed = {command["command"] for command in contributes["commands"]}
    used = [item["command"] for items in contributes["menus"].values() for item in items]
    used += [binding["command"] for binding in contributes["keybindings"]]
    assert used
    assert set(used) <= contributed


def test_configuration_defaults_are_the_documented_ones() -> None:
    properties = _manifest()["contributes"]["configuration"]["properties"]
    documented = _documented_settings()
    defaults = {key: documented[key][0] for key in LIVE_SETTINGS}
    assert defaults == {
        "lockMode": "onSave",
        "pollInterval": "30",
        "checkDelay": "0.5",
        "mergeOnSave": "ask",
    }
    for key in LIVE_SETTINGS:
        assert properties[f"abapAdt.{key}"]["default"] == _value(documented[key][0])
    assert properties["abapAdt.lockMode"]["enum"] == ["onSave", "onEdit"]
    assert properties["abapAdt.mergeOnSave"]["enum"] == ["ask", "auto"]
    assert properties["abapAdt.serverCommand"]["default"] == ["abap-adt", "lsp"]
    server_side = {key.removeprefix("abapAdt.") for key in properties}
    assert server_side - {"serverCommand", "trace.server"} <= set(documented)


def test_system_entries_take_the_documented_keys_but_no_password() -> None:
    systems = _manifest()["contributes"]["configuration"]["properties"]["abapAdt.systems"]
    keys = set(re.findall(r'"(\w+)"', _documented_settings()["systems"][1]))
    assert "password" in keys
    assert set(systems["items"]["properties"]) == keys - {"password"}
    assert systems["items"]["additionalProperties"] is False
    # `url` may come from an OAuth service key; settings.js asks for it otherwise
    assert systems["items"]["required"] == ["name", "user"]


def test_readme_has_no_relative_links_which_vsce_refuses() -> None:
    """`vsce package` stops on a relative link when package.json names no repository."""
    readme = (EXTENSION / "README.md").read_text(encoding="utf-8")
    assert re.findall(r"\]\((?!https?://|#)[^)]*\)", readme) == []


def test_language_abap_covers_adt_documents() -> None:
    language, *others = _manifest()["contributes"]["languages"]
    assert language["id"] == "abap"
    assert language["extensions"] == [".abap"]
    # VS Code matches a pattern with a slash against the whole path of non-file URIs
    assert language["filenamePatterns"] == ["/sap/bc/adt/**"]
    configuration = json.loads((EXTENSION / language["configuration"]).read_text("utf-8"))
    assert configuration["comments"] == {"lineComment": '"'}
    assert ["(", ")"] in configuration["brackets"]
    # CDS, RAP and dictionary sources: longer patterns than abap's, which VS Code prefers
    assert {o["id"]: o["filenamePatterns"] for o in others} == {
        "abap-cds": [
            "/sap/bc/adt/ddic/ddl/sources/**",
            "/sap/bc/adt/ddic/ddlx/sources/**",
            "/sap/bc/adt/acm/dcl/sources/**",
        ],
        "abap-bdef": ["/sap/bc/adt/bo/behaviordefinitions/**"],
        "abap-srvd": ["/sap/bc/adt/ddic/srvd/sources/**"],
        "abap-ddic": ["/sap/bc/adt/ddic/tables/**", "/sap/bc/adt/ddic/structures/**"],
        "xml": [  # metadata objects: their document (VS Code's own xml language)
            "/sap/bc/adt/ddic/dataelements/**",
            "/sap/bc/adt/ddic/domains/**",
            "/sap/bc/adt/ddic/tabletypes/**",
            "/sap/bc/adt/messageclass/**",
            "/sap/bc/adt/businessservices/bindings/**",
        ],
    }
    from adt.kinds import KINDS

    for kind in KINDS.kinds:  # each kind's language is the one its URLs get
        if kind.language != "abap":
            matching = [
                o["id"]
                for o in others
                for p in o["filenamePatterns"]
                if f"/sap/bc/adt/{kind.collection}/" in p
            ]
            assert matching == [kind.language], kind.code


# --- the pure modules on the real server's answers ----------------------------------------

SYSTEM = "A4H"
NAME = "/ABC/CL_X"
SOURCE = "CLASS /abc/cl_x DEFINITION PUBLIC.\nENDCLASS.\nCLASS /abc/cl_x IMPLEMENTATION.\nENDCLASS."
TESTS = """* tests
CLASS ltc_x DEFINITION FINAL FOR TESTING DURATION SHORT RISK LEVEL HARMLESS.
  PRIVATE SECTION.
    METHODS passes FOR TESTING.
    METHODS fails FOR TESTING.
ENDCLASS.
CLASS ltc_x IMPLEMENTATION.
  METHOD passes.
    cl_abap_unit_assert=>assert_equals( act = 1 exp = 1 ).
  ENDMETHOD.
  METHOD fails.
    cl_abap_unit_assert=>fail( msg = 'wrong greeting' ).
  ENDMETHOD.
ENDCLASS.
"""
PACKAGE = (
    '<?xml version="1.0" encoding="utf-8"?><abapGit version="v1.0.0"><asx:abap '
    'xmlns:asx="http://www.sap.com/abapxml" version="1.0"><asx:values><DEVC>'
    "<CTEXT>An empty package</CTEXT></DEVC></asx:values></asx:abap></abapGit>"
)


def _contract(mode: str, payload: object) -> dict[str, Any]:
    result = _node(str(CONTRACT), mode, stdin=json.dumps(payload))
    assert result.returncode == 0, result.stderr
    return json.loads(result.stdout)  # type: ignore[no-any-return]


@pytest.fixture
def emulator(tmp_path: Path, request: pytest.FixtureRequest) -> Emulator:
    """A system with one namespaced class (and a colleague who changes it) and an empty
    package; for a test marked ``cds``, the CDS samples and ZTRIP's rows instead."""
    if request.node.get_closest_marker("cds"):
        return cds_emulator(tmp_path)
    (tmp_path / "#abc#cl_x.clas.abap").write_text(SOURCE + "\n", encoding="utf-8")
    (tmp_path / "#abc#cl_x.clas.testclasses.abap").write_text(TESTS, encoding="utf-8")
    (tmp_path / "$zabc").mkdir()
    (tmp_path / "$zabc" / "package.devc.xml").write_text(PACKAGE, encoding="utf-8")
    return Emulator(users=USERS, seed_dirs=[tmp_path])


@pytest.fixture
def emulator_url(emulator: Emulator) -> Iterator[str]:
    with emulator.serve_in_thread() as url:
        yield url


@pytest_lsp.fixture(
    config=ClientServerConfig(
        server_command=[sys.executable, "-m", "lsp_server"],
        client_factory=make_editor_client,
        server_env={**os.environ, "ABAP_ADT_CONFIG": os.devnull, "ADT_URL": ""},
    ),
)
async def vscode(lsp_client: EditorClient, emulator_url: str) -> AsyncIterator[None]:
    """The server started as the extension starts it: initializationOptions from settings.js."""
    settings = {
        "systems": [{"name": SYSTEM, "url": emulator_url, "user": "DEVELOPER"}],
        "pollInterval": 0,
    }
    start = _contract("options", {"settings": settings, "passwords": {SYSTEM: "developer"}})
    assert start["warnings"] == [] and start["withoutPassword"] == []
    await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options=start["options"],
        )
    )
    yield
    await lsp_client.shutdown_session()


@needs_node
async def test_pure_modules_decide_right_on_the_servers_answers(
    vscode: EditorClient, emulator: Emulator
) -> None:
    client = vscode
    opened = await client.request("adt/openObject", {"name": NAME})
    assert opened["found"], opened
    uri = opened["uri"]
    source = uri.removeprefix(f"adt://{SYSTEM}")
    read = await client.open(uri)
    client.insert_line(uri, 0, "* saved from VS Code")
    saved = await client.save(uri)

    # A colleague changes the class; our next save conflicts and the question is dismissed.
    theirs = "* COLLEAGUE was here\n" + (emulator.source(source) or "")
    emulator.write_as("COLLEAGUE", source, theirs)
    client.insert_line(uri, 0, "* mine")
    conflict = await client.save(uri)
    await client.until(lambda: client.questions)
    # "ABAP: Resolve Save Conflict…" → Reload theirs, then the editor is saved once more,
    # which must write nothing: it only clears VS Code's dirty mark.
    resolved = await client.request("adt/resolveConflict", {"uri": uri, "choice": "reload"})
    await client.until(lambda: client.texts[uri] == theirs)
    after_resolving = await client.save(uri)
    assert after_resolving["status"] == "unchanged"
    assert emulator.source(source) == theirs

    hits = await client.request("adt/searchObjects", {"query": "/ABC/*"})
    structure = await client.request("adt/objectStructure", {"uri": uri})
    activation = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="adt.activate", arguments=[uri])
    )
    home = structure["package"]
    packages = [
        await client.request("adt/packageContents", {"package": name}) for name in ("$TMP", home)
    ]
    testclasses = uri.replace("/source/main", "/includes/testclasses")
    await client.open(testclasses)
    lenses = await client.text_document_code_lens_async(
        types.CodeLensParams(text_document=types.TextDocumentIdentifier(uri=testclasses))
    )
    unit = await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="adt.runUnitTests", arguments=[testclasses])
    )
    seen = _contract(
        "understand",
        {
            "opened": opened,
            "read": read,
            "saved": saved,
            "conflict": conflict,
            "resolved": resolved,
            "afterResolving": after_resolving,
            "hits": hits,
            "structure": structure,
            "activation": activation,
            "packages": packages,
            "testing": {
                "uri": testclasses,
                "lenses": [
                    {
                        "line": lens.range.start.line,
                        "command": lens.command and lens.command.command,
                        "arguments": lens.command and lens.command.arguments,
                    }
                    for lens in lenses or []
                ],
                "result": unit,
            },
        },
    )
    assert "%2fabc%2fcl_x" in uri
    assert seen["roundTrip"] == uri
    assert seen["label"] == NAME
    assert seen["stat"] == {"mtime": read["changedAt"], "size": len(read["text"].encode())}
    assert read["changedAt"] > 0
    assert seen["saved"] == {"ok": True, "message": f"Saved {NAME} (1 changed block)."}
    assert seen["conflict"]["ok"] is False
    assert f"{NAME} was changed on the server by COLLEAGUE" in seen["conflict"]["message"]
    assert seen["resolved"]["saveEditor"] is True
    assert seen["afterResolving"]["ok"] is True
    assert [item["documentUri"] for item in seen["searchItems"]] == [uri]
    assert {item["documentUri"] for item in seen["includeItems"]} == {uri, testclasses}
    assert seen["activation"] == {"level": "info", "message": f"Activated {NAME}."}
    # the ABAP Packages view: $ZABC under $TMP (no source: a package expands instead), and
    # the class in its package, opening the document the server named
    tmp_nodes, home_nodes = seen["packages"]
    assert {"label": "$ZABC", "contextValue": "package"}.items() <= next(
        n for n in tmp_nodes if n["label"] == "$ZABC"
    ).items()
    [cls] = [n for n in home_nodes if n["label"] == NAME]
    assert (cls["contextValue"], cls["icon"], cls["documentUri"]) == ("object", "symbol-class", uri)
    # the Testing view: the class and its methods from the lenses, the run's outcomes
    fail_line = TESTS.split("\n").index("    cl_abap_unit_assert=>fail( msg = 'wrong greeting' ).")
    testing = seen["testing"]
    assert [
        (c["name"].upper(), [m["name"].upper() for m in c["methods"]]) for c in testing["classes"]
    ] == [("LTC_X", ["PASSES", "FAILS"])]
    passes, fails = testing["outcomes"]
    assert passes == {"id": f"{testclasses}#LTC_X#PASSES", "state": "passed"}
    assert (fails["state"], fails["uri"], fails["line"]) == ("failed", testclasses, fail_line)
    assert "wrong greeting" in fails["message"]


@needs_node
async def test_the_views_decide_right_on_the_servers_answers(
    vscode: EditorClient, emulator: Emulator
) -> None:
    """The Transports view on the user's requests and the release's checks, the Testing
    view on a package's run, the Versions view on a saved, unactivated change."""
    client = vscode
    number = emulator.create_transport_request("Views of VS Code")
    with emulator.state.lock:  # a colleague works on the same request
        emulator.state.cts.add_task(number, "COLLEAGUE")
    emulator.create_transport_request("Not mine", owner="COLLEAGUE")
    requests = await _execute(client, "adt.transportRequests")
    [mine] = requests["requests"]
    own_task = next(t["number"] for t in mine["tasks"] if t["owner"] == "DEVELOPER")
    refused = await _execute(client, "adt.checkRelease", number)
    releasable = await _execute(client, "adt.checkRelease", own_task, SYSTEM)
    opened = await client.request("adt/openObject", {"name": NAME})
    uri = opened["uri"]
    home = (await client.request("adt/objectStructure", {"uri": uri}))["package"]
    run = await _execute(client, "adt.runPackageTests", home)
    await client.open(uri)
    client.insert_line(uri, 0, "* saved, not activated")
    assert (await client.save(uri))["status"] == "saved"
    versions = await client.request("adt/versions", {"uri": uri})
    seen = _contract(
        "views",
        {
            "requests": requests,
            "refused": refused,
            "releasable": releasable,
            "run": run,
            "versions": versions,
            "uri": uri,
            "label": NAME,
        },
    )
    assert [r["label"] for r in seen["requests"]] == [number]
    assert seen["requests"][0]["description"] == "Views of VS Code"
    assert sorted(t["description"].split(" · ")[0] for t in seen["tasks"]) == [
        "COLLEAGUE",
        "DEVELOPER",
    ]
    assert seen["objects"] == []
    assert seen["refused"]["releasable"] is False
    assert "Nothing was released" in seen["refused"]["message"]
    assert "open tasks of other users" in seen["refused"]["detail"]
    assert seen["releasable"]["releasable"] is True
    assert seen["releasable"]["message"].endswith(f"Release task {own_task} of {number}?")
    # the package's run: the class, its test class and both methods where they are
    testclasses = uri.replace("/source/main", "/includes/testclasses")
    lines = TESTS.split("\n")
    [tested] = seen["tested"]
    assert (tested["name"], tested["documentUri"]) == (NAME, uri)
    [cls] = tested["classes"]
    assert cls["place"] == {
        "uri": testclasses,
        "line": lines.index(
            next(line for line in lines if line.startswith("CLASS ltc_x DEFINITION"))
        ),
    }
    assert [m["place"]["line"] for m in cls["methods"]] == [
        lines.index("  METHOD passes."),
        lines.index("  METHOD fails."),
    ]
    passes, fails = seen["outcomes"]
    assert passes["state"] == "passed" and isinstance(passes["durationMs"], int)
    fail_line = lines.index("    cl_abap_unit_assert=>fail( msg = 'wrong greeting' ).")
    assert (fails["state"], fails["uri"], fails["line"]) == ("failed", testclasses, fail_line)
    assert "wrong greeting" in fails["message"]
    # the versions of the saved, unactivated class: the draft first, then the active one
    assert [v["icon"] for v in seen["versions"]][:2] == ["edit", "pass"]
    assert seen["versions"][0]["label"] == "inactive version"
    assert seen["versions"][0]["description"].startswith("DEVELOPER")


async def _execute(client: EditorClient, command: str, *arguments: Any) -> Any:
    return await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command=command, arguments=list(arguments))
    )


@needs_node
@pytest.mark.cds
async def test_activate_offers_the_inactive_table_under_a_view_then_previews(
    vscode: EditorClient, emulator: Emulator
) -> None:
    """*ABAP: Activate* on a CDS view over a table that was never activated: the refusal
    names the table and offers "Activate Together" with its object URL; the set activates and
    is said so; the data preview's first page follows."""
    client = vscode
    await new_inactive_table_and_view(emulator)
    opened = await client.request("adt/openObject", {"name": "ZI_TRIP"})
    uri = opened["uri"]
    assert uri == f"adt://{SYSTEM}{VIEW_SOURCE_URL}"
    await client.open(uri)
    completion = await client.text_document_completion_async(
        types.CompletionParams(types.TextDocumentIdentifier(uri=uri), client.position(uri, 3, 2))
    )
    assert completion is not None
    items = completion.items if isinstance(completion, types.CompletionList) else completion
    assert "CITY" in {i.label.upper() for i in items}
    client.edit(uri, (3, 0), (3, 2), FIELD_LINE)
    assert (await client.save(uri))["status"] == "saved"

    async def activate(*arguments: object) -> Any:
        return await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="adt.activate", arguments=list(arguments))
        )

    alone = await activate(uri)
    assert REFUSAL in str(alone["findings"])
    offer = _contract(
        "activation", {"label": "ZI_TRIP", "alone": alone, "together": {}, "page": _EMPTY}
    )["offer"]
    assert offer["choice"] == "Activate Together"
    assert offer["message"] == (
        "ZI_TRIP was not activated: it uses ZTRIP (TABL/DT), which is not active. "
        "Activate it together with ZI_TRIP (in dependency order)?"
    )
    together = await activate(uri, offer["together"])
    page = await client.request("adt/dataPreview", {"uri": uri, "limit": 2})
    seen = _contract(
        "activation", {"label": "ZI_TRIP", "alone": alone, "together": together, "page": page}
    )
    assert seen["outcome"] == {"level": "info", "message": "Activated ZTRIP, ZI_TRIP."}
    assert_both_active(emulator)
    assert seen["paging"]["summary"] == "ZI_TRIP: rows 1–2 of 5" and seen["paging"]["hasNext"]
    assert emulator.locks() == []


_EMPTY = {"entity": "", "offset": 0, "rows": [], "totalRows": 0}


@needs_node
@pytest.mark.cds
async def test_new_object_creates_a_view_its_behavior_and_service_from_templates(
    vscode: EditorClient, emulator: Emulator
) -> None:
    """*ABAP: New Object* offers every kind the server creates, asks a view, an access
    control and a service definition what they build on, and sends it; the server answers
    the transport question for the package and writes the filled templates."""
    from adt.workbench.objects import KINDS

    client = vscode
    await new_inactive_table_and_view(emulator)
    common = {"description": "Trips", "package": TRANSPORTABLE.lower(), "system": SYSTEM}
    entered = [
        {"kind": "dataDefinition", "name": NEW_VIEW.lower(), "basedOn": "ztrip", **common},
        {"kind": "behaviorDefinition", "name": NEW_VIEW.lower(), **common},
        {"kind": "serviceDefinition", "name": NEW_SERVICE, "basedOn": NEW_VIEW, **common},
    ]
    seen = _contract("create", {"entered": entered})
    assert seen["kinds"] == list(KINDS)
    assert seen["asksBasis"] == [
        "dataDefinition",
        "accessControl",
        "serviceDefinition",
        "serviceBinding",
    ]
    created = []
    for params in seen["params"]:
        client.answers.append(
            "Create new request…" if not created else f"{created[0]} Changes to {NEW_VIEW}"
        )
        result = await client.workspace_execute_command_async(
            types.ExecuteCommandParams(command="adt.createObject", arguments=[params])
        )
        assert result["uri"] == f"adt://{SYSTEM}{NEW_URLS[params['kind']]}/source/main"
        created.append(result["transport"])
    assert len(set(created)) == 1 and len(client.questions) == 3
    assert_created_from_templates(emulator)
    assert emulator.locks() == []


@needs_node
async def test_status_bar_follows_the_servers_lock(
    vscode: EditorClient, emulator: Emulator
) -> None:
    client = vscode
    uri = (await client.request("adt/openObject", {"name": NAME}))["uri"]
    await client.open(uri)
    state = await client.request("adt/documentState", {"uri": uri})
    assert state == {
        "uri": uri,
        "system": SYSTEM,
        "objectUrl": "/sap/bc/adt/oo/classes/%2fabc%2fcl_x",
        "lockMode": "onSave",
        "locked": False,
        "open": True,
        "dirty": False,
        "inactive": False,
    }
    assert _contract("status", {"state": state})["text"] == "$(unlock) A4H"

    client.configure({"lockMode": "onEdit", "pollInterval": 0})
    client.insert_line(uri, 0, "* typing")
    await client.until(lambda: emulator.locks())
    # The system holds the lock before the server has read its answer: ask until it has
    # (each pass is a round trip to the server; the timeout only bounds a hang).
    async with asyncio.timeout(60):
        while True:
            locked = await client.request("adt/documentState", {"uri": uri})
            if locked["locked"]:
                break
            await asyncio.sleep(0.02)
    assert locked["locked"] and locked["dirty"] and locked["lockMode"] == "onEdit"
    shown = _contract("status", {"state": locked})
    assert shown["text"] == "$(lock) A4H"
    assert shown["tooltip"].startswith(f"{NAME} on A4H: locked for your edits")


@needs_node
async def test_status_bar_shows_an_inactive_version_until_activation(
    vscode: EditorClient, emulator: Emulator
) -> None:
    """A save leaves an inactive version (the system runs the active one): the status bar says
    so, with what to do, until the object is activated."""
    client = vscode
    uri = (await client.request("adt/openObject", {"name": NAME}))["uri"]
    read = await client.open(uri)
    assert read["inactive"] is False
    client.insert_line(uri, 0, "* not active yet")
    assert (await client.save(uri))["status"] == "saved"

    async def inactive() -> object:
        return (await client.request("adt/documentState", {"uri": uri}))["inactive"]

    await client.until(lambda: client.base_versions and client.base_versions[-1]["inactive"])
    assert await inactive() is True
    shown = _contract("status", {"state": await client.request("adt/documentState", {"uri": uri})})
    assert shown["text"] == "$(unlock) A4H $(circle-outline) inactive"
    assert "Saved but not activated" in shown["tooltip"]

    await client.workspace_execute_command_async(
        types.ExecuteCommandParams(command="adt.activate", arguments=[uri])
    )
    await client.until(lambda: client.base_versions[-1]["inactive"] is False)
    assert await inactive() is False
    assert emulator.locks() == []


@needs_node
async def test_open_object_offers_no_package(vscode: EditorClient) -> None:
    """A package is found by name but has no source: "Open Object" says so instead of
    offering it (and failing to open it)."""
    opened = await vscode.request("adt/openObject", {"name": "$ZABC"})
    assert opened["found"] is False
    assert [(hit["name"], "documentUri" in hit) for hit in opened["candidates"]] == [
        ("$ZABC", False)
    ]
    choice = _contract("candidates", {"name": "$ZABC", "opened": opened})
    assert choice["items"] == []
    assert choice["message"] == (
        "No ABAP source is named $ZABC; found only objects without a source: $ZABC (DEVC/K)."
    )
    # a candidate with a source is offered and opened by its documentUri, without asking again
    partial = await vscode.request("adt/openObject", {"name": "/ABC/CL"})
    assert partial["found"] is False
    offered = _contract("candidates", {"name": "/ABC/CL", "opened": partial})["items"]
    assert [item["documentUri"] for item in offered] == [
        f"adt://{SYSTEM}/sap/bc/adt/oo/classes/%2fabc%2fcl_x/source/main"
    ]


@needs_node
async def test_a_system_that_went_down_is_said_in_the_users_words_quickly(
    tmp_path: Path,
) -> None:
    """Issue 18: with the system down, opening failed after 9.5 s and saving after 29 s with
    "GET …/search … ConnectError". Now the save fails after one round of retries (the system
    may have been restarting), the next request at once, and both say what happened."""
    emulator = Emulator(users=USERS)
    client = make_editor_client()
    env = {**os.environ, "ABAP_ADT_CONFIG": os.devnull, "ADT_URL": ""}
    await client.start_io(sys.executable, "-m", "lsp_server", env=env)
    try:
        with emulator.serve_in_thread() as url:
            settings = {
                "systems": [{"name": SYSTEM, "url": url, "user": "DEVELOPER"}],
                "pollInterval": 0,
            }
            start = _contract("options", {"settings": settings, "passwords": {SYSTEM: "developer"}})
            await client.initialize_session(
                types.InitializeParams(
                    capabilities=client_capabilities("visual-studio-code"),
                    initialization_options=start["options"],
                )
            )
            uri = f"adt://{SYSTEM}/sap/bc/adt/programs/programs/zdemo_report/source/main"
            await client.open(uri)
            client.insert_line(uri, 0, "* typed while the system goes down")
        # the emulator stopped: nothing listens on its port any more
        began = time.monotonic()
        saved = await client.save(uri)
        save_seconds = time.monotonic() - began
        began = time.monotonic()
        with pytest.raises(JsonRpcException) as opened:
            await client.request("adt/openObject", {"name": "ZDEMO_INCLUDE"})
        open_seconds = time.monotonic() - began
        said = _contract(
            "failure",
            {
                "label": "ZDEMO_REPORT",
                "saved": saved,
                "error": {
                    "code": opened.value.code,
                    "message": opened.value.message,
                    "data": opened.value.data,
                },
            },
        )
    finally:
        await client.shutdown_session()
    print(f"system down: the save failed after {save_seconds:.1f} s, the open {open_seconds:.1f} s")
    assert saved["status"] == "error"
    assert said["saved"]["message"].startswith(
        f"Not saved: The ABAP system at {url} cannot be reached: nothing answers there."
    )
    assert said["error"].startswith(f"The ABAP system at {url} cannot be reached")
    for message in (said["saved"]["message"], said["error"]):
        assert "ConnectError" not in message and "GET " not in message
    assert save_seconds < 10, "one round of retries (1 + 2 + 4 s), not one per request"
    assert open_seconds < 2, "still down: refused at once"


async def _language_server(url: str) -> EditorClient:
    """A language server process started as the extension starts it."""
    client = make_editor_client()
    env = {**os.environ, "ABAP_ADT_CONFIG": os.devnull, "ADT_URL": ""}
    await client.start_io(sys.executable, "-m", "lsp_server", env=env)
    settings = {"systems": [{"name": SYSTEM, "url": url, "user": "DEVELOPER"}], "pollInterval": 0}
    start = _contract("options", {"settings": settings, "passwords": {SYSTEM: "developer"}})
    await client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options=start["options"],
        )
    )
    return client


@needs_node
async def test_after_a_restart_unsaved_edits_are_saved_against_the_version_they_were_read_at(
    emulator: Emulator, emulator_url: str
) -> None:
    """Issue 18, N1 in VS Code: read, save, type again, the server dies, a colleague changes
    another line; the new server gets the base the extension recorded (after the save: the
    saved version, its text proven by the token's hash), so the save is a conflict and
    Merge keeps both changes."""
    uri = f"adt://{SYSTEM}/sap/bc/adt/oo/classes/%2fabc%2fcl_x/source/main"
    source = uri.removeprefix(f"adt://{SYSTEM}")
    events: list[dict[str, Any]] = [{"kind": "start"}]
    first = await _language_server(emulator_url)  # stays up: the new one knows nothing of it
    try:
        read = await first.open(uri)
        events.append({"kind": "read", "uri": uri, "read": read})
        first.insert_line(uri, 0, "* saved before the crash")
        saved = await first.save(uri)
        events.append(
            {"kind": "saved", "uri": uri, "token": saved["token"], "text": first.texts[uri]}
        )
        base = await first.until(lambda: first.base_versions)
        events.append(
            {"kind": "base", "uri": uri, "token": base[-1]["token"], "text": first.texts[uri]}
        )
        first.insert_line(uri, 1, "* MINE, unsaved when the server died")
        mine = first.texts[uri]
        lines = (emulator.source(source) or "").split("\n")
        lines[-2] = lines[-2] + ' " COLLEAGUE was here'
        emulator.write_as("COLLEAGUE", source, "\n".join(lines))
        theirs = emulator.source(source) or ""
        second = await _language_server(emulator_url)
    finally:
        await first.shutdown_session()
    try:
        second.open_text(uri, mine)
        events += [{"kind": "start"}, {"kind": "opened", "uri": uri, "text": mine, "dirty": True}]
        [params] = _contract("bases", {"events": events})["sent"]
        assert params == {
            "uri": uri,
            "baseToken": saved["token"],
            "baseText": "* saved before the crash\n" + read["text"],
        }
        restored = await second.request("adt/restoreDocument", params)
        assert restored["status"] == "changed" and restored["changedBy"] == "COLLEAGUE"
        said = _contract("restore", {"result": restored, "label": NAME, "dirty": True})
        assert said["message"].startswith(f"{NAME} was changed on the server by COLLEAGUE")
        second.answers.append("Merge")
        conflict = await second.save(uri)
        assert conflict["status"] == "conflict", "not saved over the colleague's change"
        await second.until(lambda: "MINE" in (emulator.source(source) or ""))
        merged = emulator.source(source) or ""
        assert "* MINE, unsaved when the server died" in merged
        assert "COLLEAGUE was here" in merged and merged.count("\n") == theirs.count("\n") + 1
        await second.until(lambda: emulator.locks() == [])
    finally:
        await second.shutdown_session()
