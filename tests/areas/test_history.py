"""``client.history``: inactive objects and revisions, on the in-process emulator, over the
protocol documents' examples and over the recorded metadata."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from support.captures import capture, requires_captures
from support.emulated import GREETER, REPORT, make_client

from adt import AdtClient, NotFoundError, _xml
from adt.areas.history import (
    InactiveObject,
    Revision,
    parse_inactive_objects,
    parse_revisions,
    split_source_url,
    versions_url,
)
from adt.emulator import Emulator
from adt.errors import UnexpectedResponseError
from adt.models import ObjectMetadata

SOURCE = f"{REPORT}/source/main"
TR_REPORT = "/sap/bc/adt/programs/programs/zdemo_tr_report"
INTERFACE = "/sap/bc/adt/oo/interfaces/zif_demo_greeting"


@pytest.fixture
async def adt(emulator: Emulator) -> AsyncIterator[AdtClient]:
    async with make_client(emulator) as client:
        yield client


async def _save(adt: AdtClient, object_url: str, source_url: str, text: str) -> None:
    async with adt.locked(object_url) as lock:
        await adt.write_source(source_url, text, lock_handle=lock.handle)


# inactive objects ----------------------------------------------------------------------------


async def test_a_draft_is_listed_until_it_is_activated(adt: AdtClient) -> None:
    assert await adt.history.inactive_objects() == ()
    await _save(adt, REPORT, SOURCE, "REPORT zdemo_report.\nWRITE 'draft'.")
    [draft] = await adt.history.inactive_objects()
    assert (draft.uri, draft.type, draft.name, draft.user) == (
        REPORT,
        "PROG/P",
        "ZDEMO_REPORT",
        "DEVELOPER",
    )
    assert draft.object_url == REPORT and not draft.deleted and draft.transport is None
    assert (await adt.activate(draft.object_url)).success
    assert await adt.history.inactive_objects() == ()


async def test_a_class_include_draft_points_at_its_class(adt: AdtClient) -> None:
    await _save(adt, GREETER, f"{GREETER}/includes/definitions", "* local types")
    [draft] = await adt.history.inactive_objects()
    assert draft.uri == f"{GREETER}/includes/definitions"
    assert draft.type == "CLAS/OCN/definitions" and draft.parent_uri == GREETER
    assert draft.object_url == GREETER


async def test_other_users_drafts_are_theirs(emulator: Emulator, adt: AdtClient) -> None:
    emulator.write_as("COLLEAGUE", f"{INTERFACE}/source/main", "INTERFACE zif_demo_greeting.")
    assert await adt.history.inactive_objects() == ()
    [theirs] = await adt.history.inactive_objects(user="colleague")
    assert (theirs.uri, theirs.user) == (INTERFACE, "COLLEAGUE")
    async with make_client(emulator, "COLLEAGUE") as colleague:
        assert [o.uri for o in await colleague.history.inactive_objects()] == [INTERFACE]


async def test_a_transportable_draft_names_its_request(emulator: Emulator, adt: AdtClient) -> None:
    await _save(adt, TR_REPORT, f"{TR_REPORT}/source/main", "REPORT zdemo_tr_report.")
    [draft] = await adt.history.inactive_objects()
    assert draft.transport is not None
    number = _recording(emulator)
    assert (draft.transport.number, draft.transport.user, draft.transport.linked) == (
        number,
        "DEVELOPER",
        True,
    )
    assert draft.transport.uri == f"/sap/bc/adt/cts/transportrequests/{number}"


# revisions -----------------------------------------------------------------------------------


async def test_revisions_newest_first_and_an_old_one_read_back(
    emulator: Emulator, adt: AdtClient
) -> None:
    seeded = emulator.source(SOURCE, "active")
    await _save(adt, REPORT, SOURCE, "REPORT zdemo_report.\n* one")
    await _save(adt, REPORT, SOURCE, "REPORT zdemo_report.\n* two")
    drafts = await adt.history.revisions(REPORT)
    assert [r.version_id for r in drafts] == ["99999", "00000"]
    assert drafts[0].is_draft and drafts[1].is_active
    assert (await adt.activate(REPORT)).success

    revisions = await adt.history.revisions(SOURCE)
    assert [r.version_id for r in revisions] == ["00000", "00001"]
    newest, oldest = revisions
    assert newest.author == "DEVELOPER" and newest.transport == "" and newest.title == ""
    assert newest.date is not None and oldest.date is not None and newest.date > oldest.date
    assert (await adt.history.read_revision(newest)).text == "REPORT zdemo_report.\n* two"
    assert (await adt.history.read_revision(oldest.url)).text == seeded


async def test_class_include_revisions(adt: AdtClient) -> None:
    await _save(adt, GREETER, f"{GREETER}/includes/definitions", "* v2")
    assert (await adt.activate(GREETER)).success
    by_url = await adt.history.revisions(f"{GREETER}/includes/definitions")
    by_name = await adt.history.revisions(GREETER, include="definitions")
    assert by_url == by_name
    assert [r.version_id for r in by_url] == ["00000", "00001"]
    assert by_url[0].url.startswith(f"{GREETER}/includes/definitions/versions/")
    main = await adt.history.revisions(GREETER)
    assert [r.version_id for r in main] == ["00000"]
    assert "/includes/main/versions/" in main[0].url


async def test_known_metadata_saves_the_metadata_read(adt: AdtClient) -> None:
    metadata = await adt.object_metadata(REPORT)
    before = adt.request_count
    await adt.history.revisions(REPORT, metadata=metadata)
    assert adt.request_count - before == 1


async def test_transported_revisions_carry_their_request(
    emulator: Emulator, adt: AdtClient
) -> None:
    await _save(adt, TR_REPORT, f"{TR_REPORT}/source/main", "REPORT zdemo_tr_report.")
    assert (await adt.activate(TR_REPORT)).success
    newest = (await adt.history.revisions(TR_REPORT))[0]
    assert newest.transport == _recording(emulator)
    assert newest.title


async def test_compare_with_the_active_version_and_with_a_revision(adt: AdtClient) -> None:
    unchanged = await adt.history.compare(SOURCE)
    assert not unchanged.changed and unchanged.unified_diff() == ""
    original = unchanged.current
    await _save(adt, REPORT, SOURCE, original + "\n* added")
    draft = await adt.history.compare(SOURCE)
    assert draft.changed and draft.base == original
    assert "+* added" in draft.unified_diff().splitlines()
    assert (await adt.activate(REPORT)).success
    oldest = (await adt.history.revisions(SOURCE))[-1]
    against_seed = await adt.history.compare(SOURCE, oldest)
    assert against_seed.base_label == "version 00001"
    assert against_seed.base == original and against_seed.changed


async def test_an_unknown_object_has_no_revisions(adt: AdtClient) -> None:
    with pytest.raises(NotFoundError):
        await adt.history.revisions("/sap/bc/adt/programs/programs/znope")


# parsers over the protocol documents' shapes ---------------------------------------------------

RICH = (
    b'<?xml version="1.0" encoding="utf-8"?><ioc:inactiveObjects xmlns:ioc="http://www.sap.com/'
    b'abapxml/inactiveCtsObjects"><ioc:entry><ioc:object/><ioc:transport ioc:user="DEVELOPER" '
    b'ioc:linked="false"><ioc:ref adtcore:uri="/sap/bc/adt/cts/transportrequests/NPLK900042" '
    b'adtcore:type="/RQ" adtcore:name="NPLK900042" xmlns:adtcore="http://www.sap.com/adt/core"/>'
    b'</ioc:transport></ioc:entry><ioc:entry><ioc:object ioc:user="DEVELOPER" ioc:deleted="true">'
    b'<ioc:ref adtcore:uri="/sap/bc/adt/oo/classes/zcl_x/source/main#type=CLAS%2FOM;name=RUN" '
    b'adtcore:type="CLAS/OM/public" adtcore:name="ZCL_X   RUN" adtcore:parentUri="/sap/bc/adt/'
    b'oo/classes/zcl_x" xmlns:adtcore="http://www.sap.com/adt/core"/></ioc:object><ioc:transport '
    b'ioc:user="DEVELOPER" ioc:linked="true"><ioc:ref adtcore:uri="/sap/bc/adt/cts/'
    b'transportrequests/NPLK900043" adtcore:type="/RQ" adtcore:name="NPLK900043" '
    b'adtcore:parentUri="/sap/bc/adt/cts/transportrequests/NPLK900042" '
    b'xmlns:adtcore="http://www.sap.com/adt/core"/></ioc:transport></ioc:entry>'
    b"</ioc:inactiveObjects>"
)


def test_rich_list_skips_bare_requests_and_reads_tasks() -> None:
    [method] = parse_inactive_objects(RICH)
    assert method.deleted and method.user == "DEVELOPER"
    assert method.object_url == "/sap/bc/adt/oo/classes/zcl_x"
    assert method.transport is not None
    assert (method.transport.number, method.transport.linked) == ("NPLK900043", True)
    assert method.transport.parent_uri.endswith("/NPLK900042")


def test_namespaces_not_prefixes_decide() -> None:
    renamed = RICH.replace(b"ioc:", b"x:").replace(b"xmlns:ioc", b"xmlns:x")
    assert parse_inactive_objects(renamed) == parse_inactive_objects(RICH)


def test_flat_and_empty_lists() -> None:
    flat = (
        b'<?xml version="1.0" encoding="utf-8"?><adtcore:objectReferences xmlns:adtcore="http://'
        b'www.sap.com/adt/core"><adtcore:objectReference adtcore:uri="/sap/bc/adt/programs/'
        b'programs/zdemo_report" adtcore:type="PROG/P" adtcore:name="ZDEMO_REPORT" '
        b'adtcore:packageName="$TMP"/></adtcore:objectReferences>'
    )
    assert parse_inactive_objects(flat) == (
        InactiveObject(
            uri="/sap/bc/adt/programs/programs/zdemo_report",
            type="PROG/P",
            name="ZDEMO_REPORT",
            package="$TMP",
        ),
    )
    assert parse_inactive_objects(b"") == ()
    with pytest.raises(UnexpectedResponseError):
        parse_inactive_objects(b"<other/>")


FEED = (
    b'<?xml version="1.0" encoding="utf-8"?><atom:feed xmlns:atom="http://www.w3.org/2005/Atom" '
    b'xmlns:adtcore="http://www.sap.com/adt/core"><atom:title>Version List of ZR (REPS)'
    b"</atom:title><atom:updated>1970-01-01T10:11:23Z</atom:updated><atom:entry><atom:author>"
    b'<atom:name>DEVELOPER</atom:name></atom:author><atom:content type="text/plain" src="/sap/bc/'
    b'adt/programs/programs/zr/source/main/versions/19700101101123/00000/content"/><atom:id>00000'
    b'</atom:id><atom:link adtcore:name="NPLK900042" href="/sap/bc/adt/vit/wb/object_type/'
    b'%20%20%20%20rq/object_name/NPLK900042" rel="http://www.sap.com/adt/relations/transport/'
    b'request" type="application/vnd.sap.sapgui" title="Demo"/><atom:link adtcore:name='
    b'"NPLK900042" href="/sap/bc/adt/cts/transportrequests/NPLK900042" rel="http://www.sap.com/'
    b'adt/relations/transport/request" type="application/vnd.sap.adt.transportrequests.v1+xml" '
    b'title="Demo"/><atom:title>Demo</atom:title><atom:updated>2026-08-01T10:20:00Z</atom:updated>'
    b"</atom:entry><atom:entry><atom:author><atom:name>OTHER</atom:name></atom:author>"
    b'<atom:content type="text/plain" src="versions/1/00001/content"/><atom:id>00001</atom:id>'
    b"<atom:updated>2026-07-30T08:00:00Z</atom:updated></atom:entry></atom:feed>"
)


def test_feed_entries() -> None:
    feed_url = "/sap/bc/adt/programs/programs/zr/source/main/versions"
    newest, older = parse_revisions(FEED, feed_url)
    assert newest == Revision(
        version_id="00000",
        url=f"{feed_url}/19700101101123/00000/content",
        author="DEVELOPER",
        date=newest.date,
        transport="NPLK900042",
        title="Demo",
    )
    assert newest.date is not None and newest.date.iso == "2026-08-01T10:20:00Z"
    assert (older.transport, older.title, older.author) == ("", "", "OTHER")
    assert older.url == f"{feed_url}/versions/1/00001/content"  # relative src resolved
    assert parse_revisions(FEED.split(b"<atom:entry>")[0] + b"</atom:feed>", feed_url) == ()


def test_source_urls_split_into_object_and_include() -> None:
    assert split_source_url(SOURCE) == (REPORT, "main")
    assert split_source_url(f"{GREETER}/includes/testclasses") == (GREETER, "testclasses")
    assert split_source_url(GREETER) == (GREETER, None)


# the versions link in recorded metadata -------------------------------------------------------


def _recorded(name: str) -> ObjectMetadata:
    item = capture(name)
    assert item.body is not None
    return _xml.parse_metadata(item.body, item.path.lower())


@requires_captures
@pytest.mark.captures
@pytest.mark.parametrize(
    ("name", "include", "expected"),
    [
        ("a4h/073-p2-packageref-prog", None, "/programs/programs/zmcp_dbg_demo/source/main"),
        ("a4h/075-p2-packageref-intf", None, "/oo/interfaces/if_oo_adt_classrun/source/main"),
        ("a4h/074-p2-packageref-clas", None, "/oo/classes/zmcp_dbg_run/includes/main"),
        ("a4h/074-p2-packageref-clas", "macros", "/oo/classes/zmcp_dbg_run/includes/macros"),
        (
            "trl/read-metadata-function-module--01-fmodules-zmcpshrfm",
            None,
            "/functions/groups/zmcp_shr_fgrp/fmodules/z_mcp_shr_fm/source/main",
        ),
    ],
)
def test_recorded_metadata_leads_to_the_feed(
    adt_captures: Path, name: str, include: str | None, expected: str
) -> None:
    assert versions_url(_recorded(name), include) == f"/sap/bc/adt{expected}/versions"


@requires_captures
@pytest.mark.captures
def test_a_class_without_the_include_has_no_feed(adt_captures: Path) -> None:
    with pytest.raises(UnexpectedResponseError):
        versions_url(_recorded("a4h/074-p2-packageref-clas"), "testclasses")


def _recording(emulator: Emulator) -> str:
    """The request ZDEMO_TR_REPORT is recorded in (what its LOCK names as CORRNR)."""
    report = emulator.state.find("/sap/bc/adt/programs/programs/zdemo_tr_report")
    assert report is not None
    held = emulator.state.cts.holder(report)
    assert held is not None
    return held.request.number
