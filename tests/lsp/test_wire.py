"""The stdio wire and the didChange fast path: frames come out as they went in, and a
didChange parsed the fast way gives exactly the changes pygls' full path gives."""

from __future__ import annotations

import asyncio
import io
import itertools
import json
import os
import threading

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from lsprotocol import types

from lsp_server.buffer import UTF8, UTF16, TextBuffer
from lsp_server.factory import create_server
from lsp_server.wire import (
    FrameParser,
    _one_frame,
    parse_did_change,
    read_frames,
    serve_frames,
)

ALPHABET = 'ab é😀\x0c\u2028\x85\t"\\'
_PROTOCOL = create_server().protocol  # pygls' own message structuring


def _units(prefix: str, encoding: str) -> int:
    if encoding == UTF16:
        return len(prefix.encode("utf-16-le")) // 2
    if encoding == UTF8:
        return len(prefix.encode("utf-8"))
    return len(prefix)


def _body(uri: str, version: int, changes: list[dict[str, object]]) -> bytes:
    message = {
        "jsonrpc": "2.0",
        "method": "textDocument/didChange",
        "params": {"textDocument": {"uri": uri, "version": version}, "contentChanges": changes},
    }
    return json.dumps(message).encode()


def _full_path(body: bytes) -> list[tuple[object, object, str]]:
    """What pygls makes of the message, converted the way the handler did before."""
    message = json.loads(body, object_hook=_PROTOCOL.structure_message)
    result: list[tuple[object, object, str]] = []
    for change in message.params.content_changes:
        if isinstance(change, types.TextDocumentContentChangePartial):
            start, end = change.range.start, change.range.end
            result.append(((start.line, start.character), (end.line, end.character), change.text))
        else:
            result.append((None, None, change.text))
    return result


@settings(max_examples=200)
@given(
    base=st.text(alphabet=ALPHABET + "\n", max_size=30),
    steps=st.lists(
        st.tuples(st.integers(0, 50), st.integers(0, 50), st.text(alphabet=ALPHABET + "\n\r")),
        min_size=1,
        max_size=6,
    ),
    encoding=st.sampled_from([UTF8, UTF16]),
    whole=st.booleans(),
)
def test_random_edits_through_the_fast_path_match_the_full_path_and_the_text(
    base: str, steps: list[tuple[int, int, str]], encoding: str, whole: bool
) -> None:
    fast_buffer, full_buffer = TextBuffer(base, encoding), TextBuffer(base, encoding)
    for version, (a, b, new) in enumerate(steps, start=2):
        lines = fast_buffer.lines
        line_a, line_b = sorted((a % len(lines), b % len(lines)))
        col_a = _units(lines[line_a][: a % (len(lines[line_a]) + 1)], encoding)
        col_b = _units(lines[line_b][: b % (len(lines[line_b]) + 1)], encoding)
        if line_a == line_b:
            col_a, col_b = sorted((col_a, col_b))
        span = {
            "start": {"line": line_a, "character": col_a},
            "end": {"line": line_b, "character": col_b},
        }
        change = {"text": new} if whole and version == 2 else {"range": span, "text": new}
        body = _body("adt://A4H/sap/bc/adt/programs/programs/zx/source/main", version, [change])
        parsed = parse_did_change(body)
        assert parsed is not None
        _, parsed_version, changes = parsed
        assert parsed_version == version and changes == _full_path(body)
        for start, end, text in changes:
            fast_buffer.apply_change(start, end, text)
        for start, end, text in _full_path(body):
            full_buffer.apply_change(start, end, text)  # type: ignore[arg-type]
        assert fast_buffer.text == full_buffer.text


def test_anything_else_goes_the_full_way() -> None:
    uri = "adt://A4H/x"
    good = _body(uri, 2, [{"text": "x"}])
    assert parse_did_change(good) == (uri, 2, [(None, None, "x")])
    others = [
        b'{"jsonrpc":"2.0","id":1,"method":"textDocument/hover","params":{}}',
        b'{"jsonrpc":"2.0","id":7,"method":"textDocument/didChange","params":{}}',
        _body(uri, "2", [{"text": "x"}]),  # type: ignore[arg-type]
        _body(uri, 2, [{"text": 3}]),
        _body(uri, 2, [{"range": {"start": {"line": -1, "character": 0}}, "text": "x"}]),
        b'{"method": "textDocument/didChange", "params": [1, 2]}',
        b"not json textDocument/didChange",
        b'{"jsonrpc":"2.0","method":"textDocument/didOpen","params":{"text":"%s"}}' % (b"x" * 9000),
    ]
    point = {"line": 0, "character": 0}
    for wrong in (-1, True, 1.0, None):
        for side in ("start", "end"):
            for key in ("line", "character"):
                span = {"start": dict(point), "end": dict(point)}
                span[side][key] = wrong
                others.append(_body(uri, 2, [{"range": span, "text": "x"}]))
    assert [parse_did_change(body) for body in others] == [None] * len(others)


def test_frames_are_read_in_order_until_the_pipe_closes() -> None:
    bodies = [b'{"a":1}', b"", json.dumps({"text": "é\r\n"}).encode(), b"x" * 70_000]
    stream = b"".join(
        b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc\r\n\r\n%s" % (len(b), b)
        for b in bodies
    )
    received: list[bytes | None] = []
    read_frames(io.BytesIO(stream + b"Content-Length: 99\r\n\r\ntoo short"), received.append)
    assert received == [*bodies, None]


_STREAM_BODIES = [b'{"a":1}', b"", json.dumps({"text": "\u00e9\\r\\n"}).encode(), b"y" * 3_000]
_STREAM = b"\r\n" + b"".join(
    b"Content-Length: %d\r\nContent-Type: application/vscode-jsonrpc\n\n%s" % (len(b), b)
    for b in _STREAM_BODIES
)


@settings(max_examples=100)
@given(st.lists(st.integers(1, len(_STREAM) - 1), unique=True, max_size=12))
def test_the_loop_reader_cuts_the_frames_the_thread_reader_reads(cuts: list[int]) -> None:
    """However the pipe splits the bytes (a read may end anywhere, even inside a header),
    the event loop's parser gives the frames the blocking reader gives."""
    thread_read: list[bytes | None] = []
    read_frames(io.BytesIO(_STREAM), thread_read.append)
    parser = FrameParser()
    frames: list[bytes] = []
    edges = [0, *sorted(cuts), len(_STREAM)]
    for start, end in itertools.pairwise(edges):
        frames += parser.feed(_STREAM[start:end])
    assert [*frames, None] == thread_read == [*_STREAM_BODIES, None]


_KEY_READS = [  # what one read of the pipe may hold; a tuple is reads that come in a row
    (b'Content-Length: 7\r\n\r\n{"a":1}',),  # one key, as an editor writes it
    (b"Content-Length: 0\r\n\r\n",),
    (b'Content-Length: 007\r\n\r\n{"b":2}',),
    (b"Content-Length: 3\r\n\r\nabcContent-Length: 1\r\n\r\nd",),  # two frames
    (b"Content-Length: 4\r\n\r\nab", b"cd"),  # half a frame, then its rest
    (b"Content-Length: 2\r\nContent-Type: x\r\n\r\nef",),
    (b"Content-Length:  2\r\n\r\ngh",),
    (b"Content-Length: +2\r\n\r\nij",),
    (b"\r\nContent-Length: 2\r\n\r\nkl",),
]


@settings(max_examples=30)
@given(st.permutations(_KEY_READS))
def test_a_read_holding_exactly_one_frame_gives_what_the_thread_reader_reads(
    groups: list[tuple[bytes, ...]],
) -> None:
    """A read that is one whole frame takes the short way in :meth:`FrameParser.feed`;
    reads with two frames, half a frame or other headers take the general one; in any order
    the frames are those the blocking reader reads from the same bytes."""
    reads = [data for group in groups for data in group]
    parser, frames = FrameParser(), []
    for data in reads:
        frames += parser.feed(data)
    thread_read: list[bytes | None] = []
    read_frames(io.BytesIO(b"".join(reads)), thread_read.append)
    assert [*frames, None] == thread_read
    assert len(frames) == 10
    short_way = [group[0] for group in _KEY_READS if _one_frame(group[0]) is not None]
    assert short_way == [group[0] for group in _KEY_READS[:3]]


def test_a_malformed_length_is_refused() -> None:
    with pytest.raises(ValueError, match="a frame of -4 bytes"):
        FrameParser().feed(b"Content-Length: -4\r\n\r\n")


def _pipe_with(chunks: list[bytes]) -> io.BufferedReader:
    """A real pipe fed with ``chunks`` one write at a time by a thread, then closed."""
    read_end, write_end = os.pipe()

    def write() -> None:
        with os.fdopen(write_end, "wb", buffering=0) as stream:
            for chunk in chunks:
                stream.write(chunk)

    threading.Thread(target=write, daemon=True).start()
    return os.fdopen(read_end, "rb")


def test_frames_from_a_pipe_are_handled_in_order_by_the_loop() -> None:
    """stdin as editors give it (a pipe) is read by the event loop itself: every frame is
    handled in order, in the loop's thread, and serving ends at EOF."""
    handled: list[tuple[bytes, int]] = []
    chunks = [_STREAM[:5], _STREAM[5:60], _STREAM[60:]]

    async def main() -> None:
        await serve_frames(_pipe_with(chunks), lambda b: handled.append((b, threading.get_ident())))

    asyncio.run(main())
    assert [body for body, _ in handled] == _STREAM_BODIES
    assert {thread for _, thread in handled} == {threading.get_ident()}


def test_exit_while_handling_a_frame_ends_serving_and_reaches_the_caller() -> None:
    """pygls' ``exit`` raises SystemExit inside the handler: serving stops there (nothing
    after it is handled) and the caller gets the exit code, after its cleanup."""
    handled: list[bytes] = []

    def handle(body: bytes) -> None:
        handled.append(body)
        if body == b"":
            raise SystemExit(3)

    async def main() -> None:
        await serve_frames(_pipe_with([_STREAM]), handle)

    with pytest.raises(SystemExit) as exited:
        asyncio.run(main())
    assert exited.value.code == 3 and handled == _STREAM_BODIES[:2]
