"""The RAP developer's loop every face runs end to end (tests/lsp/test_e2e_cds.py,
tests/nvim/test_nvim_cds.py, tests/mcp/test_cds_loop.py, tests/editors/test_vscode.py): a new
table with rows and a CDS view over it, both created and written but never activated, so
that activating the view alone is refused and activating it with the table works.

The view's line 4 (index 3) is blank: the faces complete a field there and save the patch
that fills it."""

from __future__ import annotations

import json
from pathlib import Path

from adt.emulator import Emulator
from support.cds_abapgit import write_samples
from support.emulated import USERS, make_client

PACKAGE = "$ZCDS"
TABLE = "/sap/bc/adt/ddic/tables/ztrip"
VIEW = "/sap/bc/adt/ddic/ddl/sources/zi_trip"
VIEW_SOURCE_URL = f"{VIEW}/source/main"
TABLE_SOURCE = (
    "define table ztrip {\n  key client : abap.clnt not null;\n"
    "  key trip_id : abap.numc(4) not null;\n  city : abap.char(20);\n}\n"
)
VIEW_SOURCE = (
    "define view entity ZI_Trip as select from ztrip\n{\n  key trip_id as TripID,\n  \n}\n"
)
#: The field line a face writes into line index 3 (after completing CITY there).
FIELD_LINE = "      city as City"
CITIES = ["Rome", "Oslo", "Lima", "Kyiv", "Nara"]
ROWS = [
    {"CLIENT": "001", "TRIP_ID": f"{n:04d}", "CITY": city} for n, city in enumerate(CITIES, start=1)
]
#: What activating the view alone says (the emulator's refusal, as a system words it).
REFUSAL = "ZTRIP is not active"


def cds_emulator(tmp_path: Path) -> Emulator:
    """An emulator with the CDS samples (package ``$ZCDS``) and ZTRIP's rows to preview."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "ztrip.tabu.json").write_text(json.dumps(ROWS), encoding="utf-8")
    return Emulator(users=USERS, seed_dirs=[write_samples(tmp_path / PACKAGE.lower())])


async def new_inactive_table_and_view(emulator: Emulator) -> None:
    """Create ZTRIP and ZI_TRIP through the client and write their sources, as a developer
    would before the first activation: both stay inactive (never activated)."""
    async with make_client(emulator) as adt:
        for kind, url, name, source in (
            ("TABL/DT", TABLE, "ZTRIP", TABLE_SOURCE),
            ("DDLS/DF", VIEW, "ZI_TRIP", VIEW_SOURCE),
        ):
            created = await adt.objects.create(kind, name, description="Trips", package=PACKAGE)
            assert created.object_url == url
            async with adt.locked(url) as held:
                await adt.write_source(f"{url}/source/main", source, lock_handle=held.handle)


def assert_both_active(emulator: Emulator) -> None:
    """The view and the table have an active version, and it is their newest (nothing
    inactive is left)."""
    for url in (VIEW, TABLE):
        active = emulator.source(f"{url}/source/main", version="active")
        assert active is not None and active == emulator.source(f"{url}/source/main"), url
