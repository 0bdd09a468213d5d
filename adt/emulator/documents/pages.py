"""The HTML pages of the logon layer (ICF/ICM), as SAP sends them."""

from __future__ import annotations

from ..xmlwriter import esc_text


def logon_failed_page(sid: str, client: str) -> str:
    """The 401 HTML page (SAP's is the ICF logon-error page; keyed on status only)."""
    return (
        '<html><head><meta http-equiv="content-type" content="text/html; charset=utf-8">'
        '<title>Logon failed</title></head><body><p class="errorTextHeader">'
        f'401 Unauthorized</p><p class="detailText">Logon failed on {esc_text(sid)}/'
        f"{esc_text(client)}. Check user and password.</p></body></html>"
    )


def session_timed_out_page() -> str:
    """The ICM page for a dead stateful context (reason phrase "Session timed out")."""
    return (
        "<html><head><title>Session timed out</title></head><body>"
        "<h1>Session timed out</h1><p>Session not found (ICMENOSESSION).</p></body></html>"
    )
