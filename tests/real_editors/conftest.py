"""The real-editor suite: the VS Code extension in code-server, driven through Chromium.

Opt-in and heavy: it is collected only when ``ABAP_ADT_REAL_EDITORS=1`` (which
``tests/real_editors/run.sh`` sets after installing what it needs), so the default test run
neither imports Playwright nor installs anything. Everything listens on 127.0.0.1 and
stops by itself: the emulator runs in this process, code-server under ``timeout``.
"""

from __future__ import annotations

import contextlib
import json
import os
import shutil
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
if not os.environ.get("ABAP_ADT_REAL_EDITORS"):
    collect_ignore_glob = ["test_*.py"]
else:
    sys.path.insert(0, str(HERE))

    from playwright.sync_api import sync_playwright
    from provision import ARTIFACTS, Tools, provision
    from seed import cds_seed
    from support.emulated import USERS
    from support.node_deps import EXTENSION
    from workbench import Editor, Workbench

    from adt.emulator import Emulator, samples_dir
    from adt.emulator.emulator import quality_samples_dir

#: code-server and the language servers it starts end at the latest after this many seconds
LIFETIME_SECONDS = 1800
#: how long code-server keeps a window's extension host after its browser page closed
GRACE_SECONDS = 3
SYSTEM = "A4H"


def _free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def _wait_for_port(port: int, process: subprocess.Popen[bytes], log: Path) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"code-server ended at start: {log.read_text()[-2000:]}")
        with contextlib.suppress(OSError), socket.create_connection(("127.0.0.1", port), 1):
            return
        time.sleep(0.2)
    raise RuntimeError(f"code-server did not listen on 127.0.0.1:{port} within 60 s")


def user_settings(emulator_url: str, system: dict[str, object]) -> dict[str, object]:
    """What a user would put in settings.json, plus quiet defaults for a test browser. No
    password: the extension asks for it. ``system`` adds keys to the system's entry (a test
    module's ``SYSTEM_SETTINGS``, e.g. a browser logon)."""
    venv_bin = Path(sys.executable).parent
    entry = {"name": SYSTEM, "url": emulator_url, "user": "DEVELOPER", **system}
    return {
        "abapAdt.systems": [entry],
        # only here: the server is not on code-server's PATH
        "abapAdt.serverCommand": [str(venv_bin / "abap-adt"), "lsp"],
        "abapAdt.pollInterval": 0,
        "abapAdt.trace.server": "messages",
        "workbench.startupEditor": "none",
        "workbench.tips.enabled": False,
        "workbench.secondarySideBar.defaultVisibility": "hidden",
        "chat.disableAIFeatures": True,
        "telemetry.telemetryLevel": "off",
        "extensions.autoCheckUpdates": False,
        "extensions.autoUpdate": False,
        "update.mode": "none",
        "security.workspace.trust.enabled": False,
        "window.restoreWindows": "none",
        "git.openRepositoryInParentFolders": "never",
        "remote.autoForwardPorts": False,
    }


def extension_id() -> str:
    """The extension's id (publisher.name), which ``--enable-proposed-api`` names."""
    manifest = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))
    return f"{manifest['publisher']}.{manifest['name']}"


def _ports_by_domain(port: int, env: dict[str, str]) -> list[str]:
    """code-server's arguments (and environment) that open a localhost address through its
    domain proxy, ``http://PORT.localhost:CODE_SERVER/…``, which keeps the address's path.
    VS Code in a browser opens a localhost address given to ``openExternal`` through
    code-server (the browser may be on another machine); by default through its path proxy,
    ``/proxy/PORT/…``, where a page's absolute links and redirects (a logon's, here the
    emulator's on 127.0.0.1) leave the prefix and land on code-server itself. Chromium
    resolves ``*.localhost`` to the loopback address by itself."""
    domain = f"{{{{port}}}}.localhost:{port}"
    env["VSCODE_PROXY_URI"] = f"http://{domain}"
    return ["--proxy-domain", domain]


@pytest.fixture(scope="session")
def tools() -> Tools:
    return provision()  # seconds when everything is in place (run.sh did it already)


@pytest.fixture(scope="session")
def shots() -> Path:
    directory = ARTIFACTS / "screenshots"
    shutil.rmtree(directory, ignore_errors=True)
    directory.mkdir(parents=True)
    return directory


@pytest.fixture(scope="module")
def editor(request: pytest.FixtureRequest, tools: Tools, shots: Path) -> Iterator[Editor]:
    """One code-server and browser for a test module. A module may set ``EMULATOR_LOGON``
    (the system's :class:`LogonPolicy`), ``SYSTEM_SETTINGS`` (keys of its settings entry)
    and ``PORTS_BY_DOMAIN`` (see :func:`_ports_by_domain`); by default the system takes user
    and password."""
    # the samples, the quality set ($ZDEMO_QA: ZCL_DEMO_VAT's failing unit test) and CDS
    # views over a table with rows ($ZKINDS, seed.py)
    seeds = [samples_dir(), quality_samples_dir(), cds_seed(ARTIFACTS / "seed")]
    logon = getattr(request.module, "EMULATOR_LOGON", None)
    emulator = Emulator(seed_dirs=seeds, users=USERS, **({"logon": logon} if logon else {}))
    system = dict(getattr(request.module, "SYSTEM_SETTINGS", {}))
    state = ARTIFACTS / "state"
    shutil.rmtree(state, ignore_errors=True)
    (state / "User").mkdir(parents=True)
    workspace = state / "workspace"
    workspace.mkdir()
    port = _free_port()
    log = state / "code-server.log"
    with emulator.serve_in_thread() as emulator_url:
        (state / "User" / "settings.json").write_text(
            json.dumps(user_settings(emulator_url, system), indent=2), encoding="utf-8"
        )
        env = {
            **os.environ,
            "PATH": f"{tools.node.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        }
        env.pop("ADT_URL", None)
        command = [
            "timeout",
            str(LIFETIME_SECONDS),
            str(tools.code_server),
            "--bind-addr",
            f"127.0.0.1:{port}",
            "--auth",
            "none",
            "--user-data-dir",
            str(state),
            "--extensions-dir",
            str(tools.extensions_dir),
            "--disable-telemetry",
            "--disable-update-check",
            "--disable-workspace-trust",
            # the Timeline's provider API is a proposal: granted as a user of VS Code would
            # (code-server grants every extension anyway, docs/real-editors.md)
            "--enable-proposed-api",
            extension_id(),
            "--reconnection-grace-time",  # a closed browser ends its extension host soon
            str(GRACE_SECONDS),
            str(workspace),
        ]
        if getattr(request.module, "PORTS_BY_DOMAIN", False):
            command[-1:-1] = _ports_by_domain(port, env)
        with log.open("wb") as output:
            process = subprocess.Popen(
                command, env=env, stdout=output, stderr=subprocess.STDOUT, start_new_session=True
            )
        try:
            _wait_for_port(port, process, log)
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(
                    executable_path=str(tools.chromium), args=["--no-sandbox"]
                )
                # one context for every window, as one browser profile: they share storage
                context = browser.new_context(viewport={"width": 1400, "height": 850})
                page = context.new_page()
                url = f"http://127.0.0.1:{port}/?folder={workspace}"
                page.goto(url)
                page.locator(".monaco-workbench").wait_for(timeout=90_000)
                page.locator(".statusbar").wait_for()
                editor = Editor(Workbench(page, shots), emulator, state, url, process.pid)
                editor.wait_for_activation(set())  # the extension host starts after the page
                yield editor
                browser.close()
            # the extension host stops its language server, which releases its locks
            deadline = time.monotonic() + 30
            while emulator.locks() and time.monotonic() < deadline:
                time.sleep(0.2)
        finally:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(process.pid, 15)
            process.wait(timeout=30)
    assert emulator.locks() == [], "every lock taken through the editor was released"
