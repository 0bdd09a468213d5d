"""Documents of the new kinds in the language server's workspace (fake editor): a
namespaced data definition and a behavior definition open as ``adt://`` documents with their
language, are edited and saved as token-checked patches; no lock is left."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.emulated import USERS
from support.fake_editor import workspace_on

from adt.emulator import Emulator, samples_dir
from lsp_server.results import SaveStatus
from lsp_server.uris import parse_uri

FIXTURE = Path(__file__).resolve().parents[2] / "fixtures" / "kinds" / "$zkinds"
GADGET = "adt://A4H/sap/bc/adt/ddic/ddl/sources/%2fzns%2fi_gadget/source/main"
BEHAVIOR = "adt://A4H/sap/bc/adt/bo/behaviordefinitions/zi_kinds_trip/source/main"


@pytest.fixture
def emulator() -> Emulator:
    return Emulator(seed_dirs=[samples_dir(), FIXTURE], users=USERS)


@pytest.mark.parametrize(("uri", "language"), [(GADGET, "abap-cds"), (BEHAVIOR, "abap-bdef")])
async def test_open_edit_save(emulator: Emulator, uri: str, language: str) -> None:
    ref = parse_uri(uri)
    assert ref.language_id == language
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(uri)
        doc = workspace.documents.require(uri)
        assert doc.base_ready.is_set() and doc.base_token is not None
        served = emulator.source(ref.source_url, "active")
        assert served is not None and editor.texts[uri] == served.replace("\r\n", "\n")
        editor.insert_line(uri, 0, "// opened in the editor")
        saved = await workspace.save(uri)
        assert saved.status == SaveStatus.SAVED and saved.hunks == 1
        stored = emulator.source(ref.source_url)
        assert stored is not None and stored.startswith("// opened in the editor")
    assert emulator.locks() == []
