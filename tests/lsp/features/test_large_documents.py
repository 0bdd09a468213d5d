"""Large documents: every path that compares two whole texts stays linear. A save after a
long session, where the system trims trailing blanks, shows the editor the saved form line by
line; before, difflib compared the whole documents (247 s at 100,000 lines)."""

from __future__ import annotations

from support.difflib_probe import largest_difflib_problem
from support.fake_editor import REPORT_URI, workspace_on

from adt.emulator import Emulator
from adt.source.linediff import SMALL

SOURCE = "/sap/bc/adt/programs/programs/zdemo_report/source/main"
LINES = 20_000


async def test_a_normalised_save_of_a_large_program_moves_only_the_trimmed_lines(
    emulator: Emulator,
) -> None:
    body = [f'  DATA(lv_{i}) = {i}. " step {i}' for i in range(LINES)]
    emulator.write_as("COLLEAGUE", SOURCE, "\n".join(["REPORT zdemo_report.", *body]))
    async with workspace_on(emulator) as (workspace, editor):
        await editor.open(REPORT_URI)
        lines = editor.texts[REPORT_URI].split("\n")
        for at in range(7, LINES, LINES // 25):  # typed, with a blank left at the end
            lines[at] += " x  "
        lines.insert(100, "  ")  # Enter on an indented line, nothing typed after it
        editor.replace(REPORT_URI, "\n".join(lines))
        with largest_difflib_problem() as sizes:
            saved = await workspace.save(REPORT_URI)
        assert saved.status == "saved"
        stored = emulator.source(SOURCE)
        assert stored is not None and "x  " not in stored, "the system trimmed the blanks"
        assert editor.texts[REPORT_URI] == stored, "the editor shows the saved form"
        assert not workspace.documents.require(REPORT_URI).dirty
        assert max(sizes) <= SMALL, "difflib only ever saw a gap, never the documents"
