"""The editors the benchmarks drive the language server's workspace with answer every call of
its editor port with the port's own parameters: a bench editor that fell behind the port
made each of the server's "following" tasks fail in the soak (860 TypeErrors in ten minutes,
passed over until the soak counted server errors)."""

from __future__ import annotations

import inspect
import sys
from pathlib import Path

import pytest

from lsp_server.editor import Editor

BENCH = Path(__file__).resolve().parents[1] / "bench"


def _methods() -> list[str]:
    return [n for n, _ in inspect.getmembers(Editor, inspect.isfunction) if not n.startswith("_")]


def _bench_editors() -> list[type]:
    sys.path.insert(0, str(BENCH))
    try:
        import save_path
        import soak
    finally:
        sys.path.remove(str(BENCH))
    return [soak.SoakEditor, save_path.QuietEditor, save_path.FollowingEditor]


@pytest.mark.parametrize("editor", _bench_editors(), ids=lambda e: e.__name__)
def test_a_bench_editor_takes_every_parameter_of_the_port(editor: type) -> None:
    methods = _methods()
    assert "base_version" in methods
    for name in methods:
        ours = inspect.signature(getattr(editor, name)).parameters
        port = inspect.signature(getattr(Editor, name)).parameters
        assert list(ours) == list(port), f"{editor.__name__}.{name}"
