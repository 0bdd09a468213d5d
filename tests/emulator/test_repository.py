"""Discovery, the compatibility graph, packages, their value helps and the repository tree.

Shapes follow docs/protocol/discovery-and-packages.md: what abap-adt-api reads by literal
prefix, the A4H capture 852 (the body-less package tree), recorded discovery documents of
real systems and the value-help answers quoted by client projects.
"""

from __future__ import annotations

from pathlib import Path

import httpx
import pytest
from lxml import etree

from adt.emulator import Emulator

from .helpers import ADT, exc_info, fetch_token, parse, write_abapgit
from .xmlcompare import structure_diff

APP = "{http://www.w3.org/2007/app}"
ATOM = "{http://www.w3.org/2005/Atom}"
ADTCOMP = "{http://www.sap.com/adt/compatibility}"
NAMEDITEM = "{http://www.sap.com/adt/nameditem}"
PAK = "{http://www.sap.com/adt/packages}"
ADTCORE = "{http://www.sap.com/adt/core}"
NODES = f"{ADT}/repository/nodestructure"
TREE_TYPE = (
    "application/vnd.sap.as+xml; charset=utf-8; dataname=com.sap.adt.RepositoryObjectTreeContent"
)
PACKAGE_HEADER = (
    '<abapGit><asx:abap xmlns:asx="http://www.sap.com/abapxml"><asx:values><DEVC>'
    "<CTEXT>{}</CTEXT></DEVC></asx:values></asx:abap></abapGit>"
)


# --- discovery -----------------------------------------------------------------------------


async def test_core_discovery_has_one_categorised_collection_per_workspace(
    adt_client: httpx.AsyncClient,
) -> None:
    response = await adt_client.get(f"{ADT}/core/discovery")
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/atomsvc+xml"
    # abap-adt-api reads the literal prefixes app:, atom: and the attribute term
    assert b"<app:service " in response.content and b"<atom:category term=" in response.content
    root = parse(response.content)
    with_collections = 0
    for workspace in root.iter(f"{APP}workspace"):
        collections = workspace.findall(f"{APP}collection")
        assert len(collections) <= 1, workspace.findtext(f"{ATOM}title")
        for collection in collections:
            with_collections += 1
            category = collection.find(f"{ATOM}category")
            assert category is not None and category.get("term")
            assert collection.findtext(f"{ATOM}title")
    assert with_collections >= 1
    hrefs = {c.get("href") for c in root.iter(f"{APP}collection")}
    assert f"{ADT}/compatibility/graph" in hrefs


def _collections(document: bytes) -> dict[str, etree._Element]:
    return {c.get("href") or "": c for c in parse(document).iter(f"{APP}collection")}


def _templates(collection: etree._Element) -> dict[str, dict[str, str]]:
    links = collection.findall(f"{ADTCOMP}templateLinks/{ADTCOMP}templateLink")
    return {link.get("template") or "": dict(link.attrib) for link in links}


async def test_discovery_groups_collections_in_sap_workspaces(
    adt_client: httpx.AsyncClient,
) -> None:
    response = await adt_client.get(
        f"{ADT}/discovery", headers={"Accept": "application/atomsvc+xml"}
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == "application/atomsvc+xml"
    root = parse(response.content)
    titles = [w.findtext(f"{ATOM}title") for w in root.iter(f"{APP}workspace")]
    assert "ADT emulator" not in titles
    assert {"Packages", "Classes and Interfaces", "Programs", "Activation"} <= set(titles)
    packages = next(
        w for w in root.iter(f"{APP}workspace") if w.findtext(f"{ATOM}title") == "Packages"
    )
    [collection] = [
        c for c in packages.findall(f"{APP}collection") if c.get("href") == f"{ADT}/packages"
    ]
    templates = _templates(collection)
    for help_type in ("softwarecomponents", "transportlayers", "applicationcomponents"):
        link = templates[f"{ADT}/packages/valuehelps/{help_type}"]
        assert link["rel"] == help_type
        assert link["type"] == "application/vnd.sap.adt.nameditems.v1+xml"
    # every collection carries its category and the (possibly empty) template links
    for each in root.iter(f"{APP}collection"):
        assert each.find(f"{ATOM}category") is not None, each.get("href")
        assert each.find(f"{ADTCOMP}templateLinks") is not None, each.get("href")
    assert b"<adtcomp:templateLinks xmlns:adtcomp=" in response.content


WAVE_COLLECTIONS = [
    "/compatibility/graph",
    "/oo/classes",
    "/oo/interfaces",
    "/oo/validation/objectname",
    "/programs/programs",
    "/programs/includes",
    "/programs/validation",
    "/includes/validation",
    "/functions/groups",
    "/functions/validation",
    "/packages",
    "/packages/validation",
    "/activation",
    "/activation/inactiveobjects",
    "/checkruns",
    "/deletion/delete",
    "/deletion/check",
    "/abapsource/codecompletion/proposal",
    "/abapsource/codecompletion/insertion",
    "/abapsource/codecompletion/elementinfo",
    "/abapsource/prettyprinter",
    "/abapsource/prettyprinter/settings",
    "/navigation/target",
    "/urifragmentmappings",
    "/quickfixes/evaluation",
    "/repository/informationsystem/search",
    "/repository/informationsystem/usageReferences",
    "/repository/informationsystem/usageSnippets",
    "/repository/nodestructure",
    "/cts/transports",
    "/cts/transportchecks",
    "/cts/transportrequests",
    "/abapunit/testruns",
    "/abapunit/runs",
    "/atc/customizing",
    "/atc/runs",
    "/atc/worklists",
]


async def test_discovery_lists_every_area_of_the_development_loop(
    adt_client: httpx.AsyncClient,
) -> None:
    collections = _collections((await adt_client.get(f"{ADT}/discovery")).content)
    missing = [path for path in WAVE_COLLECTIONS if f"{ADT}{path}" not in collections]
    assert missing == []
    # search configurations are served, so they are listed (abap-adt-api's hasTransportConfig)
    configurations = collections[f"{ADT}/cts/transportrequests/searchconfiguration/configurations"]
    assert configurations.findtext(f"{ATOM}title") == "Transport Search Configurations"
    groups = _templates(collections[f"{ADT}/functions/groups"])
    fmodules = groups[f"{ADT}/functions/groups/{{groupname}}/fmodules"]
    assert fmodules["type"] == "application/vnd.sap.adt.functions.fmodules.v3+xml"
    inactive = _templates(collections[f"{ADT}/activation/inactiveobjects"])
    assert f"{ADT}/activation/inactiveobjects{{?USERNAME}}" in inactive
    navigation = _templates(collections[f"{ADT}/navigation/target"])
    assert f"{ADT}/navigation/target{{?uri,filter,fullname}}" in navigation


async def test_discovery_accepts_are_media_types_the_emulator_serves(
    adt_client: httpx.AsyncClient,
) -> None:
    """sapcli refuses a collection whose accepts hold none of its supported types."""
    collections = _collections((await adt_client.get(f"{ADT}/discovery")).content)
    sapcli = {
        "/oo/classes": "application/vnd.sap.adt.oo.classes.v4+xml",
        "/oo/interfaces": "application/vnd.sap.adt.oo.interfaces.v2+xml",
        "/programs/programs": "application/vnd.sap.adt.programs.programs.v2+xml",
        "/programs/includes": "application/vnd.sap.adt.programs.includes.v2+xml",
        "/functions/groups": "application/vnd.sap.adt.functions.groups.v3+xml",
        "/packages": "application/vnd.sap.adt.packages.v1+xml",
    }
    for path, media_type in sapcli.items():
        accepts = [a.text for a in collections[f"{ADT}{path}"].findall(f"{APP}accept")]
        assert media_type in accepts, path


async def test_discovery_head_and_graph_prefix(adt_client: httpx.AsyncClient) -> None:
    head = await adt_client.head(f"{ADT}/core/discovery")
    assert (head.status_code, head.content) == (200, b"")
    graph = await adt_client.get(f"{ADT}/compatibility/graph")
    assert graph.status_code == 200
    # abap-adt-api's adtCompatibilityGraph() reads compatibility:graph literally
    assert b"<compatibility:graph " in graph.content
    assert parse(graph.content).tag == f"{ADTCOMP}graph"


async def test_discovery_refuses_other_methods(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client)
    response = await adt_client.post(f"{ADT}/discovery", headers={"x-csrf-token": token})
    assert response.status_code == 405


# --- package value helps -------------------------------------------------------------------


def _named_items(response: httpx.Response) -> list[tuple[str, str, str]]:
    root = parse(response.content)
    items = [
        (
            item.findtext(f"{NAMEDITEM}name") or "",
            item.findtext(f"{NAMEDITEM}description") or "",
            item.findtext(f"{NAMEDITEM}data") or "",
        )
        for item in root.findall(f"{NAMEDITEM}namedItem")
    ]
    assert root.findtext(f"{NAMEDITEM}totalItemCount") == str(len(items))
    return items


async def test_transport_layer_value_help(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(
        f"{ADT}/packages/valuehelps/transportlayers?name=*", headers={"Accept": "application/*"}
    )
    assert response.status_code == 200
    assert response.headers["content-type"] == (
        "application/vnd.sap.adt.nameditems.v1+xml; charset=utf-8"
    )
    assert response.content.startswith(
        b'<?xml version="1.0" encoding="utf-8"?><nameditem:namedItemList '
        b'xmlns:nameditem="http://www.sap.com/adt/nameditem">'
    )
    names = [name for name, _, _ in _named_items(response)]
    assert "" in names and "SAP" in names and "ZA4H" in names


@pytest.mark.parametrize(
    ("help_type", "expected"),
    [
        ("softwarecomponents", {"HOME", "LOCAL"}),
        ("applicationcomponents", {"BC"}),
        ("translationrelevances", {"1"}),
    ],
)
async def test_other_value_helps(
    adt_client: httpx.AsyncClient, help_type: str, expected: set[str]
) -> None:
    response = await adt_client.get(f"{ADT}/packages/valuehelps/{help_type}")
    assert response.status_code == 200
    assert expected <= {name for name, _, _ in _named_items(response)}


async def test_value_help_filters_by_name_and_count(adt_client: httpx.AsyncClient) -> None:
    homes = await adt_client.get(f"{ADT}/packages/valuehelps/softwarecomponents?name=h*")
    assert [name for name, _, _ in _named_items(homes)] == ["HOME"]
    none = await adt_client.get(f"{ADT}/packages/valuehelps/softwarecomponents?name=NOPE")
    assert none.content.endswith(
        b"<nameditem:totalItemCount>0</nameditem:totalItemCount></nameditem:namedItemList>"
    )
    one = await adt_client.get(f"{ADT}/packages/valuehelps/transportlayers?maxItemCount=1")
    assert len(_named_items(one)) == 1


@pytest.mark.parametrize("path", ["valuehelps/nosuchhelp", "valuehelps", "valuehelps/"])
async def test_unknown_value_help_is_no_suitable_resource(
    adt_client: httpx.AsyncClient, path: str
) -> None:
    response = await adt_client.get(f"{ADT}/packages/{path}")
    assert response.status_code == 404
    info = exc_info(response)
    assert info["message"] == "No suitable resource found"


async def test_value_help_is_get_only(adt_client: httpx.AsyncClient) -> None:
    token = await fetch_token(adt_client)
    response = await adt_client.post(
        f"{ADT}/packages/valuehelps/transportlayers", headers={"x-csrf-token": token}
    )
    assert response.status_code == 405


# --- package metadata -----------------------------------------------------------------------


async def test_package_lists_its_sub_packages(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{ADT}/packages/%24tmp")
    assert response.status_code == 200
    refs = parse(response.content).findall(f"{PAK}subPackages/{PAK}packageRef")
    assert [r.get(f"{ADTCORE}name") for r in refs] == ["$ZDEMO", "ZDEMO_TR"]
    assert refs[0].get(f"{ADTCORE}uri") == f"{ADT}/packages/%24zdemo"
    assert refs[0].get(f"{ADTCORE}type") == "DEVC/K"
    assert refs[0].get(f"{ADTCORE}description")
    leaf = await adt_client.get(f"{ADT}/packages/%24zdemo")
    assert parse(leaf.content).find(f"{PAK}subPackages") is not None
    assert parse(leaf.content).findall(f"{PAK}subPackages/{PAK}packageRef") == []


async def test_unknown_package_is_swb_tool_025(adt_client: httpx.AsyncClient) -> None:
    response = await adt_client.get(f"{ADT}/packages/znope")
    assert response.status_code == 404
    assert exc_info(response)["T100KEY-NO"] == "025"


# --- the repository tree ---------------------------------------------------------------------


def _envelope(*node_ids: str) -> str:
    keys = "".join(f"<TV_NODEKEY>{n}</TV_NODEKEY>" for n in node_ids)
    return (
        '<?xml version="1.0" encoding="UTF-8"?><asx:abap xmlns:asx="http://www.sap.com/abapxml" '
        f'version="1.0"><asx:values><DATA>{keys}</DATA></asx:values></asx:abap>'
    )


async def _tree(
    client: httpx.AsyncClient,
    parent_type: str,
    parent: str,
    *node_ids: str,
    query: str = "",
) -> httpx.Response:
    """POST like abap-adt-api: no body unless node ids are given (then they and 000000)."""
    token = await fetch_token(client)
    url = f"{NODES}?parent_type={parent_type}&withShortDescriptions=true&parent_name={parent}"
    body = _envelope(*node_ids) if node_ids else None
    return await client.post(
        url + query,
        content=body,
        headers={"x-csrf-token": token, "Content-Type": "application/x-www-form-urlencoded"},
    )


def _nodes(response: httpx.Response) -> list[dict[str, str]]:
    assert response.status_code == 200
    assert response.headers["content-type"] == TREE_TYPE
    return [
        {child.tag: child.text or "" for child in node}
        for node in parse(response.content).iter("SEU_ADT_REPOSITORY_OBJ_NODE")
    ]


def _types(response: httpx.Response) -> dict[str, tuple[str, str, str]]:
    return {
        info.findtext("OBJECT_TYPE") or "": (
            info.findtext("CATEGORY_TAG") or "",
            info.findtext("OBJECT_TYPE_LABEL") or "",
            info.findtext("NODE_ID") or "",
        )
        for info in parse(response.content).iter("SEU_ADT_OBJECT_TYPE_INFO")
    }


async def test_a_package_of_sub_packages_lists_them(adt_client: httpx.AsyncClient) -> None:
    """Defect (iii): ``$TMP`` holds only ``$ZDEMO`` and ``ZDEMO_TR``; it answered 0 bytes."""
    nodes = _nodes(await _tree(adt_client, "DEVC%2FK", "$TMP"))
    folder, *subs = nodes
    assert (folder["OBJECT_TYPE"], folder["OBJECT_NAME"], folder["TECH_NAME"]) == (
        "DEVC/K",
        "",
        "$TMP",
    )
    assert folder["NODE_ID"] and folder["EXPANDABLE"] == "X"
    assert [(n["OBJECT_TYPE"], n["OBJECT_NAME"]) for n in subs] == [
        ("DEVC/K", "$ZDEMO"),
        ("DEVC/K", "ZDEMO_TR"),
    ]
    assert subs[0]["OBJECT_URI"] == f"{ADT}/packages/%24zdemo"
    assert subs[0]["OBJECT_VIT_URI"] == f"{ADT}/vit/wb/object_type/devck/object_name/%24ZDEMO"
    assert subs[0]["TECH_NAME"] == "$ZDEMO" and subs[0]["EXPANDABLE"] == "X"


async def test_root_call_lists_sub_packages_with_their_type(
    adt_client: httpx.AsyncClient,
) -> None:
    response = await _tree(adt_client, "DEVC%2FK", "$TMP", "000000")
    nodes = _nodes(response)
    assert [(n["OBJECT_TYPE"], n["OBJECT_NAME"]) for n in nodes] == [
        ("DEVC/K", "$ZDEMO"),
        ("DEVC/K", "ZDEMO_TR"),
    ]
    assert nodes[0]["DESCRIPTION"]
    category, label, node_id = _types(response)["DEVC/K"]
    assert (category, label) == ("packages", "Subpackages") and len(node_id) == 6
    categories = [c.text for c in parse(response.content).iter("CATEGORY")]
    assert categories == ["packages"]


async def test_body_less_call_lists_every_object_like_a4h_852(
    adt_client: httpx.AsyncClient,
) -> None:
    response = await _tree(adt_client, "DEVC%2FK", "%24ZDEMO")
    nodes = _nodes(response)
    folders = [n for n in nodes if not n["OBJECT_NAME"]]
    objects = [n for n in nodes if n["OBJECT_NAME"]]
    assert nodes[: len(folders)] == folders, "folders come first"
    assert {f["OBJECT_TYPE"] for f in folders} == {
        "DEVC/F",
        "DEVC/I",
        "DEVC/OC",
        "DEVC/OI",
        "DEVC/P",
    }
    assert all(f["TECH_NAME"] == "$ZDEMO" and f["NODE_ID"] for f in folders)
    names = [(n["OBJECT_TYPE"], n["OBJECT_NAME"]) for n in objects]
    assert names == [
        ("FUGR/F", "ZDEMO_FG"),
        ("PROG/I", "ZDEMO_INCLUDE"),
        ("CLAS/OC", "ZCL_DEMO_COUNTER"),
        ("CLAS/OC", "ZCL_DEMO_GREETER"),
        ("CLAS/OC", "ZCL_DEMO_LARGE"),
        ("INTF/OI", "ZIF_DEMO_GREETING"),
        ("PROG/P", "ZDEMO_REPORT"),
    ]
    types = _types(response)
    folder_type = types["DEVC/OC"]
    assert folder_type[:2] == ("", "Classes")
    assert types["CLAS/OC"][:2] == ("source_library", "")
    assert int(types["CLAS/OC"][2]) == int(folder_type[2]) + 1
    assert list(types) == sorted(types)


async def test_body_less_call_matches_the_a4h_node_shape(
    adt_client: httpx.AsyncClient, adt_captures: Path
) -> None:
    capture = (adt_captures / "a4h" / "852-i74-nodestructure-sabp-unit-adt.xml").read_bytes()
    ours = parse((await _tree(adt_client, "DEVC%2FK", "%24ZDEMO")).content)
    theirs = etree.fromstring(capture)

    def first(root: etree._Element, object_type: str, tag: str) -> bytes:
        for node in root.iter(tag):
            if node.findtext("OBJECT_TYPE") == object_type:
                return etree.tostring(node)
        raise AssertionError(object_type)

    values = ["OBJECT_NAME", "TECH_NAME", "OBJECT_URI", "OBJECT_VIT_URI", "NODE_ID", "DESCRIPTION"]
    for object_type in ("DEVC/OC", "CLAS/OC"):
        node_diff = structure_diff(
            first(theirs, object_type, "SEU_ADT_REPOSITORY_OBJ_NODE"),
            first(ours, object_type, "SEU_ADT_REPOSITORY_OBJ_NODE"),
            ignore_text=values,
        )
        assert node_diff == [], object_type
        info_diff = structure_diff(
            first(theirs, object_type, "SEU_ADT_OBJECT_TYPE_INFO"),
            first(ours, object_type, "SEU_ADT_OBJECT_TYPE_INFO"),
            ignore_text=["NODE_ID"],
        )
        assert info_diff == [], object_type
    assert [e.tag for e in ours.iter()][:4] == [e.tag for e in theirs.iter()][:4]


async def test_several_node_ids_list_the_objects_of_each(adt_client: httpx.AsyncClient) -> None:
    root = _types(await _tree(adt_client, "DEVC%2FK", "%24ZDEMO", "000000"))
    ids = [str(int(root[t][2])) for t in ("CLAS/OC", "FUGR/F", "PROG/P")]
    nodes = _nodes(await _tree(adt_client, "DEVC%2FK", "%24ZDEMO", *ids))
    assert {n["OBJECT_TYPE"] for n in nodes} == {"CLAS/OC", "FUGR/F", "PROG/P"}
    assert len(nodes) == 5


async def test_sub_package_folder_expands(adt_client: httpx.AsyncClient) -> None:
    root = _types(await _tree(adt_client, "DEVC%2FK", "$TMP", "000000"))
    node_id = str(int(root["DEVC/K"][2]))
    nodes = _nodes(await _tree(adt_client, "DEVC%2FK", "$TMP", node_id))
    assert [n["OBJECT_NAME"] for n in nodes] == ["$ZDEMO", "ZDEMO_TR"]


async def test_function_group_expands_to_modules_and_includes(
    adt_client: httpx.AsyncClient,
) -> None:
    root = await _tree(adt_client, "FUGR%2FF", "ZDEMO_FG", "0")
    assert _nodes(root) == []
    types = _types(root)
    assert {t: v[:2] for t, v in types.items()} == {
        "FUGR/FF": ("source_library", "Function Modules"),
        "FUGR/I": ("source_library", "Includes"),
    }
    ids = [str(int(v[2])) for v in types.values()]
    nested = _nodes(await _tree(adt_client, "FUGR%2FF", "ZDEMO_FG", *ids))
    assert [(n["OBJECT_TYPE"], n["OBJECT_NAME"]) for n in nested] == [
        ("FUGR/FF", "Z_DEMO_ADD"),
        ("FUGR/FF", "Z_DEMO_GREET"),
        ("FUGR/I", "LZDEMO_FGTOP"),
    ]
    assert nested[0]["OBJECT_URI"] == f"{ADT}/functions/groups/zdemo_fg/fmodules/z_demo_add"
    assert nested[2]["OBJECT_URI"] == f"{ADT}/functions/groups/zdemo_fg/includes/lzdemo_fgtop"
    assert nested[0]["DESCRIPTION"] == "Add two integers"
    flat = _nodes(await _tree(adt_client, "FUGR%2FF", "ZDEMO_FG"))
    assert [n["OBJECT_NAME"] for n in flat if n["OBJECT_NAME"]] == [
        "Z_DEMO_ADD",
        "Z_DEMO_GREET",
        "LZDEMO_FGTOP",
    ]
    assert [n["TECH_NAME"] for n in flat if not n["OBJECT_NAME"]] == ["SAPLZDEMO_FG"] * 2


async def test_program_expands_to_its_includes(adt_client: httpx.AsyncClient) -> None:
    flat = _nodes(await _tree(adt_client, "PROG%2FP", "ZDEMO_REPORT"))
    named = [
        (n["OBJECT_TYPE"], n["OBJECT_NAME"], n["OBJECT_URI"]) for n in flat if n["OBJECT_NAME"]
    ]
    assert named == [("PROG/I", "ZDEMO_INCLUDE", f"{ADT}/programs/includes/zdemo_include")]
    root = await _tree(adt_client, "PROG%2FP", "ZDEMO_REPORT", "0")
    assert _nodes(root) == [] and list(_types(root)) == ["PROG/I"]


@pytest.mark.parametrize(
    ("parent_type", "parent"),
    [
        ("DEVC%2FK", "ZMCP_BLD_NOPKG9X"),
        ("FUGR%2FF", "ZNOPE_FG"),
        ("PROG%2FP", "ZDEMO_TR_REPORT"),  # includes nothing
        ("CLAS%2FOC", "ZCL_DEMO_GREETER"),  # not a tree parent here
    ],
)
async def test_nothing_to_list_is_a_zero_byte_200(
    adt_client: httpx.AsyncClient, parent_type: str, parent: str
) -> None:
    for node_ids in ((), ("000000",)):
        response = await _tree(adt_client, parent_type, parent, *node_ids)
        assert (response.status_code, response.content) == (200, b"")
        assert "content-type" not in response.headers


async def test_an_empty_package_is_a_zero_byte_200(tmp_path: Path) -> None:
    write_abapgit(tmp_path, {"zempty/package.devc.xml": PACKAGE_HEADER.format("Nothing here")})
    emulator = Emulator(seed_dirs=[tmp_path])
    transport = httpx.ASGITransport(app=emulator.app)
    async with httpx.AsyncClient(
        transport=transport, base_url="http://emulator", auth=("DEVELOPER", "developer")
    ) as client:
        for node_ids in ((), ("000000",)):
            response = await _tree(client, "DEVC%2FK", "ZEMPTY", *node_ids)
            assert (response.status_code, response.content) == (200, b"")


async def test_unknown_node_id_is_a_zero_byte_200(adt_client: httpx.AsyncClient) -> None:
    response = await _tree(adt_client, "DEVC%2FK", "%24ZDEMO", "999")
    assert (response.status_code, response.content) == (200, b"")


# --- abapGit folder logic --------------------------------------------------------------------


def _folder_logic_seed(folder: Path, logic: str) -> Path:
    return write_abapgit(
        folder,
        {
            ".abapgit.xml": (
                '<?xml version="1.0" encoding="utf-8"?><asx:abap xmlns:asx="http://www.sap.com/'
                'abapxml" version="1.0"><asx:values><DATA><MASTER_LANGUAGE>E</MASTER_LANGUAGE>'
                f"<STARTING_FOLDER>/src/</STARTING_FOLDER><FOLDER_LOGIC>{logic}</FOLDER_LOGIC>"
                "</DATA></asx:values></asx:abap>"
            ),
            "src/package.devc.xml": PACKAGE_HEADER.format("Root"),
            "src/zroot.prog.abap": "REPORT zroot.\n",
            "src/core/package.devc.xml": PACKAGE_HEADER.format("Core"),
            "src/core/zcore.prog.abap": "REPORT zcore.\n",
            "src/core/deep/package.devc.xml": PACKAGE_HEADER.format("Deep"),
            "src/core/deep/zdeep.prog.abap": "REPORT zdeep.\n",
        },
    )


def test_prefix_folder_logic_prefixes_sub_packages(tmp_path: Path) -> None:
    emulator = Emulator(seed_dirs=[_folder_logic_seed(tmp_path, "PREFIX")])
    packages = {
        name: (package.parent, package.description)
        for name, package in emulator.state.packages.items()
    }
    assert packages == {
        "SRC": (None, "Root"),
        "SRC_CORE": ("SRC", "Core"),
        "SRC_CORE_DEEP": ("SRC_CORE", "Deep"),
    }
    deep = emulator.state.find(f"{ADT}/programs/programs/zdeep")
    assert deep is not None and deep.package == "SRC_CORE_DEEP"


def test_full_folder_logic_names_packages_after_folders(tmp_path: Path) -> None:
    emulator = Emulator(seed_dirs=[_folder_logic_seed(tmp_path, "FULL")])
    assert set(emulator.state.packages) == {"SRC", "CORE", "DEEP"}
    assert emulator.state.packages["DEEP"].parent == "CORE"
