"""abaplint (npm ``@abaplint/core``, pinned in ``tests/oracle/abaplint``) as an oracle: the
field's reference ABAP parser, run by ``lint.js`` under Node.

:func:`abaplint` installs the pinned package with ``npm ci`` when ``node_modules`` does not
match the lock file, and skips the calling test when ``node``/``npm`` are missing or npm
cannot reach the registry; any other failure of npm fails the test with npm's words.
"""

from __future__ import annotations

import json
import shutil
import subprocess
from dataclasses import dataclass
from pathlib import Path

import pytest

from .node_deps import NodeDepsError, ensure_node_modules

ORACLE = Path(__file__).resolve().parents[1] / "oracle" / "abaplint"
PINNED = "2.120.109"
#: npm's words for "the registry cannot be reached".
_OFFLINE = ("ENOTFOUND", "EAI_AGAIN", "ECONNREFUSED", "ETIMEDOUT", "ECONNRESET", "network")


@dataclass(frozen=True)
class Issue:
    file: str
    line: int
    column: int
    key: str
    message: str


class Abaplint:
    """Runs ``lint.js``; one Node process per call, any number of independent cases."""

    def __init__(self, node: str) -> None:
        self.node = node

    def run(
        self, cases: dict[str, dict[str, str]], rules: dict[str, object], version: str = "v757"
    ) -> dict[str, list[Issue]]:
        """``cases``: id → {file name → text}; the findings of each case."""
        request = {
            "version": version,
            "rules": rules,
            "cases": [
                {"id": key, "files": [{"name": n, "text": t} for n, t in files.items()]}
                for key, files in cases.items()
            ],
        }
        result = subprocess.run(
            [self.node, "lint.js"],
            cwd=ORACLE,
            input=json.dumps(request),
            capture_output=True,
            text=True,
            timeout=600,
            check=False,
        )
        assert result.returncode == 0, result.stderr[-3000:]
        found = json.loads(result.stdout)
        return {key: [Issue(**issue) for issue in issues] for key, issues in found.items()}


def abaplint() -> Abaplint:
    """The installed oracle, or a skip (no Node, or no registry to install from)."""
    node = shutil.which("node")
    if node is None or shutil.which("npm") is None:
        pytest.skip("node and npm are needed for the abaplint oracle")
    try:
        ensure_node_modules(ORACLE)
    except NodeDepsError as exc:
        if any(word in str(exc) for word in _OFFLINE):
            pytest.skip(f"npm cannot reach the registry to install @abaplint/core: {exc}")
        pytest.fail(str(exc), pytrace=False)
    manifest = ORACLE / "node_modules" / "@abaplint" / "core" / "package.json"
    installed = json.loads(manifest.read_text(encoding="utf-8"))["version"]
    assert installed == PINNED, f"node_modules holds @abaplint/core {installed}, not {PINNED}"
    return Abaplint(node)


#: abapGit file name endings of class parts.
CLASS_FILES = {
    "main": "clas.abap",
    "definitions": "clas.locals_def.abap",
    "implementations": "clas.locals_imp.abap",
    "macros": "clas.macros.abap",
    "testclasses": "clas.testclasses.abap",
}


def file_name(object_name: str, kind: str, part: str) -> str:
    """The abapGit file of one source (``ZCL_X`` main → ``zcl_x.clas.abap``)."""
    base = object_name.lower().replace("/", "#")
    if kind == "CLAS":
        return f"{base}.{CLASS_FILES[part]}"
    return f"{base}.{kind.lower()}.abap"
