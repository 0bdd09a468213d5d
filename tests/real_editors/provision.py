"""Install what the real-editor suite needs, once: Debian's chromium, Node 24 and code-server
4.139 from npm, vsce, Playwright for Python; then package the extension and install it into
code-server. Every step checks first and does nothing when its piece is in place, so a second
run takes seconds. A piece that cannot be installed stops the run with a message that names
it and says what to do.

Run ``python tests/real_editors/provision.py``; tests/real_editors/run.sh calls it.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(REPO / "tests"))

from support.node_deps import EXTENSION, NodeDepsError, ensure_node_modules  # noqa: E402

CODE_SERVER_VERSION = "4.139.1"
NODE_MAJOR = "24"
VSCE_VERSION = "4"
PLAYWRIGHT = "playwright>=1.50"
APT_PACKAGES = ("chromium", "libkrb5-dev", "build-essential", "pkg-config")
CACHE = Path(
    os.environ.get("ABAP_ADT_REAL_EDITORS_CACHE")
    or Path.home() / ".cache" / "abap-adt" / "real-editors"
)
ARTIFACTS = HERE / "artifacts"


class ProvisionError(SystemExit):
    """A piece could not be installed; the message names it and says what to do."""

    def __init__(self, piece: str, reason: str) -> None:
        super().__init__(f"real-editor suite: cannot provide {piece}: {reason}")


@dataclass(frozen=True)
class Tools:
    """Where the installed pieces are."""

    node: Path  # Node 24
    code_server: Path
    chromium: Path
    vsix: Path
    extensions_dir: Path

    def to_json(self) -> str:
        return json.dumps({key: str(value) for key, value in self.__dict__.items()})

    @classmethod
    def from_json(cls, text: str) -> Tools:
        return cls(**{key: Path(value) for key, value in json.loads(text).items()})


def _say(message: str) -> None:
    print(f"[real-editors] {message}", flush=True)


def _run(piece: str, args: list[str], **kwargs: object) -> str:
    """Run a step; its output is shown only when it fails."""
    try:
        result = subprocess.run(
            args,
            capture_output=True,
            text=True,
            check=False,
            timeout=1800,
            **kwargs,  # type: ignore[arg-type]
        )
    except (OSError, subprocess.TimeoutExpired) as exc:
        raise ProvisionError(piece, f"{' '.join(args)}: {exc}") from exc
    if result.returncode != 0:
        tail = "\n".join((result.stdout + result.stderr).strip().splitlines()[-25:])
        raise ProvisionError(piece, f"`{' '.join(args)}` failed:\n{tail}")
    return result.stdout


def _apt_missing() -> list[str]:
    missing = []
    for package in APT_PACKAGES:
        status = subprocess.run(
            ["dpkg-query", "-W", "-f=${Status}", package],
            capture_output=True,
            text=True,
            check=False,
        )
        if "install ok installed" not in status.stdout:
            missing.append(package)
    return missing


def apt_packages() -> Path:
    """Debian's chromium (the browser Playwright drives) and what code-server's native
    modules need to build (kerberos wants the GSSAPI headers)."""
    if shutil.which("dpkg-query") is None:
        raise ProvisionError("Debian packages", "this is not a Debian system (no dpkg-query)")
    missing = _apt_missing()
    if missing:
        if os.geteuid() != 0:
            raise ProvisionError(
                ", ".join(missing), f"run `sudo apt-get install -y {' '.join(missing)}` first"
            )
        _say(f"apt-get install {' '.join(missing)}")
        _run("apt package lists", ["apt-get", "update", "-q"])
        _run(
            ", ".join(missing),
            ["apt-get", "install", "-y", "-q", *missing],
            env={**os.environ, "DEBIAN_FRONTEND": "noninteractive"},
        )
    chromium = shutil.which("chromium")
    if chromium is None:
        raise ProvisionError("chromium", "the Debian package is installed but not on PATH")
    return Path(chromium)


def _npm() -> str:
    npm = shutil.which("npm")
    if npm is None:
        raise ProvisionError("npm packages", "npm is not installed (apt-get install npm)")
    return npm


def node24() -> Path:
    """Node 24 from the npm package ``node@24`` (code-server 4.139 needs exactly 24)."""
    prefix = CACHE / "node24"
    node = prefix / "node_modules" / "node" / "bin" / "node"
    if node.is_file() and _version(node).startswith(f"v{NODE_MAJOR}."):
        return node
    _say(f"npm install node@{NODE_MAJOR}")
    prefix.mkdir(parents=True, exist_ok=True)
    _run(
        f"Node {NODE_MAJOR}",
        [_npm(), "install", "--no-save", "--prefix", str(prefix), f"node@{NODE_MAJOR}"],
    )
    if not node.is_file() or not _version(node).startswith(f"v{NODE_MAJOR}."):
        raise ProvisionError(f"Node {NODE_MAJOR}", f"{node} is missing or not version {NODE_MAJOR}")
    return node


def _version(binary: Path) -> str:
    result = subprocess.run([str(binary), "--version"], capture_output=True, text=True, check=False)
    return result.stdout.strip()


def _node_env(node: Path) -> dict[str, str]:
    """An environment whose ``node`` is ``node`` (npm's scripts and node-gyp run it)."""
    home = _node_home(node)
    return {
        **os.environ,
        "PATH": f"{node.parent}{os.pathsep}{os.environ.get('PATH', '')}",
        "npm_config_nodedir": str(home),  # headers for node-gyp: no download
    }


def _node_home(node: Path) -> Path:
    """The Node distribution with ``include/node`` (the headers node-gyp builds against):
    the npm package ``node`` keeps it in its platform package."""
    package = node.resolve().parent.parent
    for home in [package, *sorted((package / "node_modules").glob("node-*"))]:
        if (home / "include" / "node" / "node.h").is_file():
            return home
    raise ProvisionError(f"Node {NODE_MAJOR}", f"no include/node/node.h under {package}")


def code_server(node: Path) -> Path:
    """code-server from npm: installed without scripts, then its postinstall run by hand
    with the user agent naming Node 24 (as root npm would skip or refuse it)."""
    prefix = CACHE / "code-server"
    package = prefix / "node_modules" / "code-server"
    binary = prefix / "node_modules" / ".bin" / "code-server"
    done = prefix / f".postinstall-{CODE_SERVER_VERSION}"
    if done.is_file() and binary.exists():
        return binary
    _say(f"npm install code-server@{CODE_SERVER_VERSION} (and build its native modules)")
    prefix.mkdir(parents=True, exist_ok=True)
    env = _node_env(node)
    _run(
        f"code-server {CODE_SERVER_VERSION}",
        [
            _npm(),
            "install",
            "--no-save",
            "--ignore-scripts",
            "--prefix",
            str(prefix),
            f"code-server@{CODE_SERVER_VERSION}",
        ],
        env=env,
    )
    npm_version = _run("npm", [_npm(), "--version"], env=env).strip()
    agent = f"npm/{npm_version} node/{_version(node)} linux x64"
    _run(
        f"code-server {CODE_SERVER_VERSION} (postinstall.sh)",
        ["sh", "postinstall.sh"],
        cwd=package,
        env={**env, "npm_config_user_agent": agent},
    )
    done.write_text(agent, encoding="utf-8")
    return binary


def vsce(node: Path) -> Path:
    """``@vscode/vsce``, which packages the extension."""
    prefix = CACHE / "vsce"
    binary = prefix / "node_modules" / "@vscode" / "vsce" / "vsce"
    if binary.is_file():
        return binary
    _say(f"npm install @vscode/vsce@{VSCE_VERSION}")
    prefix.mkdir(parents=True, exist_ok=True)
    _run(
        "@vscode/vsce",
        [_npm(), "install", "--no-save", "--prefix", str(prefix), f"@vscode/vsce@{VSCE_VERSION}"],
        env=_node_env(node),
    )
    return binary


def playwright() -> None:
    """Playwright for Python, without its browsers (the suite drives Debian's chromium)."""
    try:
        import playwright.sync_api  # noqa: F401
    except ImportError:
        _say(f"pip install {PLAYWRIGHT}")
        _run("Playwright", [sys.executable, "-m", "pip", "install", "-q", PLAYWRIGHT])


def package_extension(node: Path, vsce_bin: Path) -> Path:
    """The extension as a .vsix, built from the working tree every run (seconds)."""
    try:
        ensure_node_modules(EXTENSION)
    except NodeDepsError as exc:
        raise ProvisionError("the extension's npm dependencies", str(exc)) from exc
    ARTIFACTS.mkdir(exist_ok=True)
    version = json.loads((EXTENSION / "package.json").read_text(encoding="utf-8"))["version"]
    vsix = ARTIFACTS / f"abap-adt-{version}.vsix"
    _run(
        "the extension package (vsce)",
        [
            str(node),
            str(vsce_bin),
            "package",
            "--skip-license",
            "--allow-missing-repository",
            "--out",
            str(vsix),
        ],
        cwd=EXTENSION,
        env=_node_env(node),
    )
    return vsix


def install_extension(node: Path, server: Path, vsix: Path) -> Path:
    """Install the .vsix into a code-server extensions directory of the suite's own.

    The directory starts empty on every run: a run interrupted while installing leaves a
    half-installed copy behind, and code-server then refuses the next install until "VS Code
    restarts".
    """
    extensions = CACHE / "extensions"
    shutil.rmtree(extensions, ignore_errors=True)
    _run(
        "the extension in code-server",
        [
            str(server),
            "--extensions-dir",
            str(extensions),
            "--install-extension",
            str(vsix),
            "--force",
        ],
        env=_node_env(node),
    )
    return extensions


def provision() -> Tools:
    chromium = apt_packages()
    node = node24()
    server = code_server(node)
    vsce_bin = vsce(node)
    playwright()
    vsix = package_extension(node, vsce_bin)
    extensions = install_extension(node, server, vsix)
    _say(f"ready: code-server {CODE_SERVER_VERSION}, {_version(node)}, {vsix.name}")
    return Tools(node, server, chromium, vsix, extensions)


if __name__ == "__main__":
    tools = provision()
    (ARTIFACTS / "tools.json").write_text(tools.to_json(), encoding="utf-8")
