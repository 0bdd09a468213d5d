"""The first format of a document through the server, cut a window at a time: with short
windows (``ABAP_ADT_FORMAT_WINDOW``) a class goes to the system in several requests, sent
while the rest is cut, and the editor's text is what the system's printer makes of the
whole; a report whose ``SELECT`` loop spans windows is planned whole and prints the same."""

from __future__ import annotations

import os
import sys
from collections.abc import AsyncIterator

import pytest_lsp
from lsprotocol import types
from pytest_lsp import ClientServerConfig, client_capabilities
from support.lsp_editor import EditorClient, make_editor_client
from support.scratch import scratch

from adt.abap.format.pretty import pretty_print
from adt.emulator import Emulator
from lsp_server.buffer import encoding_name

GREETER_URI = "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main"
REPORT_URI = "adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main"
WINDOWED = ClientServerConfig(
    server_command=[sys.executable, "-m", "lsp_server"],
    client_factory=make_editor_client,
    server_env={
        **os.environ,
        "ABAP_ADT_CONFIG": os.devnull,
        "ADT_URL": "",
        "ABAP_ADT_RUNTIME_DIR": scratch("e2e"),
        "ABAP_ADT_FORMAT_WINDOW": "12",
    },
)


@pytest_lsp.fixture(config=WINDOWED)
async def windowed(lsp_client: EditorClient, emulator_url: str) -> AsyncIterator[None]:
    options = {
        "systems": [
            {"name": "A4H", "url": emulator_url, "user": "DEVELOPER", "password": "developer"}
        ],
        "pollInterval": 0,
    }
    result = await lsp_client.initialize_session(
        types.InitializeParams(
            capabilities=client_capabilities("visual-studio-code"),
            initialization_options=options,
        )
    )
    lsp_client.encoding = encoding_name(result.capabilities.position_encoding)
    yield
    await lsp_client.shutdown_session()


async def _format(client: EditorClient, uri: str) -> None:
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=types.TextDocumentIdentifier(uri=uri),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    client.apply_text_edits(uri, edits or [])


def _printer_posts(emulator: Emulator) -> int:
    return sum(
        1 for r in emulator.request_log if r.method == "POST" and r.path.endswith("prettyprinter")
    )


async def test_a_first_format_in_windows_answers_as_the_whole(
    windowed: EditorClient, emulator: Emulator
) -> None:
    client = windowed
    await client.open(GREETER_URI)
    lines = client.texts[GREETER_URI].split("\n")
    client.edit(GREETER_URI, (0, 0), (len(lines) - 1, len(lines[-1])), "\n".join(lines).lower())
    expected = pretty_print(client.texts[GREETER_URI])
    emulator.reset_request_log()
    await _format(client, GREETER_URI)
    assert client.texts[GREETER_URI] == expected
    assert _printer_posts(emulator) >= 3, "the class went in several windows"

    await client.open(REPORT_URI)
    loop = ["report zdemo_report.", "select * from t000 into @data(ls_t)."]
    loop += [f'write / ls_t-mandt. " {n}' for n in range(30)] + ["endselect.", "write 'x'."]
    old = client.texts[REPORT_URI].split("\n")
    client.edit(REPORT_URI, (0, 0), (len(old) - 1, len(old[-1])), "\n".join(loop))
    expected = pretty_print(client.texts[REPORT_URI])
    await _format(client, REPORT_URI)
    assert client.texts[REPORT_URI] == expected
    assert client.texts[REPORT_URI].split("\n")[2].startswith("  WRITE")  # in the loop
