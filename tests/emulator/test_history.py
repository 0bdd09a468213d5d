"""Inactive objects and revision feeds (docs/protocol/inactive-objects.md, versions.md)."""

from __future__ import annotations

import httpx
import pytest
from lxml import etree

from adt.emulator import Emulator
from adt.emulator.model import PROG, RepoObject, SourceUnit, Version

from .helpers import (
    ADT,
    FMODULE,
    GREETER,
    GROUP,
    INCLUDE,
    INTERFACE,
    REPORT,
    TR_REPORT,
    activate,
    exc_info,
    fetch_token,
    lock,
    parse,
    put_source,
    unlock,
)

IOC = "{http://www.sap.com/abapxml/inactiveCtsObjects}"
ADTCORE = "{http://www.sap.com/adt/core}"
ATOM = "{http://www.w3.org/2005/Atom}"
INACTIVE = f"{ADT}/activation/inactiveobjects"
RICH = "application/vnd.sap.adt.inactivectsobjects.v1+xml"
ABAP_ADT_API_ACCEPT = f"{RICH}, application/xml;q=0.8"
FEED = "application/atom+xml;type=feed"
EMPTY_LIST = (
    '<?xml version="1.0" encoding="utf-8"?>'
    '<ioc:inactiveObjects xmlns:ioc="http://www.sap.com/abapxml/inactiveCtsObjects"/>'
)


async def _save(client: httpx.AsyncClient, object_uri: str, source_uri: str, text: str) -> str:
    """Lock, PUT, unlock (what an editor's save does); returns the CSRF token."""
    token = await fetch_token(client, stateful=True)
    handle = await lock(client, token, object_uri)
    response = await put_source(client, token, source_uri, handle, text)
    assert response.status_code == 200, response.text
    await unlock(client, token, object_uri, handle)
    return token


async def _inactive(client: httpx.AsyncClient, query: str = "") -> list[etree._Element]:
    response = await client.get(INACTIVE + query, headers={"Accept": ABAP_ADT_API_ACCEPT})
    assert response.status_code == 200
    assert response.headers["content-type"] == f"{RICH}; charset=utf-8"
    return parse(response.content).findall(f"{IOC}entry")


def _ref(entry: etree._Element) -> dict[str, str]:
    ref = entry.find(f"{IOC}object/{IOC}ref")
    assert ref is not None
    return {etree.QName(k).localname: str(v) for k, v in ref.attrib.items()}


async def _feed(client: httpx.AsyncClient, url: str) -> etree._Element:
    response = await client.get(url, headers={"Accept": FEED})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == FEED
    return parse(response.content)


def _ids(feed: etree._Element) -> list[str]:
    return [entry.findtext(f"{ATOM}id") or "" for entry in feed.findall(f"{ATOM}entry")]


def _src(feed: etree._Element, version: str) -> str:
    for entry in feed.findall(f"{ATOM}entry"):
        if entry.findtext(f"{ATOM}id") == version:
            content = entry.find(f"{ATOM}content")
            assert content is not None
            return content.get("src") or ""
    raise AssertionError(f"no version {version}")


# inactive objects ----------------------------------------------------------------------------


async def test_nothing_inactive_is_the_self_closed_root(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(INACTIVE, headers={"Accept": ABAP_ADT_API_ACCEPT})
    assert response.status_code == 200
    assert response.text == EMPTY_LIST


async def test_a_saved_program_is_listed_until_it_is_activated(
    adt_client: httpx.AsyncClient,
) -> None:
    token = await _save(adt_client, REPORT, f"{REPORT}/source/main", "REPORT zdemo_report.")
    [entry] = await _inactive(adt_client)
    holder = entry.find(f"{IOC}object")
    assert holder is not None
    assert holder.get(f"{IOC}user") == "DEVELOPER"
    assert holder.get(f"{IOC}deleted") == "false"
    assert _ref(entry) == {
        "uri": REPORT,
        "type": "PROG/P",
        "name": "ZDEMO_REPORT",
        "description": "Demo report: greets and adds",
    }
    transport = entry.find(f"{IOC}transport")
    assert transport is not None and len(transport) == 0 and not transport.attrib  # $ZDEMO
    # the literal prefixes abap-adt-api matches
    response = await adt_client.get(INACTIVE)
    assert "<ioc:entry><ioc:object " in response.text and "<ioc:ref adtcore:uri=" in response.text

    assert (await activate(adt_client, token, REPORT)).status_code == 200
    assert await _inactive(adt_client) == []


async def test_class_includes_are_entries_of_their_own(adt_client: httpx.AsyncClient) -> None:
    await _save(adt_client, GREETER, f"{GREETER}/includes/definitions", "* local types")
    await _save(adt_client, GREETER, f"{GREETER}/source/main", "CLASS zcl_demo_greeter.")
    header, definitions = (_ref(entry) for entry in await _inactive(adt_client))
    assert (header["uri"], header["type"], header["name"]) == (
        GREETER,
        "CLAS/OC",
        "ZCL_DEMO_GREETER",
    )
    assert "parentUri" not in header
    assert definitions == {
        "uri": f"{GREETER}/includes/definitions",
        "type": "CLAS/OCN/definitions",
        "name": "ZCL_DEMO_GREETER",
        "parentUri": GREETER,
    }


async def test_function_modules_and_group_includes_name_their_group(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    emulator.write_as("DEVELOPER", f"{FMODULE}/source/main", "FUNCTION z_demo_add.\nENDFUNCTION.")
    include = f"{GROUP}/includes/lzdemo_fgtop"
    emulator.write_as("DEVELOPER", f"{include}/source/main", "FUNCTION-POOL zdemo_fg.")
    refs = {r["uri"]: r for r in (_ref(e) for e in await _inactive(adt_client))}
    assert refs[FMODULE]["type"] == "FUGR/FF"
    assert refs[FMODULE]["parentUri"] == GROUP
    assert refs[include]["type"] == "FUGR/I"
    assert refs[include]["parentUri"] == GROUP


async def test_other_users_drafts_are_not_listed(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    emulator.write_as("COLLEAGUE", f"{INTERFACE}/source/main", "INTERFACE zif_demo_greeting.")
    await _save(adt_client, REPORT, f"{REPORT}/source/main", "REPORT zdemo_report.")
    assert [_ref(e)["uri"] for e in await _inactive(adt_client)] == [REPORT]
    theirs = await _inactive(adt_client, "?USERNAME=colleague")
    assert [_ref(e)["uri"] for e in theirs] == [INTERFACE]
    async with httpx.AsyncClient(
        transport=httpx.ASGITransport(app=emulator.app),
        base_url="http://emulator",
        auth=("COLLEAGUE", "colleague"),
    ) as colleague:
        assert [_ref(e)["uri"] for e in await _inactive(colleague)] == [INTERFACE]


async def test_transportable_objects_name_their_request(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    await _save(adt_client, TR_REPORT, f"{TR_REPORT}/source/main", "REPORT zdemo_tr_report.")
    [entry] = await _inactive(adt_client)
    transport = entry.find(f"{IOC}transport")
    assert transport is not None
    assert transport.get(f"{IOC}user") == "DEVELOPER"
    assert transport.get(f"{IOC}linked") == "true"
    ref = transport.find(f"{IOC}ref")
    assert ref is not None
    number = ref.get(f"{ADTCORE}name")
    assert number == _recording(emulator)  # the LOCK's CORRNR
    assert ref.get(f"{ADTCORE}uri") == f"{ADT}/cts/transportrequests/{number}"
    assert ref.get(f"{ADTCORE}type") == "/RQ"


async def test_accepting_only_xml_gets_the_flat_reference_list(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    emulator.write_as("DEVELOPER", f"{INCLUDE}/source/main", "* changed")
    response = await adt_client.get(INACTIVE, headers={"Accept": "application/xml"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/xml; charset=utf-8"
    root = parse(response.content)
    assert root.tag == f"{ADTCORE}objectReferences"
    [ref] = root.findall(f"{ADTCORE}objectReference")
    assert ref.get(f"{ADTCORE}uri") == INCLUDE
    assert ref.get(f"{ADTCORE}type") == "PROG/I"
    assert ref.get(f"{ADTCORE}packageName") == "$ZDEMO"


async def test_inactive_objects_refuse_other_methods_and_types(
    adt_client: httpx.AsyncClient,
) -> None:
    token = await fetch_token(adt_client)
    response = await adt_client.post(INACTIVE, headers={"x-csrf-token": token})
    assert response.status_code == 405
    response = await adt_client.get(INACTIVE, headers={"Accept": "text/plain"})
    assert response.status_code == 406
    assert exc_info(response)["type"] == "ExceptionResourceNotAcceptable"


async def test_the_list_activates_as_abap_adt_api_posts_it(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    """abap-adt-api posts each entry back, ``adtcore:parentUri="undefined"`` when absent."""
    await _save(adt_client, GREETER, f"{GREETER}/includes/definitions", "* local types")
    await _save(adt_client, REPORT, f"{REPORT}/source/main", "REPORT zdemo_report.")
    refs = [_ref(entry) for entry in await _inactive(adt_client)]
    body = "".join(
        f'<adtcore:objectReference adtcore:uri="{r["uri"]}" adtcore:type="{r["type"]}" '
        f'adtcore:parentUri="{r.get("parentUri", "undefined")}" adtcore:name="{r["name"]}"/>'
        for r in refs
    )
    token = await fetch_token(adt_client)
    response = await adt_client.post(
        f"{ADT}/activation?method=activate&preauditRequested=true",
        content='<?xml version="1.0" encoding="UTF-8"?><adtcore:objectReferences '
        f'xmlns:adtcore="http://www.sap.com/adt/core">{body}</adtcore:objectReferences>',
        headers={"x-csrf-token": token, "Content-Type": "application/xml"},
    )
    assert (response.status_code, response.content) == (200, b"")
    assert await _inactive(adt_client) == []
    assert emulator.source(f"{GREETER}/includes/definitions", "active") == "* local types"


# revisions -----------------------------------------------------------------------------------


async def test_each_activation_is_a_revision_newest_first(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    seeded = emulator.source(f"{REPORT}/source/main", "active")
    assert seeded is not None
    versions = f"{REPORT}/source/main/versions"
    assert _ids(await _feed(adt_client, versions)) == ["00000"]

    await _save(adt_client, REPORT, f"{REPORT}/source/main", "REPORT zdemo_report.\n* one")
    token = await _save(adt_client, REPORT, f"{REPORT}/source/main", "REPORT zdemo_report.\n* two")
    draft = await _feed(adt_client, versions)
    assert _ids(draft) == ["99999", "00000"]
    await activate(adt_client, token, REPORT)
    feed = await _feed(adt_client, versions)
    assert _ids(feed) == ["00000", "00001"]  # the overwritten draft "one" never was a version

    old = await adt_client.get(_src(feed, "00001"), headers={"Accept": "text/plain"})
    assert old.status_code == 200
    assert old.headers["content-type"] == "text/plain; charset=utf-8"
    assert old.text == seeded.replace("\n", "\r\n")
    new = await adt_client.get(_src(feed, "00000"))
    assert new.text == "REPORT zdemo_report.\r\n* two"

    await _save(adt_client, REPORT, f"{REPORT}/source/main", "REPORT zdemo_report.\n* three")
    await activate(adt_client, token, REPORT)
    feed = await _feed(adt_client, versions)
    assert _ids(feed) == ["00000", "00002", "00001"]  # higher numbers are newer
    assert (await adt_client.get(_src(feed, "00002"))).text == "REPORT zdemo_report.\r\n* two"


async def test_feed_entries_carry_author_time_and_content_link(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    emulator.write_as("COLLEAGUE", f"{REPORT}/source/main", "REPORT zdemo_report.")
    response = await adt_client.get(f"{REPORT}/source/main/versions", headers={"Accept": FEED})
    assert response.text.startswith(
        '<?xml version="1.0" encoding="utf-8"?><atom:feed xmlns:atom="http://www.w3.org/2005/Atom"'
        ' xmlns:adtcore="http://www.sap.com/adt/core"><atom:title>Version List of ZDEMO_REPORT'
        " (REPS)</atom:title><atom:updated>1970-01-01T10:11:23Z</atom:updated><atom:entry>"
        "<atom:author><atom:name>COLLEAGUE</atom:name></atom:author>"
        '<atom:content type="text/plain" src="/sap/bc/adt/programs/programs/zdemo_report/source'
        '/main/versions/19700101101123/99999/content"/><atom:id>99999</atom:id><atom:updated>'
    )
    [draft, active] = parse(response.content).findall(f"{ATOM}entry")
    changed = emulator.metadata_changed_at(REPORT)
    assert draft.findtext(f"{ATOM}updated") == changed
    assert active.findtext(f"{ATOM}author/{ATOM}name") == "DEVELOPER"
    assert active.find(f"{ATOM}link") is None  # a local object is in no request


async def test_transported_revisions_link_their_request(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await _save(adt_client, TR_REPORT, f"{TR_REPORT}/source/main", "REPORT zdemo_tr.")
    await activate(adt_client, token, TR_REPORT)
    feed = await _feed(adt_client, f"{TR_REPORT}/source/main/versions")
    newest = feed.find(f"{ATOM}entry")
    assert newest is not None
    number = _recording(emulator)
    links = newest.findall(f"{ATOM}link")
    assert [link.get("type") for link in links] == [
        "application/vnd.sap.sapgui",
        "application/vnd.sap.adt.transportrequests.v1+xml",
    ]
    assert {link.get(f"{ADTCORE}name") for link in links} == {number}
    assert links[1].get("href") == f"{ADT}/cts/transportrequests/{number}"
    assert {link.get("rel") for link in links} == {
        "http://www.sap.com/adt/relations/transport/request"
    }
    assert newest.findtext(f"{ATOM}title") == links[1].get("title") != ""


async def test_class_histories_are_kept_per_include(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    token = await _save(adt_client, GREETER, f"{GREETER}/includes/definitions", "* v2")
    await activate(adt_client, token, GREETER)
    main = await _feed(adt_client, f"{GREETER}/includes/main/versions")
    assert main.findtext(f"{ATOM}title") == "Version List of ZCL_DEMO_GREETER (CLAS)"
    assert _ids(main) == ["00000"]  # main was not changed
    definitions = await _feed(adt_client, f"{GREETER}/includes/definitions/versions")
    assert definitions.findtext(f"{ATOM}title") == "Version List of ZCL_DEMO_GREETER (CINC)"
    assert _ids(definitions) == ["00000", "00001"]
    src = _src(definitions, "00000")
    assert src == f"{GREETER}/includes/definitions/versions/19700101101123/00000/content"
    assert (await adt_client.get(src)).text == "* v2"


@pytest.mark.parametrize(
    "url",
    [
        f"{GREETER}/source/main/versions",  # classes keep their history per include
        f"{REPORT}/includes/main/versions",
        f"{GROUP}/includes/lzdemo_fgtop/versions",
        f"{ADT}/oo/classes/zcl_nope/includes/main/versions",
        f"{ADT}/programs/programs/znope/source/main/versions",
        f"{REPORT}/source/main/versions/19700101101123/00007/content",
        f"{ADT}/oo/classes/zcl_demo_counter/includes/macros/versions",  # no such include
    ],
)
async def test_feeds_that_do_not_exist_are_404(adt_client: httpx.AsyncClient, url: str) -> None:
    response = await adt_client.get(url, headers={"Accept": "*/*"})
    assert response.status_code == 404
    assert exc_info(response)["type"] == "ExceptionResourceNotFound"


async def test_feeds_refuse_writes_and_other_types(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client)
    url = f"{REPORT}/source/main/versions"
    assert (await adt_client.post(url, headers={"x-csrf-token": token})).status_code == 405
    assert (await adt_client.get(url, headers={"Accept": "application/json"})).status_code == 406


async def test_every_advertised_versions_link_answers(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    """The metadata's ``versions`` links (relative hrefs) all lead to a feed."""
    followed = 0
    for uri in emulator.objects():
        metadata = parse((await adt_client.get(uri)).content)
        for link in metadata.iter(f"{ATOM}link"):
            if link.get("rel") != "http://www.sap.com/adt/relations/versions":
                continue
            feed = await _feed(adt_client, f"{uri}/{link.get('href')}")
            assert _ids(feed) == ["00000"]  # the seeded version, nothing changed yet
            seeded = await adt_client.get(_src(feed, "00000"))
            assert seeded.status_code == 200 and seeded.text
            followed += 1
    assert followed >= 15


async def test_a_recreated_object_lists_the_old_versions_below_its_own(
    emulator: Emulator, adt_client: httpx.AsyncClient
) -> None:
    source = f"{REPORT}/source/main"
    emulator.write_as("DEVELOPER", source, "REPORT zdemo_report.\n* second")
    assert emulator.activate_all() == 1
    with emulator.state.lock:
        old = emulator.state.objects.pop(REPORT)
        new = RepoObject(PROG, old.name, old.package, old.description, "DEVELOPER", 0)
        new.parts["main"] = SourceUnit("main", inactive=Version("REPORT zdemo_report.", 1, "X"))
        emulator.state.add_object(new)
    feed = await _feed(adt_client, f"{source}/versions")
    assert _ids(feed) == ["99999", "00002", "00001"]  # no active version yet
    assert emulator.activate_all() == 1
    feed = await _feed(adt_client, f"{source}/versions")
    assert _ids(feed) == ["00000", "00002", "00001"]
    assert (await adt_client.get(_src(feed, "00000"))).text == "REPORT zdemo_report."
    assert (await adt_client.get(_src(feed, "00002"))).text == "REPORT zdemo_report.\r\n* second"


def _recording(emulator: Emulator) -> str:
    """The request ZDEMO_TR_REPORT is recorded in (what its LOCK names as CORRNR)."""
    report = emulator.state.find("/sap/bc/adt/programs/programs/zdemo_tr_report")
    assert report is not None
    held = emulator.state.cts.holder(report)
    assert held is not None
    return held.request.number
