"""``client.formatting``: typed settings and formatted text, on the emulator and on fixed
answers (an empty "no change" body, another prefix, broken documents)."""

from __future__ import annotations

import httpx
import pytest
from lxml import etree
from support.emulated import make_client, no_sleep

from adt import AdtClient, ConnectionProfile
from adt.areas.formatting import (
    FormattedText,
    PrettyPrinterSettings,
    parse_settings,
    settings_request,
)
from adt.emulator import Emulator
from adt.errors import UnexpectedResponseError

NS = "http://www.sap.com/adt/prettyprintersettings"
A4H_SETTINGS = (
    '<?xml version="1.0" encoding="utf-8"?><abapformatter:PrettyPrinterSettings '
    'abapformatter:indentation="true" abapformatter:style="keywordUpper" '
    'abapformatter:keepIdentifier="true" xmlns:abapformatter="' + NS + '"/>'
)


async def test_settings_are_typed(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        assert await client.formatting.settings() == PrettyPrinterSettings(
            indentation=True, style="keywordUpper", keep_identifier=True
        )


async def test_new_settings_are_read_back_and_used(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        await client.formatting.set_settings(False, "toLower", keep_identifier=False)
        assert await client.formatting.settings() == PrettyPrinterSettings(False, "toLower", False)
        result = await client.formatting.pretty_print("REPORT ZX.\n  WRITE LV_X. WRITE 'A'.")
    assert result == FormattedText("report zx.\n  write lv_x.\n  write 'A'.", changed=True)


async def test_pretty_print_returns_canonical_text_and_says_whether_it_changed(
    emulator: Emulator,
) -> None:
    async with make_client(emulator) as client:
        first = await client.formatting.pretty_print("report zx.\r\nwrite 'a'. write 'b'.\n")
        again = await client.formatting.pretty_print(first.text)
    assert first == FormattedText("REPORT zx.\nWRITE 'a'.\nWRITE 'b'.\n", changed=True)
    assert again == FormattedText(first.text, changed=False)


async def test_an_unknown_style_is_refused_before_anything_is_sent(emulator: Emulator) -> None:
    async with make_client(emulator) as client:
        before = client.request_count
        with pytest.raises(ValueError, match="style"):
            await client.formatting.set_settings(True, "shout")
        assert client.request_count == before


def _fixed(answer: httpx.Response) -> AdtClient:
    def handler(request: httpx.Request) -> httpx.Response:
        if request.method == "GET" and "discovery" in request.url.path:
            return httpx.Response(200, headers={"x-csrf-token": "token"})
        return answer

    profile = ConnectionProfile(base_url="http://sap", user="U", password="p", name="X")
    return AdtClient(profile, transport=httpx.MockTransport(handler), sleep=no_sleep)


async def test_an_empty_answer_means_unchanged() -> None:
    async with _fixed(httpx.Response(200, content=b"")) as client:
        result = await client.formatting.pretty_print("write x.\r\n")
    assert result == FormattedText("write x.\n", changed=False)


def test_settings_are_read_by_namespace_and_keep_identifier_may_be_missing() -> None:
    assert parse_settings(A4H_SETTINGS.encode()) == PrettyPrinterSettings(
        True, "keywordUpper", True
    )
    other = f'<x:PrettyPrinterSettings xmlns:x="{NS}" x:indentation="false" x:style="none"/>'
    assert parse_settings(other.encode()) == PrettyPrinterSettings(False, "none", None)


@pytest.mark.parametrize(
    "body",
    [
        b"<not xml",
        b'<x:Other xmlns:x="urn:x"/>',
        f'<x:PrettyPrinterSettings xmlns:x="{NS}"/>'.encode(),
    ],
)
def test_documents_that_are_not_settings_are_refused(body: bytes) -> None:
    with pytest.raises(UnexpectedResponseError):
        parse_settings(body)


def test_the_request_has_the_shape_clients_send() -> None:
    body = settings_request(PrettyPrinterSettings(True, "toUpper"))
    root = etree.fromstring(body)
    assert body.startswith(b"<?xml version='1.0' encoding='UTF-8'?>")
    assert root.prefix == "prettyprintersettings"
    assert dict(root.attrib) == {f"{{{NS}}}indentation": "true", f"{{{NS}}}style": "toUpper"}
    with_keep = etree.fromstring(settings_request(PrettyPrinterSettings(False, "none", False)))
    assert with_keep.get(f"{{{NS}}}keepIdentifier") == "false"
