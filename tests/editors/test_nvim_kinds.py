"""Neovim gives every adt:// buffer of a CDS, RAP or dictionary kind the filetype of its
kind's language (adt.kinds), and each of our filetypes has a syntax file (read from the
plugin's Lua table, no Neovim needed)."""

from __future__ import annotations

import re
from pathlib import Path

from adt.kinds import KINDS

NVIM = Path(__file__).resolve().parents[2] / "editors" / "nvim"
_ENTRY = re.compile(r"\{\s*'(/sap/bc/adt/[^']+)',\s*'([a-z-]+)'\s*\}")


def _filetypes() -> list[tuple[str, str]]:
    return _ENTRY.findall((NVIM / "lua" / "abap_adt" / "kinds.lua").read_text("utf-8"))


def test_every_kind_gets_its_languages_filetype() -> None:
    entries = _filetypes()
    for kind in KINDS.kinds:
        if kind.language == "abap":
            continue
        matching = [ft for prefix, ft in entries if prefix == f"/sap/bc/adt/{kind.collection}/"]
        assert matching == [kind.language], kind.code


def test_every_filetype_of_ours_has_a_syntax_file() -> None:
    ours = {ft for _, ft in _filetypes() if ft.startswith("abap-")}
    assert ours == {"abap-cds", "abap-bdef", "abap-srvd", "abap-ddic"}
    for filetype in ours:
        assert (NVIM / "syntax" / f"{filetype}.vim").is_file(), filetype
