"""A scripted transport for tests that need no server."""

from __future__ import annotations

import json
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from botpay._transport import Response


@dataclass
class Sent:
    method: str
    url: str
    headers: dict[str, str]
    body: bytes | None

    def json(self) -> Any:
        return json.loads(self.body) if self.body else None

    def header(self, name: str) -> str:
        return {k.lower(): v for k, v in self.headers.items()}.get(name.lower(), "")


def answer(status: int, document: Any = None, headers: Mapping[str, str] | None = None) -> Response:
    body = b"" if document is None else (document if isinstance(document, bytes) else json.dumps(document).encode())
    return Response(status, {k.lower(): v for k, v in (headers or {}).items()}, body)


class FakeTransport:
    """Answers each request with the next scripted answer (a Response, an
    exception to raise, or a function of the request) and records what was sent."""

    def __init__(self, *script: Response | BaseException | Callable[[Sent], Response]) -> None:
        self.script = list(script)
        self.sent: list[Sent] = []

    def __call__(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None,
                 timeout: float) -> Response:
        request = Sent(method, url, dict(headers), body)
        self.sent.append(request)
        if not self.script:
            raise AssertionError(f"unexpected request {method} {url}")
        step = self.script.pop(0)
        if isinstance(step, BaseException):
            raise step
        if callable(step):
            return step(request)
        return step
