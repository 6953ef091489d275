"""Plain ASGI underneath the ladder's pages: requests, responses, forms, cookies, headers.

Every response carries a strict Content-Security-Policy (no script at all on the ladder's
own pages; a game page allows its own inline viewer by nonce), ``nosniff`` and no framing.
"""

from __future__ import annotations

import email.parser
import email.policy
import json
from collections.abc import Awaitable, Callable, MutableMapping
from dataclasses import dataclass, field
from http.cookies import SimpleCookie
from typing import Any
from urllib.parse import parse_qs

Scope = MutableMapping[str, Any]
Message = MutableMapping[str, Any]
Receive = Callable[[], Awaitable[Message]]
Send = Callable[[Message], Awaitable[None]]

CSP = (
    "default-src 'none'; style-src 'self'; img-src 'self' data:; form-action 'self'; "
    "frame-ancestors 'none'; base-uri 'none'"
)


class HttpError(Exception):
    """A request refused: its status and a message for the person or client."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status
        self.message = message


@dataclass
class Request:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes = b""
    cookies: dict[str, str] = field(default_factory=dict)
    new_csrf: str = ""  # a CSRF cookie made for this request's answer

    @classmethod
    def of(cls, scope: Scope) -> Request:
        headers = {k.decode("latin-1").lower(): v.decode("latin-1") for k, v in scope["headers"]}
        cookies: dict[str, str] = {}
        if "cookie" in headers:
            jar: SimpleCookie = SimpleCookie()
            try:
                jar.load(headers["cookie"])
            except Exception:  # a malformed cookie header is no cookie
                jar = SimpleCookie()
            cookies = {key: morsel.value for key, morsel in jar.items()}
        query = parse_qs(scope.get("query_string", b"").decode("latin-1"))
        return cls(scope["method"], scope["path"], query, headers, cookies=cookies)

    def bearer(self) -> str:
        auth = self.headers.get("authorization", "")
        return auth[7:].strip() if auth.lower().startswith("bearer ") else ""

    def form(self) -> tuple[dict[str, str], dict[str, tuple[str, bytes]]]:
        """The fields and files of a posted form (urlencoded or multipart)."""
        kind = self.headers.get("content-type", "")
        if kind.startswith("application/x-www-form-urlencoded"):
            pairs = parse_qs(self.body.decode("utf-8", "replace"), keep_blank_values=True)
            return {k: v[0] for k, v in pairs.items()}, {}
        if not kind.startswith("multipart/form-data"):
            raise HttpError(415, "send a form (multipart/form-data)")
        head = f"Content-Type: {kind}\r\nMIME-Version: 1.0\r\n\r\n".encode("latin-1")
        message = email.parser.BytesParser(policy=email.policy.HTTP).parsebytes(head + self.body)
        if not message.is_multipart():
            raise HttpError(400, "a malformed form")
        fields: dict[str, str] = {}
        files: dict[str, tuple[str, bytes]] = {}
        for part in message.iter_parts():
            name = part.get_param("name", header="content-disposition")
            if not isinstance(name, str):
                continue
            payload = part.get_payload(decode=True) or b""
            assert isinstance(payload, bytes)
            filename = part.get_filename()
            if filename is not None:
                files[name] = (filename, payload)
            else:
                fields[name] = payload.decode("utf-8", "replace")
        return fields, files


@dataclass
class Response:
    status: int = 200
    body: bytes = b""
    kind: str = "text/html; charset=utf-8"
    headers: list[tuple[str, str]] = field(default_factory=list)
    csp: str = CSP

    @classmethod
    def json(cls, data: Any, status: int = 200) -> Response:
        return cls(status, json.dumps(data, ensure_ascii=False).encode(), "application/json")

    @classmethod
    def redirect(cls, location: str) -> Response:
        return cls(303, b"", "text/plain", [("location", location)])

    def cookie(self, name: str, value: str, *, max_age: int | None = None) -> None:
        parts = [f"{name}={value}", "Path=/", "HttpOnly", "SameSite=Strict"]
        if max_age is not None:
            parts.append(f"Max-Age={max_age}")
        self.headers.append(("set-cookie", "; ".join(parts)))

    async def send(self, send: Send) -> None:
        headers = [
            ("content-type", self.kind),
            ("content-length", str(len(self.body))),
            ("content-security-policy", self.csp),
            ("x-content-type-options", "nosniff"),
            ("x-frame-options", "DENY"),
            ("referrer-policy", "same-origin"),
            ("cache-control", "no-store"),
            *self.headers,
        ]
        await send(
            {
                "type": "http.response.start",
                "status": self.status,
                "headers": [(k.encode("latin-1"), v.encode("latin-1")) for k, v in headers],
            }
        )
        await send({"type": "http.response.body", "body": self.body})


async def read_body(receive: Receive, limit: int) -> bytes:
    """The request's body; over ``limit`` bytes: 413, without reading the rest."""
    chunks: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise HttpError(400, "the client went away")
        chunk = message.get("body", b"")
        size += len(chunk)
        if size > limit:
            raise HttpError(413, f"the upload is too large: at most {limit // 1024} KiB")
        chunks.append(chunk)
        if not message.get("more_body", False):
            return b"".join(chunks)
