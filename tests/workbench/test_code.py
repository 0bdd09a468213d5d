"""Code assistance on unsaved text: completion, element info, definitions, formatting."""

from __future__ import annotations

from adt.workbench import Workbench

GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
MAIN = f"{GREETER}/source/main"


async def _main_text(workbench: Workbench) -> str:
    return (await workbench.source.get_source_v2(GREETER)).content


async def test_completion_on_unsaved_text_offers_the_member_being_typed(
    workbench: Workbench,
) -> None:
    text = await _main_text(workbench)
    lines = text.split("\n")
    lines[29] = "    mo_formatter->cap"  # line 30, typed but not saved
    draft = "\n".join(lines)
    found = await workbench.code.completions(MAIN, draft, 30, len(lines[29]))
    labels = [item.label for item in found.items]
    assert "capitalize" in labels
    item = next(i for i in found.items if i.label == "capitalize")
    assert item.kind == "method" and item.prefix_length == 3
    if item.has_insertion:
        inserted = await workbench.code.insertion(MAIN, draft, 30, len(lines[29]), item.label)
        assert inserted.lower().startswith("capitalize(")


async def test_symbol_info_gives_a_signature_and_nothing_on_a_keyword(
    workbench: Workbench,
) -> None:
    text = await _main_text(workbench)
    line = text.split("\n")[38]  # rv_text = |{ ... mo_formatter->capitalize( iv_name ) }!|.
    info = await workbench.code.symbol_info(MAIN, text, 39, line.index("capitalize") + 2)
    assert info is not None and info.name.upper() == "CAPITALIZE"
    assert [p.name.upper() for p in info.parameters] == ["IV_TEXT", "RV_TEXT"]
    assert info.signature().upper().startswith("CAPITALIZE( IMPORTING IV_TEXT")
    assert await workbench.code.symbol_info(MAIN, text, 36, 5) is None  # IF


async def test_definition_across_includes_and_none_where_there_is_nothing(
    workbench: Workbench,
) -> None:
    text = await _main_text(workbench)
    line = text.split("\n")[38]
    column = line.index("capitalize") + 1
    declared = await workbench.code.definition(MAIN, text, 39, column)
    assert declared is not None
    assert declared.source_url.endswith("/includes/definitions")
    implemented = await workbench.code.definition(MAIN, text, 39, column, implementation=True)
    assert implemented is not None and implemented.source_url.endswith("/includes/implementations")
    assert await workbench.code.definition(MAIN, text, 5, 0) is None  # an empty line


async def test_formatting_the_whole_text_and_only_some_lines(workbench: Workbench) -> None:
    messy = "report zx.\nif 1 = 1.\nwrite 'a'.\nendif.\nwrite 'b'."
    whole = await workbench.code.format(messy)
    assert whole.split("\n")[1:4] != messy.split("\n")[1:4]
    assert "  WRITE 'a'." in whole.split("\n") or "  write 'a'." in whole.split("\n")
    partly = await workbench.code.format_lines(messy, 3, 3)
    lines = partly.split("\n")
    assert lines[2].startswith("  ") and lines[2].strip().lower() == "write 'a'."
    assert lines[0] == "report zx." and lines[1] == "if 1 = 1." and lines[4] == "write 'b'."


async def test_a_signature_names_each_type_once(workbench: Workbench) -> None:
    text = await _main_text(workbench)
    line = text.split("\n")[38]
    info = await workbench.code.symbol_info(MAIN, text, 39, line.index("capitalize") + 2)
    assert info is not None
    assert info.signature().upper() == (
        "CAPITALIZE( IMPORTING IV_TEXT TYPE STRING RETURNING RV_TEXT TYPE STRING )"
    )


async def test_symbol_info_keeps_the_abap_doc_beside_its_short_text(
    workbench: Workbench,
) -> None:
    text = await _main_text(workbench)
    documented = text.replace(
        "    METHODS greet_all\n",
        '    "! <p class="shorttext synchronized">Greets a list</p>\n'
        '    "! One line per name, in the order given &amp; none for an empty list\n'
        "    METHODS greet_all\n",
    )
    lines = documented.split("\n")
    line = next(n for n, t in enumerate(lines, 1) if "METHODS greet_all" in t)
    info = await workbench.code.symbol_info(
        MAIN, documented, line, lines[line - 1].index("greet_all") + 2
    )
    assert info is not None and info.description == "Greets a list"
    assert (
        info.doc == "Greets a list\nOne line per name, in the order given & none for an empty list"
    )
    plain = await workbench.code.symbol_info(
        MAIN, text, line - 2, lines[line - 1].index("greet_all") + 2
    )
    assert plain is not None and plain.doc == ""


async def test_formatting_again_sends_only_what_changed_and_answers_as_the_whole(
    workbench: Workbench,
) -> None:
    from adt.workbench.printed import PrintedPieces

    large = "/sap/bc/adt/oo/classes/zcl_demo_large"
    lines = (await workbench.source.get_source_v2(large)).content.split("\n")
    kept = PrintedPieces()
    printed = await workbench.code.format_kept(lines, large, kept)
    assert printed == (await workbench.code.format("\n".join(lines))).split("\n")
    assert kept.last_sent == len(lines)
    middle = len(printed) // 2
    typed = [*printed[:middle], "data lv_typed type i.", *printed[middle:]]
    again = await workbench.code.format_kept(typed, large, kept)
    assert again == (await workbench.code.format("\n".join(typed))).split("\n")
    assert 0 < kept.last_sent < 40  # the method around the new line, not 10,000 lines

    printer = workbench.source.client.formatting
    await printer.set_settings(indentation=True, style="toLower", keep_identifier=False)
    lowered = await workbench.code.format_kept(typed, large, kept)
    assert kept.last_sent == len(typed), "other settings: the whole text again"
    assert lowered == (await workbench.code.format("\n".join(typed))).split("\n")
    assert lowered != again

    await printer.set_settings(indentation=True, style="keywordAuto")
    auto = await workbench.code.format_kept(typed[:-9], large, kept)
    assert auto == (await workbench.code.format("\n".join(typed[:-9]))).split("\n")
