"""Where a browser logon's renewable secret outlives the process (:class:`adt.logon.Remember`):
the OS keyring, a JSON file readable only by its owner, or nowhere. A vault that fails (a
keyring without backend, a file that cannot be written) is logged by the kind of failure only
— never with the secret — and the logon goes on in memory."""

from __future__ import annotations

import contextlib
import json
import logging
import os
import stat
import tempfile
from abc import ABC, abstractmethod
from pathlib import Path
from typing import Any

from adt.errors import ConfigurationError
from adt.logon import Remember

log = logging.getLogger("adt.auth")

SERVICE = "abap-adt"


class Vault(ABC):
    """Keeps one secret per key (a system, user and logon)."""

    @abstractmethod
    def load(self, key: str) -> str | None: ...

    @abstractmethod
    def save(self, key: str, secret: str) -> None: ...

    @abstractmethod
    def forget(self, key: str) -> None: ...


class MemoryOnly(Vault):
    """Nothing outlives the process."""

    def load(self, key: str) -> str | None:
        return None

    def save(self, key: str, secret: str) -> None:
        return None

    def forget(self, key: str) -> None:
        return None


class KeyringVault(Vault):
    """The OS keyring through the ``keyring`` package (service ``abap-adt``)."""

    def __init__(self, backend: Any) -> None:
        self._keyring = backend

    def load(self, key: str) -> str | None:
        value = self._keyring.get_password(SERVICE, key)
        return value if isinstance(value, str) and value else None

    def save(self, key: str, secret: str) -> None:
        self._keyring.set_password(SERVICE, key, secret)

    def forget(self, key: str) -> None:
        with contextlib.suppress(Exception):  # nothing stored: nothing to forget
            self._keyring.delete_password(SERVICE, key)


class FileVault(Vault):
    """A JSON object of secrets in a file only its owner may read or write (0600): created
    so, and refused when others may read it."""

    def __init__(self, path: Path) -> None:
        self.path = path

    def _read(self) -> dict[str, str]:
        try:
            info = self.path.stat()
        except FileNotFoundError:
            return {}
        if os.name == "posix" and info.st_mode & (stat.S_IRWXG | stat.S_IRWXO):
            raise ConfigurationError(
                f"the token file {self.path} may be read by others: chmod 600 {self.path}"
            )
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, json.JSONDecodeError):
            raise ConfigurationError(f"the token file {self.path} is not readable JSON") from None
        return (
            {k: v for k, v in data.items() if isinstance(v, str)} if isinstance(data, dict) else {}
        )

    def _write(self, data: dict[str, str]) -> None:
        self.path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(prefix=".tokens-", dir=self.path.parent)
        try:  # mkstemp creates it 0600; replaced in one step, so no reader sees half a file
            with os.fdopen(handle, "w", encoding="utf-8") as file:
                json.dump(data, file)
            os.replace(temporary, self.path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary)
            raise

    def load(self, key: str) -> str | None:
        return self._read().get(key)

    def save(self, key: str, secret: str) -> None:
        data = self._read()
        data[key] = secret
        self._write(data)

    def forget(self, key: str) -> None:
        data = self._read()
        if data.pop(key, None) is not None:
            self._write(data)


def os_keyring() -> Any | None:
    """The ``keyring`` module when it is installed and has a real backend, else None."""
    try:
        import keyring  # type: ignore[import-not-found, unused-ignore]
        from keyring.backends import fail  # type: ignore[import-not-found, unused-ignore]
    except ImportError:
        return None
    if isinstance(keyring.get_keyring(), fail.Keyring):
        return None
    return keyring


def vault_for(remember: Remember, keyring: Any | None = None) -> Vault:
    """The vault ``remember`` asks for, the keyring falling back to the file, then memory.
    ``keyring`` replaces the OS keyring (tests)."""
    if remember.keyring:
        backend = keyring if keyring is not None else os_keyring()
        if backend is not None:
            return KeyringVault(backend)
        log.info(
            "no OS keyring (pip install keyring): the logon is kept %s",
            "in the token file" if remember.file else "in memory only",
        )
    if remember.file is not None:
        return FileVault(remember.file)
    return MemoryOnly()


class SafeVault(Vault):
    """A vault whose failures cost only the remembering: logged (the kind of failure, never
    the secret) and the logon goes on in memory."""

    def __init__(self, inner: Vault, system: str) -> None:
        self._inner = inner
        self._system = system

    def _failed(self, action: str, exc: Exception) -> None:
        reason = str(exc) if isinstance(exc, ConfigurationError) else type(exc).__name__
        log.warning("could not %s the logon of %s: %s", action, self._system, reason)

    def load(self, key: str) -> str | None:
        try:
            return self._inner.load(key)
        except Exception as exc:
            self._failed("read the remembered", exc)
            return None

    def save(self, key: str, secret: str) -> None:
        try:
            self._inner.save(key, secret)
        except Exception as exc:
            self._failed("remember", exc)

    def forget(self, key: str) -> None:
        try:
            self._inner.forget(key)
        except Exception as exc:
            self._failed("forget", exc)


__all__ = [
    "SERVICE",
    "FileVault",
    "KeyringVault",
    "MemoryOnly",
    "SafeVault",
    "Vault",
    "os_keyring",
    "vault_for",
]
