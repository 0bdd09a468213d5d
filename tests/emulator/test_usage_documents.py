"""Where-used rows are written out by hand for speed; they must be the bytes the generic
writer (:func:`adt.emulator.xmlwriter.tag`) gives, escapes and left-out attributes included."""

from __future__ import annotations

from adt.emulator.documents.common import NS_ADTCORE
from adt.emulator.documents.intelligence import CodeSnippet, UsageRow, _row
from adt.emulator.documents.intelligence import usage_snippets_document as snippets
from adt.emulator.xmlwriter import tag, text_tag


def _by_tag(prefix: str, row: UsageRow) -> str:
    package = tag(
        "adtcore:packageRef",
        [
            ("adtcore:uri", row.package_uri),
            ("adtcore:type", "DEVC/K"),
            ("adtcore:name", row.package_name),
        ],
    )
    body = tag(
        f"{prefix}:adtObject",
        [
            ("adtcore:responsible", row.responsible),
            ("adtcore:name", row.name),
            ("adtcore:type", row.type),
            ("xmlns:adtcore", NS_ADTCORE),
        ],
        package,
    )
    if row.object_identifier is not None:
        body += text_tag("objectIdentifier", row.object_identifier)
    return tag(
        f"{prefix}:referencedObject",
        [
            ("uri", row.uri),
            ("parentUri", row.parent_uri),
            ("isResult", "false"),
            ("canHaveChildren", "true" if row.can_have_children else "false"),
            ("usageInformation", row.usage_information),
        ],
        body,
    )


ROWS = [
    UsageRow('/u?a="&<>\x01', None, False, "N&", "/p", "P<", None, None, None, ""),
    UsageRow("/u#type=CLAS%2FOM;name=X%7eY", "/p", True, "N", "/p", "P", "R\t", "T", "g", "i<"),
    UsageRow("/sap/bc/adt/packages/%24tmp", None, True, "$TMP", "/p", "$TMP", type="DEVC/K"),
]


def test_rows_are_the_bytes_of_the_generic_writer() -> None:
    for prefix in ("usageReferences", "usagereferences"):
        for row in ROWS:
            assert _row(prefix, row) == _by_tag(prefix, row)


def test_snippets_are_the_bytes_of_the_generic_writer() -> None:
    found = [CodeSnippet('u"&', "1-2,accessRead", "c\x01 & <x>", ""), CodeSnippet("u", "", "", "d")]
    expected = "".join(
        tag(
            "p:codeSnippet",
            [("uri", s.uri), ("matches", s.matches)],
            text_tag("content", s.content) + text_tag("description", s.description),
        )
        for s in found
    )
    assert f"<p:codeSnippets>{expected}</p:codeSnippets>" in snippets("p", [("id", found)])
