"""Raw-httpx helpers shaped like the real clients' requests (not a project client)."""

from __future__ import annotations

import re
from pathlib import Path

import httpx
from lxml import etree

ADT = "/sap/bc/adt"
GREETER = f"{ADT}/oo/classes/zcl_demo_greeter"
REPORT = f"{ADT}/programs/programs/zdemo_report"
INCLUDE = f"{ADT}/programs/includes/zdemo_include"
INTERFACE = f"{ADT}/oo/interfaces/zif_demo_greeting"
GROUP = f"{ADT}/functions/groups/zdemo_fg"
FMODULE = f"{GROUP}/fmodules/z_demo_add"
LARGE = f"{ADT}/oo/classes/zcl_demo_large"
TR_REPORT = f"{ADT}/programs/programs/zdemo_tr_report"

STATEFUL = {"X-sap-adt-sessiontype": "stateful"}
LOCK_ACCEPT_SAPCLI = (
    "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.result;q=0.8, "
    "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.result2;q=0.9"
)
LOCK_ACCEPT_RESULT = "application/vnd.sap.as+xml;charset=UTF-8;dataname=com.sap.adt.lock.Result"
EXC_PREFIX = (
    '<?xml version="1.0" encoding="utf-8"?><exc:exception '
    'xmlns:exc="http://www.sap.com/abapxml/types/communicationframework">'
)


async def fetch_token(client: httpx.AsyncClient, *, stateful: bool = False) -> str:
    """GET core/discovery with ``x-csrf-token: fetch`` (sapcli's login)."""
    headers = {"x-csrf-token": "Fetch", "Accept": "application/atomsvc+xml"}
    if stateful:
        headers.update(STATEFUL)
    response = await client.get(f"{ADT}/core/discovery", headers=headers)
    assert response.status_code == 200
    return response.headers["x-csrf-token"]


def handle_of(body: str) -> str:
    """The lock handle, extracted the way sapcli does (a regex)."""
    match = re.search(r"<LOCK_HANDLE>(.*)</LOCK_HANDLE>", body)
    assert match is not None, body
    return match.group(1)


async def lock(
    client: httpx.AsyncClient, token: str, uri: str, accept: str = LOCK_ACCEPT_SAPCLI
) -> str:
    """LOCK an object statefully and return the handle."""
    response = await client.post(
        f"{uri}?_action=LOCK&accessMode=MODIFY",
        headers={"x-csrf-token": token, "Accept": accept, **STATEFUL},
    )
    assert response.status_code == 200, response.text
    return handle_of(response.text)


async def unlock(client: httpx.AsyncClient, token: str, uri: str, handle: str) -> httpx.Response:
    return await client.post(
        f"{uri}?_action=UNLOCK&lockHandle={handle}",
        headers={"x-csrf-token": token, **STATEFUL},
    )


async def put_source(
    client: httpx.AsyncClient, token: str, source_uri: str, handle: str | None, text: str
) -> httpx.Response:
    query = f"?lockHandle={handle}" if handle is not None else ""
    return await client.put(
        f"{source_uri}{query}",
        content=text.encode("utf-8"),
        headers={"x-csrf-token": token, "Content-Type": "text/plain; charset=utf-8", **STATEFUL},
    )


def activation_body(*uris: str) -> str:
    refs = "".join(
        f'<adtcore:objectReference adtcore:uri="{u}" adtcore:name="{u.rsplit("/", 1)[1].upper()}"/>'
        for u in uris
    )
    return (
        '<?xml version="1.0" encoding="UTF-8"?><adtcore:objectReferences '
        f'xmlns:adtcore="http://www.sap.com/adt/core">{refs}</adtcore:objectReferences>'
    )


async def activate(
    client: httpx.AsyncClient, token: str, *uris: str, stateful: bool = True
) -> httpx.Response:
    headers = {"x-csrf-token": token, "Content-Type": "application/xml"}
    if stateful:
        headers.update(STATEFUL)
    return await client.post(
        f"{ADT}/activation?method=activate&preauditRequested=true",
        content=activation_body(*uris),
        headers=headers,
    )


def parse(body: str | bytes) -> etree._Element:
    data = body.encode("utf-8") if isinstance(body, str) else body
    return etree.fromstring(data)


def exc_info(response: httpx.Response) -> dict[str, str]:
    """type id, message and properties of an ``exc:exception`` answer."""
    assert response.headers["content-type"] == "application/xml"
    assert response.text.startswith(EXC_PREFIX)
    root = parse(response.content)
    type_element = root.find("type")
    assert type_element is not None
    info = {"type": type_element.get("id") or "", "message": root.findtext("message") or ""}
    for entry in root.iter("entry"):
        info[entry.get("key") or ""] = entry.text or ""
    return info


def write_abapgit(folder: Path, files: dict[str, str]) -> Path:
    """Create an abapGit folder from ``{relative path: text}``."""
    for name, text in files.items():
        path = folder / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return folder
