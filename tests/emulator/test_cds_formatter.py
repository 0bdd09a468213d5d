"""ADT's case preserving formatter for identifiers (``POST /ddic/ddl/formatter/identifiers``,
also for metadata extensions and service definitions), through the client on the emulator
seeded with the RAP reference scenario: over every data definition, metadata extension and
service definition it keeps the tokens and their order (only a name's case may change) and
is idempotent; the scenario, written with ADT, is already in defined case; names planted in
another case come back in their defined case; a kind without a formatter is refused
before anything is sent."""

from __future__ import annotations

from pathlib import Path

import pytest
from support.emulated import make_client
from support.flight import checkouts

from adt.abap.cds.tokens import tokenize
from adt.emulator import Emulator
from adt.text import to_canonical

SCENARIOS = [p for p in checkouts() if (p / "src").is_dir()]
pytestmark = pytest.mark.skipif(not SCENARIOS, reason="no flight scenario checkout")
FILES = {"DDLS": "*.ddls.asddls", "DDLX": "*.ddlx.asddlxs", "SRVD": "*.srvd.srvdsrv"}


def _tokens(text: str) -> list[str]:
    return [token.text.lower() for token in tokenize(text)]


@pytest.mark.parametrize("root", SCENARIOS, ids=[p.name for p in SCENARIOS])
async def test_every_cds_source_keeps_its_tokens_and_formats_idempotently(root: Path) -> None:
    emulator = Emulator(seed_dirs=[root / "src"])
    checked = 0
    async with make_client(emulator) as client:
        for kind, pattern in FILES.items():
            for path in sorted((root / "src").rglob(pattern)):
                text = to_canonical(path.read_text(encoding="utf-8-sig"))
                once = await client.formatting.cds_identifiers(text, kind)
                assert _tokens(once.text) == _tokens(text), path.name
                assert once.text.lower() == text.lower(), path.name
                assert not once.changed, (path.name, "ADT wrote it in defined case")
                twice = await client.formatting.cds_identifiers(once.text, kind)
                assert twice.text == once.text, path.name
                checked += 1
        assert checked >= 100, checked
        view = to_canonical(
            (root / "src/managed/#dmo#i_travel_m.ddls.asddls").read_text(encoding="utf-8-sig")
        )
        planted = view.replace("to /DMO/I_Agency ", "to /dmo/i_agency ").replace(
            "= _Agency.AgencyID", "= _agency.AGENCYID"
        )
        assert planted != view
        recased = await client.formatting.cds_identifiers(planted)
        assert recased.changed and recased.text == view
        with pytest.raises(ValueError, match="no identifier formatter for BDEF"):
            await client.formatting.cds_identifiers("managed;", "BDEF")
