"""Parameters of our ``adt/*`` requests (docs/lsp-protocol.md). Field names are camelCase on
the wire (``object_url`` <-> ``objectUrl``); results are plain JSON objects."""

from __future__ import annotations

import attrs

READ_DOCUMENT = "adt/readDocument"
SAVE_DOCUMENT = "adt/saveDocument"
RESOLVE_CONFLICT = "adt/resolveConflict"
RESTORE_DOCUMENT = "adt/restoreDocument"
OPEN_OBJECT = "adt/openObject"
OBJECT_STRUCTURE = "adt/objectStructure"
SEARCH_OBJECTS = "adt/searchObjects"
PACKAGE_CONTENTS = "adt/packageContents"
DATA_PREVIEW = "adt/dataPreview"
VERSIONS = "adt/versions"
READ_VERSION = "adt/readVersion"
ACTIVATE_COMMAND = "adt.activate"
CHECK_COMMAND = "adt.check"
BASE_VERSION = "adt/baseVersion"  # notification to the editor
AGENT_CHANNEL = "adt/agentChannel"  # notification: agents can now reach this server
AGENT_EDIT_REFUSED = "adt/agentEditRefused"  # notification to the editor
RUN_UNIT_TESTS_COMMAND = "adt.runUnitTests"
RUN_ATC_COMMAND = "adt.runAtc"
CREATE_OBJECT_COMMAND = "adt.createObject"
CHOOSE_TRANSPORT_COMMAND = "adt.chooseTransport"
TRANSPORT_OBJECTS_COMMAND = "adt.transportObjects"
RELEASE_TRANSPORT_COMMAND = "adt.releaseTransport"
REASSIGN_TRANSPORT_COMMAND = "adt.reassignTransport"
TRANSPORT_REQUESTS_COMMAND = "adt.transportRequests"
CHECK_RELEASE_COMMAND = "adt.checkRelease"
OBJECT_TRANSPORT_COMMAND = "adt.objectTransport"
RUN_PACKAGE_TESTS_COMMAND = "adt.runPackageTests"
EXTRACT_METHOD_COMMAND = "adt.extractMethod"
SET_MESSAGE_COMMAND = "adt.setMessage"
PUBLISH_COMMAND = "adt.publishServiceBinding"


@attrs.define
class ReadDocumentParams:
    uri: str
    fresh: bool = True


@attrs.define
class SaveDocumentParams:
    uri: str


@attrs.define
class RestoreDocumentParams:
    uri: str
    base_token: str
    base_text: str | None = None


@attrs.define
class ResolveConflictParams:
    uri: str
    choice: str  # "reload" | "overwrite" | "merge"


@attrs.define
class OpenObjectParams:
    name: str
    type: str | None = None
    system: str | None = None
    include_type: str | None = None


@attrs.define
class ObjectStructureParams:
    uri: str | None = None
    object_url: str | None = None
    system: str | None = None


@attrs.define
class SearchObjectsParams:
    query: str
    system: str | None = None
    max_results: int = 50
    type: str | None = None


@attrs.define
class PackageContentsParams:
    package: str
    system: str | None = None


@attrs.define
class DataPreviewParams:
    uri: str | None = None
    name: str | None = None
    system: str | None = None
    offset: int = 0
    limit: int = 100
    columns: list[str] = attrs.Factory(list)
    where: str = ""


@attrs.define
class VersionsParams:
    uri: str


@attrs.define
class ReadVersionParams:
    uri: str
    version: str  # "active" | "inactive" | a revision id
