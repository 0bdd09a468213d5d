"""Code intelligence end to end, on unsaved text, for a UTF-16 (VS Code) and a UTF-8
(Neovim) client: every test puts non-ASCII text ("ä" and an emoji, which is two UTF-16
units and four UTF-8 bytes) before the position it asks about, so a wrong mapping between
the client's units and ADT's columns gives a wrong answer."""

from __future__ import annotations

import pytest
from lsprotocol import types
from pygls.exceptions import JsonRpcException
from support.lsp_editor import EditorClient

from adt.emulator import Emulator

SYSTEM = "A4H"
GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
GREETER_MAIN = f"adt://{SYSTEM}{GREETER}/source/main"
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
REPORT_URI = f"adt://{SYSTEM}{REPORT}/source/main"
NON_ASCII = "ä😀"


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def _replace_line(client: EditorClient, uri: str, line: int, text: str) -> None:
    old = client.texts[uri].split("\n")[line]
    client.edit(uri, (line, 0), (line, len(old)), text)


def _range(client: EditorClient, uri: str, line: int, start: int, end: int) -> types.Range:
    return types.Range(start=client.position(uri, line, start), end=client.position(uri, line, end))


async def test_completion_and_resolve(client: EditorClient, emulator: Emulator) -> None:
    read = await client.open(GREETER_MAIN)
    typed = f"    mv_salutation = '{NON_ASCII}'. mo_formatter->cap"
    client.insert_line(GREETER_MAIN, 30, typed)  # in the constructor, not saved
    at = client.position(GREETER_MAIN, 30, len(typed))
    found = await client.text_document_completion_async(
        types.CompletionParams(text_document=_doc(GREETER_MAIN), position=at)
    )
    assert isinstance(found, types.CompletionList)
    item = next(i for i in found.items if i.label == "capitalize")
    assert item.kind == types.CompletionItemKind.Method
    edit = item.text_edit
    assert isinstance(edit, types.TextEdit)
    prefix = typed.index("cap")
    assert edit.range == _range(client, GREETER_MAIN, 30, prefix, len(typed)), "the typed 'cap'"
    resolved = await client.completion_item_resolve_async(item)
    documentation = resolved.documentation
    assert isinstance(documentation, types.MarkupContent)
    assert "CAPITALIZE" in documentation.value.upper() and "IV_TEXT" in documentation.value.upper()
    pattern = resolved.text_edit.new_text if resolved.text_edit else ""  # type: ignore[union-attr]
    assert pattern.lower().startswith("capitalize(") or "capitalize(" in documentation.value
    assert emulator.source(f"{GREETER}/source/main") == read["text"], "nothing was saved"


async def test_hover_on_unsaved_text(client: EditorClient) -> None:
    await client.open(GREETER_MAIN)
    line = (
        f"      rv_text = |{NON_ASCII} {{ mv_salutation }}, "
        "{ mo_formatter->capitalize( iv_name ) }!|."
    )
    _replace_line(client, GREETER_MAIN, 38, line)
    start = line.index("capitalize")
    hover = await client.text_document_hover_async(
        types.HoverParams(
            text_document=_doc(GREETER_MAIN), position=client.position(GREETER_MAIN, 38, start + 3)
        )
    )
    assert hover is not None and isinstance(hover.contents, types.MarkupContent)
    assert hover.range == _range(client, GREETER_MAIN, 38, start, start + len("capitalize"))
    text = hover.contents.value.upper()
    assert "CAPITALIZE" in text and "IV_TEXT" in text and "```ABAP" in text
    keyword = client.texts[GREETER_MAIN].split("\n")[35].index("IF")
    nothing = await client.text_document_hover_async(
        types.HoverParams(
            text_document=_doc(GREETER_MAIN), position=client.position(GREETER_MAIN, 35, keyword)
        )
    )
    assert nothing is None
    declared = next(
        n for n, t in enumerate(client.texts[GREETER_MAIN].split("\n")) if "METHODS greet_all" in t
    )
    client.insert_line(GREETER_MAIN, declared, '    "! One line per name &amp; none for none')
    client.insert_line(
        GREETER_MAIN, declared, '    "! <p class="shorttext synchronized">Greets a list</p>'
    )
    column = client.texts[GREETER_MAIN].split("\n")[declared + 2].index("greet_all")
    documented = await client.text_document_hover_async(
        types.HoverParams(
            text_document=_doc(GREETER_MAIN),
            position=client.position(GREETER_MAIN, declared + 2, column + 2),
        )
    )
    assert documented is not None and isinstance(documented.contents, types.MarkupContent)
    assert "Greets a list\n\n> Greets a list\n> One line per name & none for none" in (
        documented.contents.value
    )


async def test_definition_and_implementation_open_other_includes(client: EditorClient) -> None:
    await client.open(GREETER_MAIN)
    client.insert_line(GREETER_MAIN, 0, f"* {NON_ASCII} an unsaved line moves everything down")
    line = client.texts[GREETER_MAIN].split("\n")[39]
    line = line.replace("|{ mv_salutation }", f"|{NON_ASCII}{{ mv_salutation }}")
    _replace_line(client, GREETER_MAIN, 39, line)
    at = client.position(GREETER_MAIN, 39, line.index("capitalize") + 1)
    declared = await client.text_document_definition_async(
        types.DefinitionParams(text_document=_doc(GREETER_MAIN), position=at)
    )
    assert isinstance(declared, list) and len(declared) == 1
    assert declared[0].uri == f"adt://{SYSTEM}{GREETER}/includes/definitions"
    assert declared[0].range.start.line == 6  # "    METHODS capitalize" of the local class
    implemented = await client.text_document_implementation_async(
        types.ImplementationParams(text_document=_doc(GREETER_MAIN), position=at)
    )
    assert isinstance(implemented, list)
    assert implemented[0].uri == f"adt://{SYSTEM}{GREETER}/includes/implementations"
    assert implemented[0].range.start.line == 5  # "  METHOD capitalize."
    nothing = await client.text_document_definition_async(
        types.DefinitionParams(
            text_document=_doc(GREETER_MAIN), position=types.Position(line=5, character=0)
        )
    )
    assert nothing == []


async def test_references_with_progress_on_a_document_with_unsaved_lines(
    client: EditorClient,
) -> None:
    await client.open(REPORT_URI)
    client.insert_line(REPORT_URI, 0, f"* {NON_ASCII} unsaved: every saved line moves down")
    line = client.texts[REPORT_URI].split("\n")[13]  # DATA(lo_greeter) = NEW zcl_demo_greeter( ).
    column = line.index("zcl_demo_greeter")
    client.progress_reports["where-used"] = []  # the client's own token, sent along
    found = await client.text_document_references_async(
        types.ReferenceParams(
            text_document=_doc(REPORT_URI),
            position=client.position(REPORT_URI, 13, column + 2),
            context=types.ReferenceContext(include_declaration=True),
            work_done_token="where-used",
        )
    )
    assert found is not None
    places = {(loc.uri, loc.range.start.line) for loc in found}
    assert (REPORT_URI, 13) in places, "the saved line 13 is the buffer's line 14"
    here = next(loc for loc in found if loc.uri == REPORT_URI)
    assert here.range == _range(client, REPORT_URI, 13, column, column + len("zcl_demo_greeter"))
    assert (f"adt://{SYSTEM}{GREETER}/includes/testclasses", 7) in places
    steps = client.progress_reports["where-used"]
    assert isinstance(steps[0], types.WorkDoneProgressBegin)
    assert isinstance(steps[-1], types.WorkDoneProgressEnd) and "found" in (steps[-1].message or "")

    _replace_line(client, REPORT_URI, 13, f"  DATA(lo_{NON_ASCII}) = NEW zcl_demo_greeter( ).")
    with pytest.raises(JsonRpcException, match="save first"):
        await client.text_document_references_async(
            types.ReferenceParams(
                text_document=_doc(REPORT_URI),
                position=client.position(REPORT_URI, 13, 30),
                context=types.ReferenceContext(include_declaration=True),
            )
        )


async def test_formatting_the_buffer(client: EditorClient, emulator: Emulator) -> None:
    read = await client.open(REPORT_URI)
    count = len(client.texts[REPORT_URI].split("\n"))
    end = (count - 1, len(client.texts[REPORT_URI].split("\n")[-1]))
    client.edit(REPORT_URI, end, end, f"\nif 1 = 1.\nwrite '{NON_ASCII}'.\nendif.")
    edits = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=_doc(REPORT_URI),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert edits
    client.apply_text_edits(REPORT_URI, edits)
    lines = client.texts[REPORT_URI].split("\n")
    # keywords upper case (the user's setting), indented inside START-OF-SELECTION
    assert lines[count : count + 3] == ["  IF 1 = 1.", f"    WRITE '{NON_ASCII}'.", "  ENDIF."]
    assert lines[:count] == read["text"].split("\n"), "only the messy lines changed"
    again = await client.text_document_formatting_async(
        types.DocumentFormattingParams(
            text_document=_doc(REPORT_URI),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert not again, "the server follows the edits the editor applied"
    assert emulator.source(f"{REPORT}/source/main") == read["text"], "formatted, not saved"


async def test_range_formatting_touches_only_the_selection(client: EditorClient) -> None:
    await client.open(REPORT_URI)
    count = len(client.texts[REPORT_URI].split("\n"))
    end = (count - 1, len(client.texts[REPORT_URI].split("\n")[-1]))
    client.edit(REPORT_URI, end, end, f"\nif 1 = 1.\nwrite '{NON_ASCII}'.\nendif.")
    edits = await client.text_document_range_formatting_async(
        types.DocumentRangeFormattingParams(
            text_document=_doc(REPORT_URI),
            range=types.Range(
                start=types.Position(line=count + 1, character=0),
                end=types.Position(line=count + 2, character=0),
            ),
            options=types.FormattingOptions(tab_size=2, insert_spaces=True),
        )
    )
    assert edits
    client.apply_text_edits(REPORT_URI, edits)
    lines = client.texts[REPORT_URI].split("\n")
    assert lines[count : count + 3] == ["if 1 = 1.", f"    WRITE '{NON_ASCII}'.", "endif."]


async def test_code_actions_quick_fix_and_format(client: EditorClient, emulator: Emulator) -> None:
    await client.open(REPORT_URI)
    typed = f"  WRITE '{NON_ASCII}'. lv_undeclared = 5."
    client.insert_line(REPORT_URI, 12, typed)
    column = typed.index("lv_undeclared")
    where = _range(client, REPORT_URI, 12, column + 1, column + 1)

    emulator.reset_request_log()
    automatic = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=_doc(REPORT_URI),
            range=where,
            context=types.CodeActionContext(
                diagnostics=[], trigger_kind=types.CodeActionTriggerKind.Automatic
            ),
        )
    )
    assert automatic is not None
    assert [a.kind for a in automatic] == ["source.format"]  # type: ignore[union-attr]
    assert not [e for e in emulator.request_log if "quickfixes" in e.path], "no request"

    offered = await client.text_document_code_action_async(
        types.CodeActionParams(
            text_document=_doc(REPORT_URI),
            range=where,
            context=types.CodeActionContext(
                diagnostics=[], trigger_kind=types.CodeActionTriggerKind.Invoked
            ),
        )
    )
    assert offered is not None
    fix = next(a for a in offered if "lv_undeclared" in a.title)
    assert isinstance(fix, types.CodeAction) and fix.kind == types.CodeActionKind.QuickFix
    assert fix.edit is None, "resolved lazily"
    resolved = await client.code_action_resolve_async(fix)
    assert resolved.edit is not None
    client.apply_workspace_edit(resolved.edit)
    lines = client.texts[REPORT_URI].split("\n")
    assert lines[12] == "  DATA lv_undeclared TYPE any." and lines[13] == typed  # after DATA

    format_action = next(a for a in offered if a.kind == "source.format")
    assert isinstance(format_action, types.CodeAction)
    client.insert_line(REPORT_URI, 14, "write 'x'.")
    formatted = await client.code_action_resolve_async(format_action)
    assert formatted.edit is not None
    client.apply_workspace_edit(formatted.edit)
    lines = client.texts[REPORT_URI].split("\n")
    # the printer puts each statement on its own line and upper-cases the keywords
    assert lines[13:16] == [f"  WRITE '{NON_ASCII}'.", "  lv_undeclared = 5.", "  WRITE 'x'."]
