"""HTTP plumbing shared by the bot and owner clients: JSON, retries and
idempotency keys."""

from __future__ import annotations

import http.client
import json
import secrets
import socket
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from decimal import Decimal
from typing import Any, Callable, Mapping

from .errors import IDEMPOTENCY_IN_USE, ConnectionFailedError, error_from_answer

DEFAULT_USER_AGENT = "botpay-python"

# Caps what is read of an answer, so a misbehaving server or proxy cannot
# exhaust the bot's memory.
MAX_RESPONSE_BYTES = 8 << 20

# Statuses worth another try: the service stores none of these under an
# Idempotency-Key, so a retry with the same key runs the request again.
_RETRY_STATUSES = frozenset({429, 500, 502, 503, 504})

# The longest wait between two tries, whatever Retry-After says: a bot
# would rather see the 429 than hang.
MAX_RETRY_WAIT_SECONDS = 30.0


@dataclass
class Response:
    """One HTTP answer; header names are lower case, repeated ones joined by ", "."""

    status: int
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""


# A transport sends one request and returns its answer, whatever the status;
# it raises OSError (or urllib.error.URLError) when nothing came back.
Transport = Callable[[str, str, Mapping[str, str], "bytes | None", float], Response]


def urllib_transport(method: str, url: str, headers: Mapping[str, str], body: bytes | None,
                     timeout: float) -> Response:
    """The default transport, on urllib."""
    request = urllib.request.Request(url, data=body, method=method, headers=dict(headers))
    try:
        with urllib.request.urlopen(request, timeout=timeout) as answer:
            return _read(answer.status, answer.headers, answer)
    except urllib.error.HTTPError as answer:
        with answer:
            return _read(answer.code, answer.headers, answer)


def _read(status: int, headers: Any, stream: Any) -> Response:
    folded: dict[str, str] = {}
    for name in set(headers.keys()):
        folded[name.lower()] = ", ".join(headers.get_all(name) or [])
    return Response(status, folded, stream.read(MAX_RESPONSE_BYTES))


def _encode_number(value: Any) -> Any:
    # Decimal amounts go out as JSON numbers; the shortest float repr of a
    # two-decimal amount is that amount's exact text.
    if isinstance(value, Decimal):
        return float(value)
    raise TypeError(f"cannot encode {type(value).__name__} as JSON")


def encode_json(value: Any) -> bytes:
    return json.dumps(value, default=_encode_number, separators=(",", ":")).encode("utf-8")


def decode_json(data: bytes) -> Any:
    """Decodes an answer; amounts become Decimal, never binary floats."""
    if not data:
        return None
    return json.loads(data.decode("utf-8"), parse_float=Decimal)


def new_idempotency_key() -> str:
    return "bp-py-" + secrets.token_hex(16)


class HTTP:
    """Sends JSON requests to one service."""

    def __init__(self, base_url: str, *, timeout: float = 30.0, max_retries: int = 2,
                 user_agent: str = DEFAULT_USER_AGENT, transport: Transport | None = None,
                 sleep: Callable[[float], None] = time.sleep) -> None:
        self.base_url = base_url.rstrip("/")
        self.timeout = timeout
        self.max_retries = max(0, max_retries)
        self.user_agent = user_agent
        self.transport: Transport = transport or urllib_transport
        self.sleep = sleep

    def raw(self, method: str, url: str, headers: Mapping[str, str], body: bytes | None) -> Response:
        """Sends one request once, turning a failure to connect into ConnectionFailedError."""
        try:
            return self.transport(method, url, headers, body, self.timeout)
        except (OSError, http.client.HTTPException, socket.timeout) as failure:
            raise ConnectionFailedError(f"botpay: {method} {url}: {failure}") from failure

    def request(self, method: str, path: str, *, token: str | None = None, body: Any = None,
                query: Mapping[str, Any] | None = None, idempotency_key: str | None = None,
                request_id: str | None = None, accept: str = "application/json",
                extra_headers: Mapping[str, str] | None = None) -> Response:
        """Sends a request, retrying failures that are safe to retry.

        Every POST carries an Idempotency-Key (the caller's, or one drawn
        for this call) and keeps it across its retries, so a retry after a
        lost answer replays the first answer instead of moving money twice.
        Returns the 2xx (or 304) answer; raises an APIError otherwise.
        """
        url = self.base_url + path
        encoded_query = _encode_query(query)
        if encoded_query:
            url += "?" + encoded_query
        headers = {"Accept": accept, "User-Agent": self.user_agent}
        data = None
        if body is not None:
            data = encode_json(body)
            headers["Content-Type"] = "application/json"
        if token:
            headers["Authorization"] = "Bearer " + token
        if method == "POST":
            headers["Idempotency-Key"] = idempotency_key or new_idempotency_key()
        elif idempotency_key:
            headers["Idempotency-Key"] = idempotency_key
        if request_id:
            headers["X-Request-Id"] = request_id
        if extra_headers:
            headers.update(extra_headers)
        return self._with_retries(method, url, headers, data)

    def _with_retries(self, method: str, url: str, headers: dict[str, str], data: bytes | None) -> Response:
        attempt = 0
        while True:
            try:
                answer = self.raw(method, url, headers, data)
            except ConnectionFailedError:
                if attempt >= self.max_retries:
                    raise
                self.sleep(_backoff(attempt))
                attempt += 1
                continue
            if 200 <= answer.status < 300 or answer.status == 304:
                return answer
            error = error_from_answer(answer.status, answer.headers, answer.body)
            retryable = answer.status in _RETRY_STATUSES or error.error == IDEMPOTENCY_IN_USE
            if not retryable or attempt >= self.max_retries:
                raise error
            wait = _backoff(attempt)
            if error.retry_after_seconds:
                wait = min(float(error.retry_after_seconds), MAX_RETRY_WAIT_SECONDS)
            self.sleep(wait)
            attempt += 1

    def json(self, method: str, path: str, **options: Any) -> Any:
        return decode_json(self.request(method, path, **options).body)


def _backoff(attempt: int) -> float:
    # 0.5 s, 1 s, 2 s ... with jitter, so many bots do not retry in step.
    base = min(0.5 * (2 ** attempt), MAX_RETRY_WAIT_SECONDS)
    return base / 2 + secrets.randbelow(1000) / 1000 * base / 2


def _encode_query(query: Mapping[str, Any] | None) -> str:
    if not query:
        return ""
    pairs = []
    for name, value in query.items():
        if value is None or value == "" or value == []:
            continue
        if isinstance(value, (list, tuple)):
            value = ",".join(str(v) for v in value)
        elif isinstance(value, bool):
            value = "true" if value else "false"
        pairs.append((name, str(value)))
    return urllib.parse.urlencode(pairs)


def quote(segment: str) -> str:
    """Escapes one path segment."""
    return urllib.parse.quote(str(segment), safe="")
