"""Load the recorded ADT traffic in ``../shared/adt-captures`` (optional: tests skip without it).

Three sidecar formats exist: the A4H main set (``requestMethod``/``responseStatus``), the
A4H ``cts/`` set (``method``/``status``) and the trial corpus (``request``/``response``).
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

REPO_ROOT = Path(__file__).resolve().parents[2]
CAPTURES = Path(os.environ.get("ADT_CAPTURES_DIR", REPO_ROOT.parent / "shared" / "adt-captures"))

requires_captures = pytest.mark.skipif(
    not (CAPTURES / "a4h").is_dir(),
    reason=f"recorded ADT traffic not available at {CAPTURES}",
)


@dataclass(frozen=True)
class Capture:
    name: str
    system: str  # "a4h" or "trl"
    method: str
    path: str
    query: dict[str, str]
    status: int | None
    request_headers: dict[str, str] = field(repr=False)
    response_headers: dict[str, str] = field(repr=False)
    request_body: str | None = field(repr=False)
    body: bytes | None = field(repr=False)

    @property
    def content_type(self) -> str:
        return self.response_headers.get("content-type", "")


def _lower(headers: dict[str, str] | None) -> dict[str, str]:
    return {k.lower(): v for k, v in (headers or {}).items()}


def _body_for(sidecar: Path, stem: str) -> bytes | None:
    for candidate in sorted(sidecar.parent.glob(f"{stem}.*")):
        if candidate.name.endswith((".meta.json",)) or candidate == sidecar:
            continue
        return candidate.read_bytes()
    return None


def _split(url: str) -> tuple[str, dict[str, str]]:
    parts = urlsplit(url)
    return parts.path, dict(parse_qsl(parts.query, keep_blank_values=True))


def _load_a4h(sidecar: Path) -> Capture:
    data = json.loads(sidecar.read_text())
    stem = sidecar.name[: -len(".meta.json")]
    if "requestMethod" in data:
        path, query = _split(data.get("requestUrl") or data.get("requestPath") or "")
        method, status = data["requestMethod"], data.get("responseStatus")
    else:
        path, query = _split(data.get("url") or "")
        query.update(data.get("qs") or {})
        method, status = data.get("method") or "", data.get("status")
    return Capture(
        name=f"a4h/{sidecar.parent.name}/{stem}" if sidecar.parent.name != "a4h" else f"a4h/{stem}",
        system="a4h",
        method=method,
        path=path,
        query=query,
        status=status,
        request_headers=_lower(data.get("requestHeaders")),
        response_headers=_lower(data.get("responseHeaders")),
        request_body=data.get("requestBody"),
        body=_body_for(sidecar, stem),
    )


def _load_trl(sidecar: Path) -> Capture:
    data = json.loads(sidecar.read_text())
    request, response = data["request"], data["response"]
    path, query = _split(request.get("effectiveUrl") or request.get("url") or "")
    body_file = response.get("bodyFile")
    body = (
        (sidecar.parent / body_file).read_bytes()
        if body_file and (sidecar.parent / body_file).exists()
        else None
    )
    return Capture(
        name=f"trl/{sidecar.stem}",
        system="trl",
        method=request.get("method", ""),
        path=path,
        query=query,
        status=response.get("status"),
        request_headers=_lower(request.get("headers")),
        response_headers=_lower(response.get("headers")),
        request_body=request.get("body"),
        body=body,
    )


@cache
def all_captures() -> tuple[Capture, ...]:
    """Every capture that has a sidecar; empty when the folder is absent."""
    if not CAPTURES.is_dir():
        return ()
    found = [_load_a4h(p) for p in sorted((CAPTURES / "a4h").rglob("*.meta.json"))]
    found += [
        _load_trl(p)
        for p in sorted((CAPTURES / "trl").glob("*.json"))
        if not p.name.startswith("_") and not p.name.endswith(".body.json")
    ]
    return tuple(found)


def capture(name: str) -> Capture:
    """One capture by name, e.g. ``a4h/093-np-lock`` or ``trl/lock-success--01-lock``."""
    for item in all_captures():
        if item.name == name:
            return item
    raise KeyError(name)


def body_file(relative: str) -> bytes:
    """A raw body file under the captures folder (for bodies without a usable sidecar)."""
    return (CAPTURES / relative).read_bytes()
