"""ADT resources: one handler per resource family, called with an authenticated call.

The pipeline in :mod:`adt.emulator.app` has already done authentication, CSRF and
the stateful-context bookkeeping; handlers only implement the resource semantics
and raise :class:`~adt.emulator.errors.AdtException` for refusals.
"""

from __future__ import annotations

import base64
import binascii
import re
from collections.abc import Callable
from urllib.parse import unquote

from lxml import etree
from starlette.responses import Response

from . import areas, documents, errors, stamps
from .calls import XML_UTF8, Call, error_response, respond
from .documents import CheckMessage
from .kinds import REGISTRY
from .kinds.metadata_kind import CONTENT, MetadataKind
from .model import (
    ADT,
    CLAS,
    INTF,
    Kind,
    RepoObject,
    SourceUnit,
    Version,
)
from .negotiation import choose
from .object_changes import delete_object, record_change, write_source
from .skeletons import LOCAL_INCLUDE_FRAMES
from .state import SystemState, lock_handle

NS_ADTCORE = "{http://www.sap.com/adt/core}"
NS_CHKRUN = "{http://www.sap.com/adt/checkrun}"


def _kind_of_key(key: str) -> Kind:
    kind = REGISTRY.kind_of_uri(key)
    assert kind is not None, key
    return kind


def _name_of_key(key: str) -> str:
    return unquote(key.rsplit("/", 1)[1]).upper()


def _xml_root(body: bytes) -> etree._Element:
    try:
        parser = etree.XMLParser(resolve_entities=False, no_network=True)
        return etree.fromstring(body, parser)
    except etree.XMLSyntaxError as exc:
        raise errors.bad_request(f"The request body is not valid XML: {exc}") from None


class Resources:
    """Dispatches an authenticated call to the resource that serves it."""

    def __init__(self, state: SystemState) -> None:
        self.state = state
        self._fixed: dict[str, Callable[[Call], Response]] = {
            f"{ADT}/activation": self._activation,
            f"{ADT}/checkruns": self._checkruns,
            f"{ADT}/repository/informationsystem/search": self._search,
        }
        self._areas = areas.area_routes(state)

    def dispatch(self, call: Call) -> Response:
        handler = self._fixed.get(call.path.rstrip("/") or call.path)
        if handler is not None:
            return handler(call)
        found = areas.find(self._areas, call.path)
        if found is not None:
            route, match = found
            return route.handler(call, match)
        parsed = self.state.parse_path(call.path)
        if parsed is None:
            raise errors.no_suitable_resource()
        key, part, rest = parsed
        if rest == "includes" and call.method == "POST":
            return self._create_include(call, key)
        if rest:
            raise errors.no_suitable_resource()
        if part is None:
            return self._object(call, key)
        return self._source(call, key, part)

    # helpers ---------------------------------------------------------------------------
    def _require(self, key: str) -> RepoObject:
        obj = self.state.objects.get(key)
        if obj is None:
            raise errors.not_found(_kind_of_key(key).resource_word, _name_of_key(key))
        return obj

    @staticmethod
    def _negotiate(call: Call, offers: list[str], *, strict: bool) -> str:
        chosen = choose(call.headers.get("accept"), offers, strict_params=strict)
        if chosen is None:
            raise errors.not_acceptable([o.split(";")[0] for o in offers])
        return chosen

    @staticmethod
    def _only(call: Call, *methods: str) -> None:
        if call.method not in methods:
            raise errors.method_not_supported(call.method)

    # objects ---------------------------------------------------------------------------
    def _object(self, call: Call, key: str) -> Response:
        action = call.query.get("_action")
        if call.method == "POST" and action is not None:
            if action.upper() == "LOCK":
                return self._lock(call, key)
            if action.upper() == "UNLOCK":
                return self._unlock(call, key)
            raise errors.bad_request(f"Action {action} is not supported")
        if call.method == "GET":
            return self._metadata(call, key)
        if call.method == "DELETE":
            return self._delete(call, key)
        if call.method == "PUT":
            return self._put_document(call, key)
        raise errors.method_not_supported(call.method)

    def _metadata(self, call: Call, key: str) -> Response:
        obj = self._require(key)
        chosen = self._negotiate(call, list(obj.kind.media_types), strict=True)
        view = self.state.view(obj, call.query.get("version"))
        if view is None:
            raise errors.not_found(obj.kind.resource_word, obj.name)
        body = REGISTRY.module(obj.kind).document(view, self.state)
        headers = {
            "etag": stamps.metadata_etag(view.changed_at, active=view.active),
            "last-modified": stamps.http_date(view.changed_at),
        }
        return respond(body, content_type=f"{chosen}; charset=utf-8", headers=headers)

    def _lock(self, call: Call, key: str) -> Response:
        obj = self._require(key)
        chosen = self._negotiate(
            call, [documents.LOCK_RESULT2, documents.LOCK_RESULT], strict=False
        )
        if call.context is None:
            # Stateless LOCK: the enqueue ends with the request, the handle is useless
            # (what SAP_BASIS < 7.51 and a stateless caller experience).
            handle = lock_handle(f"stateless:{call.session.id}", obj.uri)
        else:
            handle = self.state.lock_object(obj, call.context).handle
        package = self.state.packages.get(obj.package)
        local = package.is_local if package is not None else obj.package.startswith("$")
        corrnr, corruser, corrtext = self.state.cts.lock_fields(obj)
        modification = "NoModification" if local and obj.kind in (CLAS, INTF) else ""
        body = documents.lock_result(
            handle,
            corrnr=corrnr,
            corruser=corruser,
            corrtext=corrtext,
            local=local,
            modification=modification,
            result2=chosen == documents.LOCK_RESULT2,
        )
        return respond(body, content_type=chosen)

    def _unlock(self, call: Call, key: str) -> Response:
        obj = self.state.objects.get(key)
        handle = call.query.get("lockHandle") or ""
        if obj is not None:
            self.state.unlock_object(obj, handle, call.context)
        return respond()

    def _delete(self, call: Call, key: str) -> Response:
        obj = self._require(key)
        handle, corr_nr = call.query.get("lockHandle"), call.query.get("corrNr")
        delete_object(self.state, obj, handle, call.context, corr_nr, call.user)
        return respond()

    def _create_include(self, call: Call, key: str, part: str | None = None) -> Response:
        """``POST {class}/includes`` with ``class:abapClassInclude`` (abap-adt-api), or
        ``POST {class}/includes/{part}`` without a body (ARC-1: 201 on real systems). Both
        need the class's lock; the include starts as the frame SAP generates."""
        obj = self._require(key)
        if obj.kind is not CLAS:
            raise errors.method_not_supported(call.method)
        handle = call.query.get("lockHandle")
        if handle is None and part is not None:
            handle = ""  # ARC-1 saw 423 "not locked" for a bare POST, not the 400 of a PUT
        self.state.require_lock(obj, handle, call.context, call.user)
        named = part
        if part is None:
            root = _xml_root(call.body)
            part = root.get("{http://www.sap.com/adt/oo/classes}includeType") or ""
        if part not in LOCAL_INCLUDE_FRAMES:
            raise errors.bad_request(f"Include type {part} is not supported")
        record_change(self.state, obj, call.query.get("corrNr"), call.user)
        if part not in obj.parts:
            stamp = stamps.next_stamp(None)
            obj.parts[part] = SourceUnit(
                part,
                inactive=Version(LOCAL_INCLUDE_FRAMES[part], stamp, call.user),
                last_stamp=stamp,
            )
        return respond(status=201 if named else 200)

    def _put_document(self, call: Call, key: str) -> Response:
        """``PUT`` of a whole metadata document (data element, domain, message class …)."""
        obj = self._require(key)
        module = REGISTRY.module(obj.kind)
        if not isinstance(module, MetadataKind):
            raise errors.method_not_supported(call.method)
        handle, corr_nr = call.query.get("lockHandle"), call.query.get("corrNr")
        self.state.require_lock(obj, handle, call.context, call.user)
        description, content = module.accept(obj, call.body)
        stored = write_source(
            self.state, obj, CONTENT, content, handle, call.context, corr_nr, call.user
        )
        obj.description = description
        headers = {
            "etag": stamps.metadata_etag(stored.changed_at, active=False),
            "last-modified": stamps.http_date(stored.changed_at),
        }
        return respond(headers=headers)

    # sources ---------------------------------------------------------------------------
    def _source(self, call: Call, key: str, part: str) -> Response:
        obj = self._require(key)
        if call.method == "POST" and obj.kind is CLAS and part in LOCAL_INCLUDE_FRAMES:
            return self._create_include(call, key, part)
        valid = REGISTRY.module(obj.kind).parts(obj)
        if part not in valid or (call.method != "PUT" and part not in obj.parts):
            raise errors.not_found(obj.kind.resource_word, obj.include_name(part))
        if call.method == "GET":
            self._negotiate(call, ["text/plain"], strict=False)
            picked = obj.parts[part].pick(call.query.get("version"))
            if picked is None:
                raise errors.not_found(obj.kind.resource_word, obj.name)
            version, active = picked
            for listener in self.state.source_read:
                listener(obj, version.text)
            headers = {
                "etag": stamps.source_etag(version.changed_at, active=active),
                "last-modified": stamps.http_date(version.changed_at),
            }
            return respond(
                obj.served(version.text), content_type="text/plain; charset=utf-8", headers=headers
            )
        if call.method == "PUT":
            text = self._decode_text(call)
            handle, corr_nr = call.query.get("lockHandle"), call.query.get("corrNr")
            stored = write_source(
                self.state, obj, part, text, handle, call.context, corr_nr, call.user
            )
            headers = {
                "etag": stamps.source_etag(stored.changed_at, active=False),
                "last-modified": stamps.http_date(stored.changed_at),
            }
            return respond(headers=headers)
        raise errors.method_not_supported(call.method)

    @staticmethod
    def _decode_text(call: Call) -> str:
        content_type = call.headers.get("content-type", "")
        match = re.search(r"charset=([\w-]+)", content_type, re.IGNORECASE)
        charset = match.group(1) if match else "utf-8"
        try:
            return call.body.decode(charset)
        except (LookupError, UnicodeDecodeError):
            raise errors.bad_request(f"The body is not valid {charset}") from None

    # activation ------------------------------------------------------------------------
    def _resolve_reference(self, uri: str) -> tuple[RepoObject | None, str]:
        path = uri.split("?", 1)[0]
        parsed = self.state.parse_path(path)
        if parsed is None:
            return None, path.rsplit("/", 1)[-1].upper()
        key = parsed[0]
        return self.state.objects.get(key), _name_of_key(key)

    def _activation(self, call: Call) -> Response:
        self._only(call, "POST")
        if call.query.get("method") is None:
            raise errors.parameter_missing("method")
        root = _xml_root(call.body)
        targets: list[RepoObject] = []
        missing: list[CheckMessage] = []
        for ref in root.iter(f"{NS_ADTCORE}objectReference"):
            uri = ref.get(f"{NS_ADTCORE}uri") or ""
            obj, name = self._resolve_reference(uri)
            if obj is None:
                missing.append(
                    CheckMessage(
                        uri=uri,
                        line=1,
                        column=0,
                        end_column=0,
                        text=f"Object {name} does not exist",
                        obj_descr=name,
                    )
                )
            else:
                targets.append(obj)
        messages_style = self.state.activation_style == "messages"
        if missing:
            body = documents.activation_messages(missing, properties=(True, False, False))
            return respond(body, content_type=XML_UTF8)
        result = self.state.activate(targets)
        if result.messages and not result.activated:
            props = (True, False, False) if messages_style else None
            body = documents.activation_messages(result.messages, properties=props)
            return respond(body, content_type=XML_UTF8)
        if not result.activated:
            body = documents.activation_messages([], properties=(False, False, True))
            return respond(body, content_type=XML_UTF8)
        if messages_style:
            body = documents.activation_messages(result.messages, properties=(True, True, True))
            return respond(body, content_type=XML_UTF8)
        return respond()

    # check runs ------------------------------------------------------------------------
    def _checkruns(self, call: Call) -> Response:
        self._only(call, "POST")
        self._negotiate(call, [documents.CHECK_MESSAGES, "application/xml"], strict=False)
        root = _xml_root(call.body)
        reports: list[documents.CheckRunReport] = []
        for item in root.iter(f"{NS_CHKRUN}checkObject"):
            uri = item.get(f"{NS_ADTCORE}uri") or ""
            version = item.get(f"{NS_CHKRUN}version") or "active"
            obj, name = self._resolve_reference(uri)
            if obj is None:
                kind = self._kind_for_uri(uri)
                word = kind.resource_word if kind else None
                text = errors.not_found(word, name).message
                reports.append(documents.CheckRunReport(uri.split("?")[0], False, text, []))
                continue
            overrides = self._artifacts(item, obj)
            messages = self.state.check_object(obj, version, overrides)
            reports.append(
                documents.CheckRunReport(
                    obj.uri, True, f"Object {obj.name} has been checked", messages
                )
            )
        return respond(
            documents.check_run_reports(reports),
            content_type=f"{documents.CHECK_MESSAGES}; charset=utf-8",
        )

    def _kind_for_uri(self, uri: str) -> Kind | None:
        parsed = self.state.parse_path(uri)
        return _kind_of_key(parsed[0]) if parsed else None

    def _artifacts(self, item: etree._Element, obj: RepoObject) -> dict[str, str]:
        overrides: dict[str, str] = {}
        for artifact in item.iter(f"{NS_CHKRUN}artifact"):
            uri = artifact.get(f"{NS_CHKRUN}uri") or obj.source_uri("main")
            content = artifact.findtext(f"{NS_CHKRUN}content") or ""
            try:
                text = base64.b64decode(content, validate=False).decode("utf-8")
            except (binascii.Error, UnicodeDecodeError):
                raise errors.bad_request("Artifact content is not base64 UTF-8") from None
            parsed = self.state.parse_path(uri)
            part = parsed[1] if parsed and parsed[1] else "main"
            overrides[part] = text
        return overrides

    # search and trees ------------------------------------------------------------------
    def _search(self, call: Call) -> Response:
        self._only(call, "GET")
        self._negotiate(call, ["application/xml"], strict=False)
        if call.query.get("operation") is None:
            raise errors.parameter_missing("operation")
        query = call.query.get("query")
        if query is None:
            raise errors.parameter_missing("query")
        try:
            max_results = int(call.query.get("maxResults") or "100")
        except ValueError:
            raise errors.bad_request("maxResults must be a number") from None
        refs = self.state.search(query, max(max_results, 0), call.query.get("objectType"))
        return respond(documents.object_references(refs), content_type=XML_UTF8)


__all__ = ["Call", "Resources", "error_response", "respond"]
