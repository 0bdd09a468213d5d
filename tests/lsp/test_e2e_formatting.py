"""Formatting end to end after edits: the server sends the system only the pieces that
changed since the last format, and the editor's text after the answer is what the system's
printer makes of the whole text — after typing, Enter, a pasted method, a deleted block,
and after the user's printer settings changed."""

from __future__ import annotations

from support.emulated import make_client
from support.lsp_editor import EditorClient

from adt.abap.format.pretty import PrinterSettings, pretty_print
from adt.emulator import Emulator

GREETER_URI = "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main"
PASTED = "  method zz_pasted.\ndata lv type i.\n  if lv = 1. lv = 2. endif.\n  endmethod."


def _line_of(client: EditorClient, uri: str, start: str) -> int:
    lines = client.texts[uri].split("\n")
    return next(n for n, line in enumerate(lines) if line.strip().upper().startswith(start))


async def test_formatting_after_edits_answers_as_formatting_the_whole(
    client: EditorClient, emulator: Emulator
) -> None:
    uri = GREETER_URI
    await client.open(uri)
    expected = pretty_print(client.texts[uri])
    await client.format_document(uri)
    assert client.texts[uri] == expected

    method = _line_of(client, uri, "METHOD ")
    client.insert_line(uri, method + 1, "data lv_typed type string. lv_typed = 'x'.")  # typing
    client.insert_line(uri, method, PASTED)  # a whole method pasted before another
    expected = pretty_print(client.texts[uri])
    emulator.reset_request_log()
    await client.format_document(uri)
    assert client.texts[uri] == expected
    printer = [r for r in emulator.request_log if "prettyprinter" in r.path]  # checks run too
    asked = [(r.method, r.path.rsplit("/", 1)[-1]) for r in printer]
    assert asked == [("GET", "settings"), ("POST", "prettyprinter")], "settings, then pieces"

    end = _line_of(client, uri, "ENDMETHOD.")  # delete across two methods
    begin = _line_of(client, uri, "IF LV = 1")
    client.edit(uri, (begin, 0), (end + 2, 0), "")
    expected = pretty_print(client.texts[uri])
    await client.format_document(uri)
    assert client.texts[uri] == expected

    system = make_client(emulator)
    await system.formatting.set_settings(indentation=True, style="toLower", keep_identifier=False)
    await system.close()
    client.insert_line(uri, method + 2, "DATA lv_more TYPE i.")
    lowered = PrinterSettings(style="toLower", keep_identifier=False)
    expected = pretty_print(client.texts[uri], lowered)
    await client.format_document(uri)
    assert client.texts[uri] == expected
