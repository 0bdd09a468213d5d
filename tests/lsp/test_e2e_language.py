"""Language features beyond navigation, end to end for a UTF-16 (VS Code) and a UTF-8
(Neovim) client, on unsaved text with non-ASCII characters before the positions asked about:
document highlight (ADT's occurrence markers: reads and writes)."""

from __future__ import annotations

from lsprotocol import types
from support.lsp_editor import EditorClient

SYSTEM = "A4H"
GREETER_MAIN = f"adt://{SYSTEM}/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main"
NON_ASCII = "ä😀"


def _doc(uri: str) -> types.TextDocumentIdentifier:
    return types.TextDocumentIdentifier(uri=uri)


def _spans(client: EditorClient, uri: str, name: str) -> list[tuple[int, int]]:
    """(line, index) of every whole-word ``name`` in the client's text."""
    found = []
    for number, line in enumerate(client.texts[uri].split("\n")):
        start = line.find(name)
        while start >= 0:
            found.append((number, start))
            start = line.find(name, start + 1)
    return found


async def test_document_highlight_marks_reads_and_writes_on_unsaved_text(
    client: EditorClient,
) -> None:
    await client.open(GREETER_MAIN)
    # an unsaved write in the constructor, with non-ASCII text before the attribute
    client.insert_line(
        GREETER_MAIN, 29, f"    DATA(lv_tag) = |{NON_ASCII}|. mv_salutation = lv_tag."
    )
    spans = _spans(client, GREETER_MAIN, "mv_salutation")
    line, index = spans[-1]  # the last read, in greet
    highlights = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(
            text_document=_doc(GREETER_MAIN),
            position=client.position(GREETER_MAIN, line, index + 2),
        )
    )
    assert highlights is not None
    got = {
        (h.range.start.line, h.range.start.character, h.range.end.character, h.kind)
        for h in highlights
    }
    length = len("mv_salutation")

    def expect(at: tuple[int, int], kind: types.DocumentHighlightKind) -> tuple[object, ...]:
        start = client.position(GREETER_MAIN, at[0], at[1])
        end = client.position(GREETER_MAIN, at[0], at[1] + length)
        return (start.line, start.character, end.character, kind)

    declaration, unsaved, constructor, read1, read2 = spans
    assert got == {
        expect(declaration, types.DocumentHighlightKind.Text),
        expect(unsaved, types.DocumentHighlightKind.Write),
        expect(constructor, types.DocumentHighlightKind.Write),
        expect(read1, types.DocumentHighlightKind.Read),
        expect(read2, types.DocumentHighlightKind.Read),
    }
    nothing = await client.text_document_document_highlight_async(
        types.DocumentHighlightParams(
            text_document=_doc(GREETER_MAIN), position=types.Position(line=22, character=0)
        )
    )
    assert not nothing


SHOUT = (
    "    METHODS shout IMPORTING iv_text TYPE string iv_times TYPE i DEFAULT 2 "
    "RETURNING VALUE(rv_text) TYPE string."
)


async def _signature(client: EditorClient, line: int, index: int) -> types.SignatureHelp | None:
    return await client.text_document_signature_help_async(
        types.SignatureHelpParams(
            text_document=_doc(GREETER_MAIN), position=client.position(GREETER_MAIN, line, index)
        )
    )


async def test_signature_help_names_the_parameter_being_written(client: EditorClient) -> None:
    await client.open(GREETER_MAIN)
    client.insert_line(GREETER_MAIN, 6, SHOUT)  # declared in the buffer only
    call = f"    DATA(lv_s) = shout( iv_text = |{NON_ASCII}| iv_times = 3 )."
    client.insert_line(GREETER_MAIN, 30, call)  # in the constructor
    options = client.server_capabilities and client.server_capabilities.signature_help_provider
    assert options is not None and "(" in (options.trigger_characters or [])

    at_times = await _signature(client, 30, call.index("= 3") + 2)
    assert at_times is not None and len(at_times.signatures) == 1
    signature = at_times.signatures[0]
    labels = [str(p.label) for p in signature.parameters or []]
    assert [label.split(" ")[0].upper() for label in labels] == ["IV_TEXT", "IV_TIMES", "RV_TEXT"]
    assert all(label in signature.label for label in labels)
    assert signature.label.upper().startswith("SHOUT(")
    assert at_times.active_parameter == 1, "iv_times is being written"
    times = (signature.parameters or [])[1]
    assert "TYPE I" in str(times.label).upper()
    assert "optional" in str(times.documentation) and "default 2" in str(times.documentation)
    assert "optional" not in str((signature.parameters or [])[0].documentation)

    at_open = await _signature(client, 30, call.index("( ") + 2)
    assert at_open is not None and at_open.active_parameter == 0, "the first importing one"
    outside = await _signature(client, 30, call.index("DATA") + 2)
    assert outside is None


def _decode(
    data: list[int], legend: types.SemanticTokensLegend
) -> dict[tuple[int, int], tuple[int, str, set[str]]]:
    """(line, start in client units) → (length, type, modifiers)."""
    found, line, start = {}, 0, 0
    for i in range(0, len(data), 5):
        delta_line, delta_start, length, kind, bits = data[i : i + 5]
        line += delta_line
        start = start + delta_start if delta_line == 0 else delta_start
        modifiers = {m for b, m in enumerate(legend.token_modifiers) if bits & (1 << b)}
        found[(line, start)] = (length, legend.token_types[kind], modifiers)
    return found


async def test_semantic_tokens_full_and_delta(client: EditorClient) -> None:
    capabilities = client.server_capabilities
    assert capabilities is not None and capabilities.semantic_tokens_provider is not None
    options = capabilities.semantic_tokens_provider
    legend = options.legend
    assert isinstance(options.full, types.SemanticTokensFullDelta) and options.full.delta
    await client.open(GREETER_MAIN)
    line_text = f"    DATA(lv_tag) = |{NON_ASCII}|. mv_salutation = lv_tag."
    client.insert_line(GREETER_MAIN, 29, line_text)
    first = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=_doc(GREETER_MAIN))
    )
    assert first is not None and first.result_id
    tokens = _decode(first.data, legend)

    def at(line: int, index: int) -> tuple[int, str, set[str]]:
        position = client.position(GREETER_MAIN, line, index)
        return tokens[(position.line, position.character)]

    attribute = line_text.index("mv_salutation")
    assert at(29, attribute) == (len("mv_salutation"), "property", set())
    literal = at(29, line_text.index("|"))
    assert literal[1] == "string"
    assert literal[0] == client.position(GREETER_MAIN, 29, line_text.index(".")).character - (
        client.position(GREETER_MAIN, 29, line_text.index("|")).character
    ), "the literal's length in the client's units"
    assert at(29, 4)[1] == "keyword"  # DATA
    declared = client.texts[GREETER_MAIN].split("\n")[19].index("mv_salutation")
    assert at(19, declared) == (len("mv_salutation"), "property", {"declaration"})
    assert at(11, 16)[1:] == ("parameter", {"declaration"})  # iv_salutation
    comment = client.texts[GREETER_MAIN].split("\n")[35].index('"')
    assert at(35, comment)[1] == "comment"

    client.insert_line(GREETER_MAIN, 0, "* a new first line")
    delta = await client.text_document_semantic_tokens_full_delta_async(
        types.SemanticTokensDeltaParams(
            text_document=_doc(GREETER_MAIN), previous_result_id=first.result_id
        )
    )
    assert isinstance(delta, types.SemanticTokensDelta), "an edit, not the whole list"
    data = list(first.data)
    for edit in sorted(delta.edits, key=lambda e: e.start, reverse=True):
        data[edit.start : edit.start + edit.delete_count] = list(edit.data or [])
    again = await client.text_document_semantic_tokens_full_async(
        types.SemanticTokensParams(text_document=_doc(GREETER_MAIN))
    )
    assert again is not None and data == list(again.data)
    assert len(delta.edits[0].data or []) < len(again.data) / 4, "the delta is small"
