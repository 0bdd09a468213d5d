"""What the real-editor suite seeds beyond the emulator's samples: the kinds fixture
(``$ZKINDS``: CDS views, one in the ``/ZNS/`` namespace, over table ZKINDS_TRIP) and rows for
that table, so that "ABAP: Preview Data" has something to show."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

KINDS = Path(__file__).resolve().parents[1] / "fixtures" / "kinds" / "$zkinds"
#: the contents of ZKINDS_TRIP (the emulator reads ``data/*.tabu.json`` beside a seed folder)
TRIP_ROWS = [
    {"CLIENT": "001", "TRIP_ID": trip, "STATUS": status, "PRICE": price, "CURRENCY": "EUR"}
    for trip, status, price in (("T001", "O", "120.00"), ("T002", "A", "80.50"))
]


def cds_seed(folder: Path) -> Path:
    """A fresh copy of the kinds fixture in ``folder`` with its table's rows; the seed folder."""
    shutil.rmtree(folder, ignore_errors=True)
    shutil.copytree(KINDS, folder / KINDS.name)
    (folder / "data").mkdir()
    (folder / "data" / "zkinds_trip.tabu.json").write_text(json.dumps(TRIP_ROWS), "utf-8")
    return folder / KINDS.name
