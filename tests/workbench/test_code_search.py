"""Package-wide source search: hits in name order with their object and line, paged, and a
later page served from the sources the first one read."""

from __future__ import annotations

import pytest

from adt.emulator import Emulator
from adt.source.errors import ObjectNotFound, PatternInvalid
from adt.workbench import Workbench

GREETER = "/sap/bc/adt/oo/classes/zcl_demo_greeter"
INTERFACE = "/sap/bc/adt/oo/interfaces/zif_demo_greeting"


async def test_hits_across_the_package_paged_by_offset(
    workbench: Workbench, emulator: Emulator
) -> None:
    whole = (await workbench.search.search("$zdemo", r"zif_demo_greeting\b", limit=100)).to_dict()
    places = [(h["objectUrl"], h["line"]) for h in whole["hits"]]
    assert {url for url, _ in places} >= {GREETER, INTERFACE}
    assert places == sorted(places, key=lambda p: (p[0].rsplit("/", 1)[-1].upper(), p[1]))
    texts = {url: (emulator.source(f"{url}/source/main") or "").split("\n") for url, _ in places}
    assert all("zif_demo_greeting" in texts[url][line - 1].lower() for url, line in places)
    assert "nextOffset" not in whole and whole["objectsSearched"] == whole["objectCount"]

    emulator.reset_request_log()
    first = (await workbench.search.search("$ZDEMO", r"zif_demo_greeting\b", limit=2)).to_dict()
    second = (
        await workbench.search.search("$ZDEMO", r"zif_demo_greeting\b", offset=2, limit=2)
    ).to_dict()
    assert first["nextOffset"] == 2
    assert [(h["objectUrl"], h["line"]) for h in first["hits"] + second["hits"]] == places[:4]
    sources = [e for e in emulator.request_log if e.path.endswith("/source/main")]
    assert not sources, "the sources come from the cache the first search filled"


async def test_a_bad_pattern_or_package_is_refused(workbench: Workbench) -> None:
    with pytest.raises(PatternInvalid):
        await workbench.search.search("$ZDEMO", "(")
    with pytest.raises(ObjectNotFound):
        await workbench.search.search("$ZNOTHERE", "x")
