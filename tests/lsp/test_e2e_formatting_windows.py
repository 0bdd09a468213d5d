"""The first format of a document through the server, cut a window at a time: with short
windows (``ABAP_ADT_FORMAT_WINDOW``) a class goes to the system in several requests, sent
while the rest is cut, and the editor's text is what the system's printer makes of the
whole; a report whose ``SELECT`` loop spans windows is planned whole and prints the same."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest_lsp
from support.lsp_editor import EditorClient, server_config, start_session

from adt.abap.format.pretty import pretty_print
from adt.emulator import Emulator

GREETER_URI = "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main"
REPORT_URI = "adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main"
WINDOWED = server_config("e2e", ABAP_ADT_FORMAT_WINDOW="12")


@pytest_lsp.fixture(config=WINDOWED)
async def windowed(lsp_client: EditorClient, emulator_url: str) -> AsyncIterator[None]:
    await start_session(lsp_client, "visual-studio-code", emulator_url, {})
    yield
    await lsp_client.shutdown_session()


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
    await client.format_document(GREETER_URI)
    assert client.texts[GREETER_URI] == expected
    assert _printer_posts(emulator) >= 3, "the class went in several windows"

    await client.open(REPORT_URI)
    loop = ["report zdemo_report.", "select * from t000 into @data(ls_t)."]
    loop += [f'write / ls_t-mandt. " {n}' for n in range(30)] + ["endselect.", "write 'x'."]
    old = client.texts[REPORT_URI].split("\n")
    client.edit(REPORT_URI, (0, 0), (len(old) - 1, len(old[-1])), "\n".join(loop))
    expected = pretty_print(client.texts[REPORT_URI])
    await client.format_document(REPORT_URI)
    assert client.texts[REPORT_URI] == expected
    assert client.texts[REPORT_URI].split("\n")[2].startswith("  WRITE")  # in the loop
