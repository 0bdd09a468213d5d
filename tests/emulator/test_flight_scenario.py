"""The RAP reference scenario (SAP-samples/abap-platform-refscen-flight, branches
``ABAP-platform-2023`` and ``ABAP-platform-cloud``) seeds completely: every object of a kind
the emulator serves is served, every CDS-family source reads back byte for byte, every
other file is reported by kind. The checkouts are not part of the repository: the paths
come from ``ADT_FLIGHT_SCENARIO`` (separated by ``os.pathsep``), by default
/work/corpora/flight-2023 and /work/corpora/flight-cloud; the test skips when none exists."""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import httpx
import pytest

from adt.emulator import Emulator
from adt.emulator.kinds import REGISTRY

DEFAULTS = ("/work/corpora/flight-2023", "/work/corpora/flight-cloud")
VERBATIM = ("ddls.asddls", "ddlx.asddlxs", "dcls.asdcls", "bdef.asbdef", "srvd.srvdsrv")
#: Kinds of the scenario that are outside this emulator's kinds (reported, not served).
OUT_OF_SCOPE = {
    "AUTH",
    "DRTY",
    "ENHO",
    "ENHS",
    "ENQU",
    "NONT",
    "NROB",
    "RONT",
    "SCO2",
    "SKTD",
    "SUSO",
}


def _scenarios() -> list[Path]:
    configured = os.environ.get("ADT_FLIGHT_SCENARIO")
    paths = configured.split(os.pathsep) if configured else list(DEFAULTS)
    return [Path(p) for p in paths if p and Path(p).is_dir()]


SCENARIOS = _scenarios()
pytestmark = pytest.mark.skipif(not SCENARIOS, reason="no flight scenario checkout")


def _source_files(root: Path) -> dict[str, Path]:
    """Source URI → abapGit file, for every CDS-family source of the scenario."""
    found: dict[str, Path] = {}
    for path in root.rglob("*"):
        stem, _, rest = path.name.lower().partition(".")
        module = REGISTRY.main_file(rest)
        if rest in VERBATIM and module is not None and path.is_file():
            name = stem.replace("#", "/")
            uri = f"{module.kind.collection}/{name.replace('/', '%2f')}/source/main"
            found[uri] = path
    return found


async def _read_all(emulator: Emulator, uris: list[str]) -> dict[str, httpx.Response]:
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://emulator", auth=("DEVELOPER", "developer")
    ) as client:
        return {uri: await client.get(uri) for uri in uris}


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[p.name for p in SCENARIOS])
def test_the_scenario_seeds_completely_and_round_trips(scenario: Path) -> None:
    emulator = Emulator(seed_dirs=[scenario])
    assert set(emulator.unserved) <= OUT_OF_SCOPE, emulator.unserved
    counts: dict[str, int] = {}
    for obj in emulator.state.objects.values():
        counts[obj.kind.r3tr] = counts.get(obj.kind.r3tr, 0) + 1
    files: dict[str, int] = {}
    for path in scenario.rglob("*"):
        _stem, _, rest = path.name.lower().partition(".")
        if rest in (
            "ddls.asddls",
            "ddlx.asddlxs",
            "dcls.asdcls",
            "bdef.asbdef",
            "srvd.srvdsrv",
            "srvb.xml",
            "tabl.xml",
            "ttyp.xml",
            "dtel.xml",
            "doma.xml",
            "msag.xml",
            "clas.abap",
            "intf.abap",
        ):
            key = rest.split(".")[0].upper()
            files[key] = files.get(key, 0) + 1
    for key, number in files.items():
        assert counts.get(key, 0) == number, (key, counts.get(key), number)

    sources = _source_files(scenario)
    objects = sorted(emulator.state.object_uris())
    responses = asyncio.run(_read_all(emulator, [*sources, *objects]))
    for uri, path in sources.items():
        response = responses[uri]
        assert response.status_code == 200, (uri, response.text[:200])
        assert response.content == path.read_bytes().removeprefix(b"\xef\xbb\xbf"), uri
    for uri in objects:
        assert responses[uri].status_code == 200, (uri, responses[uri].text[:300])
