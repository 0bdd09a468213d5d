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
from support.cds_abapgit import PACKAGE as PACKAGE_XML
from support.cds_abapgit import write_samples
from support.emulated import USERS, make_client

PACKAGE = "$ZCDS"
TRANSPORTABLE = "ZCDS_TR"
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
    """An emulator with the CDS samples (package ``$ZCDS``), ZTRIP's rows to preview and an
    empty transportable package ``ZCDS_TR`` (new objects there need a request)."""
    data = tmp_path / "data"
    data.mkdir()
    (data / "ztrip.tabu.json").write_text(json.dumps(ROWS), encoding="utf-8")
    transportable = tmp_path / TRANSPORTABLE.lower()
    transportable.mkdir()
    (transportable / "package.devc.xml").write_text(PACKAGE_XML, encoding="utf-8")
    samples = write_samples(tmp_path / PACKAGE.lower())
    return Emulator(users=USERS, seed_dirs=[samples, transportable])


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


#: A view, its behavior and its service created from the templates in ``ZCDS_TR``.
NEW_VIEW, NEW_SERVICE = "ZI_TRIP_T", "ZUI_TRIP_T"
NEW_VIEW_TEXT = (
    "@AccessControl.authorizationCheck: #NOT_REQUIRED\n"
    "@EndUserText.label: 'Trips'\n"
    f"define view entity {NEW_VIEW}\n"
    "  as select from ztrip\n"
    "{\n"
    "  key trip_id as TripId,\n"
    "      city as City\n"
    "}"
)
NEW_BEHAVIOR_LINES = (
    f"define behavior for {NEW_VIEW}",
    "persistent table ztrip",
)
NEW_SERVICE_TEXT = (
    f"@EndUserText.label: 'Trips'\ndefine service {NEW_SERVICE} {{\n  expose {NEW_VIEW};\n}}"
)
NEW_URLS = {
    "dataDefinition": f"/sap/bc/adt/ddic/ddl/sources/{NEW_VIEW.lower()}",
    "behaviorDefinition": f"/sap/bc/adt/bo/behaviordefinitions/{NEW_VIEW.lower()}",
    "serviceDefinition": f"/sap/bc/adt/ddic/srvd/sources/{NEW_SERVICE.lower()}",
}


def assert_created_from_templates(emulator: Emulator) -> None:
    """The three new objects hold the filled templates (what the editors' wizards write)."""
    texts = {  # CDS-family sources are kept as sent: with our client's CRLF line ends
        kind: (emulator.source(f"{url}/source/main") or "").replace("\r\n", "\n")
        for kind, url in NEW_URLS.items()
    }
    assert texts["dataDefinition"] == NEW_VIEW_TEXT, texts
    behavior = texts["behaviorDefinition"]
    assert all(line in behavior.splitlines() for line in NEW_BEHAVIOR_LINES), behavior
    assert texts["serviceDefinition"] == NEW_SERVICE_TEXT
