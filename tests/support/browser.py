"""The "browser" of single sign-on tests: an HTTP client that opens the system's reentrance
URL, logs on at the identity provider's form and follows the redirects back to the client's
loopback listener."""

from __future__ import annotations

from dataclasses import dataclass, field

import httpx

from support.emulated import USERS


@dataclass
class SsoBrowser:
    """Follows the logon redirects; logs on at the identity provider's form."""

    password: str = USERS["DEVELOPER"]
    opened: list[str] = field(default_factory=list)
    pages: list[httpx.Response] = field(default_factory=list)

    def __call__(self, url: str) -> None:
        self.opened.append(url)
        with httpx.Client(follow_redirects=True, timeout=30) as web:
            form = web.get(url)
            assert form.status_code == 200 and "<form" in form.text
            relay = form.url.params["RelayState"]
            idp = f"{form.url.scheme}://{form.url.netloc.decode()}{form.url.path}"
            data = {"username": "DEVELOPER", "password": self.password, "RelayState": relay}
            self.pages.append(web.post(idp, data=data))
