"""How large a problem ``difflib`` (quadratic) is handed: the paths that compare whole
documents must only ever give it small gaps."""

from __future__ import annotations

import difflib
from collections.abc import Iterator
from contextlib import contextmanager


@contextmanager
def largest_difflib_problem() -> Iterator[list[int]]:
    """Record the product of the sizes of every sequence pair ``difflib`` is given."""
    sizes: list[int] = [0]
    original = difflib.SequenceMatcher.set_seqs

    def recording(self: difflib.SequenceMatcher[str], a: object, b: object) -> None:
        sizes.append(len(a) * len(b))  # type: ignore[arg-type]
        original(self, a, b)  # type: ignore[arg-type]

    difflib.SequenceMatcher.set_seqs = recording  # type: ignore[method-assign, assignment]
    try:
        yield sizes
    finally:
        difflib.SequenceMatcher.set_seqs = original  # type: ignore[method-assign]
