"""The structure-compare helper itself."""

from __future__ import annotations

from .xmlcompare import structure_diff


def test_equal_documents_have_no_diff() -> None:
    doc = '<a:r xmlns:a="urn:a" a:x="1"><c y="2">t</c></a:r>'
    assert structure_diff(doc, doc) == []


def test_differences_are_reported() -> None:
    expected = '<a:r xmlns:a="urn:a" a:x="1"><c y="2">t</c></a:r>'
    assert structure_diff(expected, '<a:r xmlns:a="urn:b" a:x="1"><c y="2">t</c></a:r>')
    assert structure_diff(expected, '<a:r xmlns:a="urn:a" a:x="2"><c y="2">t</c></a:r>')
    assert structure_diff(expected, '<a:r xmlns:a="urn:a" a:x="1"><c y="2">u</c></a:r>')
    assert structure_diff(expected, '<a:r xmlns:a="urn:a" a:x="1"/>')
    assert not structure_diff(
        expected, '<a:r xmlns:a="urn:a" a:x="9"><c y="2">t</c></a:r>', ignore_values=["x"]
    )
