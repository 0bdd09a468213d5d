"""Type hierarchy, call hierarchy and inlay hints end to end, for a UTF-16 (VS Code) and a
UTF-8 (Neovim) client, on a buffer with an unsaved line above everything (one server per
client: these are read-only requests): the class at the cursor, its implemented interface
as a super type and the interface's implementing class as a sub type; a method's callers
from where-used and its callees from its body; parameter names before positional arguments
only once the setting is on. Each item goes back to the server as the editor got it."""

from __future__ import annotations

from lsprotocol import types
from support.lsp_editor import EditorClient

MAIN_URI = "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main"
INTF_URI = "adt://A4H/sap/bc/adt/oo/interfaces/zif_demo_greeting/source/main"
TESTS_URI = "adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/testclasses"
TESTS_CALLER = "greets_everyone"
NON_ASCII = "ä😀"


async def test_hierarchies_and_inlay_hints_on_an_edited_buffer(client: EditorClient) -> None:
    await client.open(MAIN_URI)
    client.insert_line(MAIN_URI, 0, f"* {NON_ASCII} an unsaved line above the class")
    await _type_hierarchy(client)
    await _call_hierarchy(client)
    await _inlay_hints(client)


async def _type_hierarchy(client: EditorClient) -> None:
    """From the class to its interface and back."""
    line = next(
        n
        for n, text in enumerate(client.texts[MAIN_URI].split("\n"))
        if "CLASS zcl_demo_greeter DEFINITION" in text
    )
    prepared = await client.text_document_prepare_type_hierarchy_async(
        types.TypeHierarchyPrepareParams(
            text_document=types.TextDocumentIdentifier(uri=MAIN_URI),
            position=client.position(MAIN_URI, line, len("CLASS zcl_")),
        )
    )
    assert prepared is not None and len(prepared) == 1
    greeter = prepared[0]
    assert (greeter.name, greeter.kind, greeter.uri) == (
        "ZCL_DEMO_GREETER",
        types.SymbolKind.Class,
        MAIN_URI,
    )
    assert greeter.selection_range.start == client.position(
        MAIN_URI, line, len("CLASS ")
    )  # buffer line
    assert greeter.detail is not None and "$ZDEMO" in greeter.detail

    supertypes = await client.type_hierarchy_supertypes_async(
        types.TypeHierarchySupertypesParams(item=greeter)
    )
    assert [(s.name, s.kind, s.uri) for s in supertypes or []] == [
        ("ZIF_DEMO_GREETING", types.SymbolKind.Interface, INTF_URI)
    ]
    interface = (supertypes or [])[0]
    assert interface.selection_range.start.line == 0  # its declaration, in the saved source

    subtypes = await client.type_hierarchy_subtypes_async(
        types.TypeHierarchySubtypesParams(item=interface)
    )
    assert "ZCL_DEMO_GREETER" in [s.name for s in subtypes or []]
    implementing = next(s for s in subtypes or [] if s.name == "ZCL_DEMO_GREETER")
    assert implementing.selection_range.start.line == line, "the open buffer's line"
    leaves = await client.type_hierarchy_subtypes_async(
        types.TypeHierarchySubtypesParams(item=greeter)
    )
    assert not leaves


async def _call_hierarchy(client: EditorClient) -> None:
    """Incoming from where-used, outgoing from the body."""
    lines = client.texts[MAIN_URI].split("\n")
    line = next(n for n, text in enumerate(lines) if "METHOD greet_all." in text)
    column = lines[line].index("greet_all")
    prepared = await client.text_document_prepare_call_hierarchy_async(
        types.CallHierarchyPrepareParams(
            text_document=types.TextDocumentIdentifier(uri=MAIN_URI),
            position=client.position(MAIN_URI, line, column + 3),
        )
    )
    assert prepared is not None and [p.name for p in prepared] == ["greet_all"]
    item = prepared[0]
    assert item.kind == types.SymbolKind.Method
    assert item.selection_range.start == client.position(MAIN_URI, line, column)

    incoming = await client.call_hierarchy_incoming_calls_async(
        types.CallHierarchyIncomingCallsParams(item=item)
    )
    callers = {(c.from_.uri, c.from_.name) for c in incoming or []}
    assert callers == {(TESTS_URI, TESTS_CALLER)}, callers
    tests = await client.request("adt/readDocument", {"uri": TESTS_URI})
    call_line = next(n for n, text in enumerate(tests["text"].split("\n")) if "greet_all(" in text)
    assert [r.start.line for r in (incoming or [])[0].from_ranges] == [call_line]

    outgoing = await client.call_hierarchy_outgoing_calls_async(
        types.CallHierarchyOutgoingCallsParams(item=item)
    )
    called = {(c.to.uri, c.to.name) for c in outgoing or []}
    assert called == {(MAIN_URI, "zif_demo_greeting~greet")}, called
    greet_call = next(n for n, text in enumerate(lines) if "greet( lv_name )" in text)
    assert [r.start.line for r in (outgoing or [])[0].from_ranges] == [greet_call]


async def _inlay_hints(client: EditorClient) -> None:
    """Off by default; then a positional argument's parameter."""
    lines = client.texts[MAIN_URI].split("\n")
    line = next(n for n, text in enumerate(lines) if "greet( lv_name )" in text)
    template = next(n for n, text in enumerate(lines) if "capitalize( iv_name )" in text)
    whole = types.InlayHintParams(
        text_document=types.TextDocumentIdentifier(uri=MAIN_URI),
        range=types.Range(
            start=client.position(MAIN_URI, 0, 0),
            end=client.position(MAIN_URI, len(lines) - 1, 0),
        ),
    )
    assert not await client.text_document_inlay_hint_async(whole), "off by default"
    client.configure({"inlayHints": True})
    await client.sync(MAIN_URI)
    hints = await client.text_document_inlay_hint_async(whole)
    assert [(h.position, h.label, h.kind) for h in hints or []] == [
        (  # inside a string template's embedded expression
            client.position(MAIN_URI, template, lines[template].index("iv_name )")),
            "iv_text =",
            types.InlayHintKind.Parameter,
        ),
        (
            client.position(MAIN_URI, line, lines[line].index("lv_name )")),
            "iv_name =",
            types.InlayHintKind.Parameter,
        ),
    ]
