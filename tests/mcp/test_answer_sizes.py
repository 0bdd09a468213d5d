"""Both copies of an answer: the text copy (for clients that read only text) and the
structured content say the same, and the development-loop figures report the size of each
and of both on the wire (bench/mcp_loop.py, its results and docs/mcp.md)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from mcp import Client
from support.mcp_memory import emulator_connections

from adt.emulator import Emulator
from mcp_bridge.server import make_bridge

ROOT = Path(__file__).resolve().parents[2]
REPORT = "/sap/bc/adt/programs/programs/zdemo_report"
COLUMNS = ("bytes received (text copy)", "structured content", "answers on the wire (both)")


async def test_every_answer_carries_both_copies_alike(emulator: Emulator) -> None:
    server = make_bridge(connections=emulator_connections(emulator), passthrough=False)
    async with Client(server) as client:
        found = await client.call_tool("getObjectSourceV2", {"objectUrl": REPORT, "endLine": 3})
        refused = await client.call_tool("getObjectSourceV2", {"objectUrl": REPORT, "startLine": 0})
    assert refused.is_error and not found.is_error
    for result in (found, refused):
        text = result.content[0].text  # type: ignore[union-attr]
        assert result.structured_content is not None
        assert json.loads(text) == result.structured_content


def _loop_table(path: Path) -> tuple[list[str], list[list[str]]]:
    """The header and the measured rows of the S6-S10 table in ``path``."""
    lines = path.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("| Scenario | tools"))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [cell.strip() for cell in line.strip("|").split("|")]
        if cells[0]:  # not a "saved" row
            rows.append(cells)
    return header, rows


@pytest.mark.parametrize("where", ["bench/results/mcp_loop.md", "docs/mcp.md"])
def test_the_loop_figures_report_both_answer_sizes(where: str) -> None:
    header, rows = _loop_table(ROOT / where)
    assert all(column in header for column in COLUMNS), header
    text, structured, wire = (header.index(column) for column in COLUMNS)
    assert len(rows) >= 10
    for row in rows:
        sizes = [int(row[i].replace(",", "")) for i in (text, structured, wire)]
        # the same JSON object twice; on the wire both, the text one as an escaped string
        assert sizes[0] == sizes[1], row
        assert sizes[2] > sizes[0] + sizes[1], row
