"""Quick search (§7.3), node structure (§7.4) and discovery."""

from __future__ import annotations

import httpx
import pytest

from .helpers import ADT, exc_info, fetch_token, parse

ADTCORE = "{http://www.sap.com/adt/core}"
SEARCH = f"{ADT}/repository/informationsystem/search?operation=quickSearch"
EMPTY = (
    b'<?xml version="1.0" encoding="utf-8"?><adtcore:objectReferences '
    b'xmlns:adtcore="http://www.sap.com/adt/core"/>'
)


async def _names(client: httpx.AsyncClient, query: str) -> list[tuple[str, str]]:
    response = await client.get(f"{SEARCH}&{query}", headers={"Accept": "application/*"})
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/xml; charset=utf-8"
    return [
        (ref.get(f"{ADTCORE}name") or "", ref.get(f"{ADTCORE}type") or "")
        for ref in parse(response.content)
    ]


async def test_wildcards_are_case_insensitive(adt_client: httpx.AsyncClient) -> None:
    names = await _names(adt_client, "query=zcl_demo_*&maxResults=50")
    assert [n for n, _ in names] == ["ZCL_DEMO_COUNTER", "ZCL_DEMO_GREETER", "ZCL_DEMO_LARGE"]


async def test_max_results_and_object_type(adt_client: httpx.AsyncClient) -> None:
    assert len(await _names(adt_client, "query=Z*&maxResults=2")) == 2
    assert await _names(adt_client, "query=Z*&maxResults=10&objectType=INTF") == [
        ("ZIF_DEMO_GREETING", "INTF/OI")
    ]
    # like A4H: FUGR finds groups only, FUGR/FF finds the modules
    assert await _names(adt_client, "query=Z*DEMO*&maxResults=10&objectType=FUGR") == [
        ("ZDEMO_FG", "FUGR/F")
    ]
    modules = await _names(adt_client, "query=Z_DEMO_*&maxResults=10&objectType=FUGR%2FFF")
    assert modules == [("Z_DEMO_ADD", "FUGR/FF"), ("Z_DEMO_GREET", "FUGR/FF")]


async def test_function_module_hit_carries_its_group_in_the_uri(
    adt_client: httpx.AsyncClient,
) -> None:
    response = await adt_client.get(f"{SEARCH}&query=Z_DEMO_ADD&maxResults=5")
    [ref] = parse(response.content)
    assert ref.get(f"{ADTCORE}uri") == f"{ADT}/functions/groups/zdemo_fg/fmodules/z_demo_add"
    assert ref.get(f"{ADTCORE}packageName") == "$ZDEMO"
    assert ref.get(f"{ADTCORE}description") == "Add two integers"


async def test_empty_result_is_the_empty_root(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{SEARCH}&query=V_T000*&maxResults=20")
    assert response.status_code == 200
    assert response.content == EMPTY
    assert len(response.content) == 109


async def test_search_without_query_is_400(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(SEARCH)
    assert response.status_code == 400
    assert exc_info(response)["type"] == "ExceptionParameterNotFound"


NODES = f"{ADT}/repository/nodestructure"


async def _tree(client: httpx.AsyncClient, package: str, node: str | None = None) -> httpx.Response:
    token = await fetch_token(client)
    query = f"?parent_type=DEVC%2FK&parent_name={package}&withShortDescriptions=true"
    body = f"<TV_NODEKEY>{node or '000000'}</TV_NODEKEY>"
    envelope = (
        '<?xml version="1.0" encoding="UTF-8"?><asx:abap xmlns:asx="http://www.sap.com/abapxml" '
        f'version="1.0"><asx:values><DATA>{body}</DATA></asx:values></asx:abap>'
    )
    if node is not None:
        query += f"&node_id={node}"
    return await client.post(
        NODES + query,
        content=envelope,
        headers={
            "x-csrf-token": token,
            "Content-Type": "application/vnd.sap.as+xml; charset=UTF-8; dataname=null",
        },
    )


async def test_nodestructure_is_post_only(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{NODES}?parent_type=DEVC%2FK&parent_name=%24ZDEMO")
    assert response.status_code == 405
    info = exc_info(response)
    assert info["type"] == "ExceptionMethodNotSupported"
    assert len(response.content) == len(
        b'<?xml version="1.0" encoding="utf-8"?><exc:exception xmlns:exc="http://www.sap.com/'
        b'abapxml/types/communicationframework"><namespace id="com.sap.adt"/><type id="Exception'
        b'MethodNotSupported"/><message lang="EN">Resource controller does not support method GET'
        b'</message><localizedMessage lang="EN">Resource controller does not support method GET'
        b"</localizedMessage><properties/></exc:exception>"
    )


async def test_package_tree_root_then_objects(adt_client: httpx.AsyncClient) -> None:
    root = await _tree(adt_client, "%24ZDEMO")
    assert root.status_code == 200
    assert root.headers["content-type"] == (
        "application/vnd.sap.as+xml; charset=utf-8; "
        "dataname=com.sap.adt.RepositoryObjectTreeContent"
    )
    types = {
        info.findtext("OBJECT_TYPE"): info.findtext("NODE_ID")
        for info in parse(root.content).iter("SEU_ADT_OBJECT_TYPE_INFO")
    }
    assert set(types) == {"CLAS/OC", "INTF/OI", "PROG/P", "PROG/I", "FUGR/F"}
    classes = await _tree(adt_client, "%24ZDEMO", str(int(types["CLAS/OC"] or "0")))
    names = [
        n.findtext("OBJECT_NAME")
        for n in parse(classes.content).iter("SEU_ADT_REPOSITORY_OBJ_NODE")
    ]
    assert names == ["ZCL_DEMO_COUNTER", "ZCL_DEMO_GREETER", "ZCL_DEMO_LARGE"]


# $TMP is no longer empty: it holds the sub-packages $ZDEMO and ZDEMO_TR, which real systems
# list (test_repository.py); an empty package is tested there with a seed of its own.
@pytest.mark.parametrize("package", ["ZMCP_BLD_NOPKG9X"])
async def test_unknown_or_empty_package_is_an_empty_200(
    adt_client: httpx.AsyncClient, package: str
) -> None:
    response = await _tree(adt_client, package)
    assert (response.status_code, response.content) == (200, b"")
    assert "content-type" not in response.headers


async def test_discovery_documents(adt_client: httpx.AsyncClient) -> None:
    for path in (f"{ADT}/discovery", f"{ADT}/core/discovery"):
        response = await adt_client.get(path, headers={"Accept": "application/atomsvc+xml"})
        assert response.status_code == 200
        assert response.headers["content-type"] == "application/atomsvc+xml"
        assert parse(response.content).tag == "{http://www.w3.org/2007/app}service"


async def test_unknown_resource_is_404_exception(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{ADT}/debugger/breakpoints/messagetypes")
    assert response.status_code == 404
    assert exc_info(response)["type"] == "ExceptionResourceNotFound"
