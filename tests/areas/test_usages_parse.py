"""The where-used parsers' edges: ``matches`` items that are not two column numbers are left
out, access and grade may be missing; a row without ``adtObject`` or package still parses."""

from __future__ import annotations

from adt.areas.usages import UsageMatch, _matches, parse_usage_references

NS = 'xmlns:u="http://www.sap.com/adt/ris/usageReferences"'


def test_matches_keep_two_numbers_and_what_follows() -> None:
    assert _matches("1-2,accessRead,gradeDirect;3-4") == (
        UsageMatch(1, 2, "accessRead", "gradeDirect"),
        UsageMatch(3, 4, "", ""),
    )
    assert _matches(" 5 - 6 ,a;7-8,,g,extra") == (
        UsageMatch(5, 6, "a", ""),
        UsageMatch(7, 8, "", "g"),
    )
    assert _matches("1-2-3,x;a-1;;9") == ()


def test_a_bare_row_parses_with_empty_fields() -> None:
    body = (
        f'<u:usageReferenceResult {NS} numberOfResults="1"><u:referencedObjects>'
        '<u:referencedObject uri="/x#type=CLAS%2FOM;name=M" isResult="true">'
        "<objectIdentifier> id </objectIdentifier><objectIdentifier>second</objectIdentifier>"
        "</u:referencedObject></u:referencedObjects></u:usageReferenceResult>"
    ).encode()
    (row,) = parse_usage_references(body).references
    assert (row.type, row.name, row.package_uri, row.object_identifier, row.is_result) == (
        "CLAS/OM",
        "",
        "",
        "id",
        True,
    )
