"""The "browsers" of browser-logon tests: HTTP clients that open the logon URL, log on at the
form (the identity provider's for single sign-on, the authorization server's for OAuth)
and follow the redirects back to the client's loopback listener."""

from __future__ import annotations

from dataclasses import dataclass, field
from urllib.parse import parse_qsl, urlsplit

import httpx

from support.emulated import USERS


@dataclass
class SsoBrowser:
    """Follows the logon redirects; logs on at the identity provider's form."""

    password: str | None = None  # default: the user's right one
    opened: list[str] = field(default_factory=list)
    pages: list[httpx.Response] = field(default_factory=list)
    user: str = "DEVELOPER"

    def __call__(self, url: str) -> None:
        self.opened.append(url)
        password = USERS[self.user] if self.password is None else self.password
        with httpx.Client(follow_redirects=True, timeout=30) as web:
            form = web.get(url)
            assert form.status_code == 200 and "<form" in form.text
            relay = form.url.params["RelayState"]
            idp = f"{form.url.scheme}://{form.url.netloc.decode()}{form.url.path}"
            data = {"username": self.user, "password": password, "RelayState": relay}
            self.pages.append(web.post(idp, data=data))


@dataclass
class OAuthBrowser:
    """Opens the authorization URL, logs on in the form, follows redirects (a thread)."""

    user: str = "DEVELOPER"
    decision: str = "allow"
    forge_first: bool = False
    opened: list[str] = field(default_factory=list)
    pages: list[httpx.Response] = field(default_factory=list)

    def __call__(self, url: str) -> None:
        self.opened.append(url)
        query = dict(parse_qsl(urlsplit(url).query))
        with httpx.Client(follow_redirects=True, timeout=30) as web:
            if self.forge_first:  # an attacker's page calling the loopback first
                forged = {"code": "stolen", "state": "forged-state"}
                self.pages.append(web.get(query["redirect_uri"], params=forged))
            form = web.get(url)
            assert form.status_code == 200 and "<form" in form.text
            answer = web.post(
                url.split("?", 1)[0],
                data={
                    **query,
                    "username": self.user,
                    "password": USERS[self.user],
                    "decision": self.decision,
                },
            )
            self.pages.append(answer)
