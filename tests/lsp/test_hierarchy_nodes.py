"""The call and type hierarchy items the editor hands back (``item.data``) come back as
they were sent; a mangled item is a typed error, not a crash."""

from __future__ import annotations

from typing import Any

import pytest

from adt.source.errors import InvalidArgument
from lsp_server.features.calls import CallNode
from lsp_server.features.hierarchy import TypeNode

SOURCE = "/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main"


def test_items_survive_the_round_trip_through_the_editor() -> None:
    call = CallNode("A4H", SOURCE, 12, 9, "greet_all", "form")
    kind = TypeNode("A4H", SOURCE, 0, 6, "ZCL_DEMO_GREETER", "CLAS/OC", "Greeter", "$TMP")
    assert call.data()["source"] == SOURCE and "source_url" not in call.data()
    assert CallNode.from_data(call.data()) == call
    assert TypeNode.from_data(kind.data()) == kind
    assert kind.object_url == "/sap/bc/adt/oo/classes/zcl_demo_greeter"
    assert call.uri == f"adt://A4H{SOURCE}"


def test_fields_with_defaults_may_be_missing() -> None:
    data = {"system": "A4H", "source": SOURCE, "line": "3", "column": 1, "name": "x"}
    assert CallNode.from_data(data).kind == "method" and CallNode.from_data(data).line == 3
    assert TypeNode.from_data({**data, "type": "INTF/OI"}).is_interface


@pytest.mark.parametrize(
    ("node", "data", "said"),
    [
        (CallNode, None, "a call hierarchy item without its data"),
        (CallNode, {"system": "A4H"}, "a call hierarchy item with broken data"),
        (
            TypeNode,
            {"system": "A4H", "source": SOURCE, "line": "x", "column": 0, "name": "n"},
            "a type hierarchy item with broken data",
        ),
    ],
)
def test_a_mangled_item_is_a_typed_error(node: Any, data: Any, said: str) -> None:
    with pytest.raises(InvalidArgument, match=said):
        node.from_data(data)
