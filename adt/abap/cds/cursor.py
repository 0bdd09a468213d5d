"""A cursor over tokens with the few moves every CDS-family parser needs."""

from __future__ import annotations

from adt.abap.cds.model import Annotation, Diagnostic, PathStep, Reference
from adt.abap.cds.tokens import NAME, Token

_OPEN = {"(": ")", "[": "]", "{": "}"}
_END = Token("", 0, 0, "end")


class Cursor:
    """Tokens, a position, the references seen and the problems found."""

    def __init__(self, tokens: list[Token]) -> None:
        self.tokens = tokens
        self.index = 0
        self.references: list[Reference] = []
        self.errors: list[Diagnostic] = []

    @property
    def token(self) -> Token:
        return self.tokens[self.index] if self.index < len(self.tokens) else _END

    def peek(self, ahead: int = 1) -> Token:
        at = self.index + ahead
        return self.tokens[at] if at < len(self.tokens) else _END

    @property
    def done(self) -> bool:
        return self.index >= len(self.tokens)

    def at(self, *words: str) -> bool:
        """The current token is one of ``words`` (keywords, case-insensitive) or symbols."""
        token = self.token
        return token.text.lower() in words if token.kind in (NAME, "op") else False

    def accept(self, *words: str) -> Token | None:
        if self.at(*words):
            token = self.token
            self.index += 1
            return token
        return None

    def accept_all(self, *words: str) -> bool:
        """Accept a keyword sequence (``view entity``) only when all of it is there."""
        for ahead, word in enumerate(words):
            if self.peek(ahead).text.lower() != word:
                return False
        self.index += len(words)
        return True

    def advance(self) -> Token:
        token = self.token
        self.index = min(self.index + 1, len(self.tokens))
        return token

    def name(self, role: str = "") -> Token | None:
        """A name token (recording a reference with ``role``) or None."""
        token = self.token
        if token.kind != NAME:
            return None
        self.index += 1
        if role:
            self.references.append(Reference(token.text, role, token.line, token.column))
        return token

    def error(self, message: str, token: Token | None = None) -> None:
        where = token or (
            self.token if not self.done else (self.tokens[-1] if self.tokens else _END)
        )
        self.errors.append(Diagnostic(message, where.line, where.column, max(len(where.text), 1)))

    def expect(self, word: str) -> bool:
        if self.accept(word):
            return True
        self.error(f"'{word}' expected" + (f", not '{self.token.text}'" if not self.done else ""))
        return False

    def skip_group(self) -> Token | None:
        """At an opening bracket: move past its matching close; returns the close token."""
        depth: list[str] = []
        while not self.done:
            token = self.advance()
            if token.text in _OPEN and token.kind == "op":
                depth.append(_OPEN[token.text])
            elif depth and token.text == depth[-1]:
                depth.pop()
                if not depth:
                    return token
        return None

    def skip_until(self, *stops: str) -> list[Token]:
        """Move to the next top-level token among ``stops`` (not consumed); the tokens passed."""
        passed: list[Token] = []
        while not self.done and not self.at(*stops):
            if self.token.text in _OPEN and self.token.kind == "op":
                start = self.index
                self.skip_group()
                passed.extend(self.tokens[start : self.index])
            else:
                passed.append(self.advance())
        return passed

    def annotation(self) -> Annotation | None:
        """``@Name.path[: value]`` (also ``@<`` element-after annotations)."""
        at = self.accept("@")
        if at is None:
            return None
        self.accept("<")
        parts: list[str] = []
        while self.token.kind == NAME or self.at("."):
            parts.append(self.advance().text)
            if parts[-1] != "." and not self.at("."):
                break
        value = ""
        if self.accept(":"):
            value = self._value()
        return Annotation("".join(parts), value, at.line, at.column)

    def _value(self) -> str:
        if self.token.text in _OPEN and self.token.kind == "op":
            start = self.index
            self.skip_group()
            return " ".join(t.text for t in self.tokens[start : self.index])
        return self.advance().text if not self.done else ""

    def annotations(self) -> list[Annotation]:
        found: list[Annotation] = []
        while self.at("@"):
            annotation = self.annotation()
            if annotation is not None:
                found.append(annotation)
        return found

    def path(self) -> list[PathStep]:
        """A path expression ``a.b._c[filter].d`` (filters and parameters skipped)."""
        steps: list[PathStep] = []
        while self.token.kind == NAME:
            token = self.advance()
            steps.append(PathStep(token.text, token.line, token.column))
            while self.at("[") or (self.at("(") and len(steps) > 1):
                self.skip_group()
            if not (self.at(".") and self.peek().kind == NAME):
                break
            self.advance()
        return steps
