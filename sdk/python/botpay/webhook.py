"""Verifying botpay webhook deliveries.

Every delivery is a POST whose raw body is {event, timestamp, bot_id, data},
signed twice with the bot's webhook_secret:

- ``X-Service-Signature: sha256=<hex HMAC-SHA256 of the raw body>``, keyed
  with the whole secret string as it was handed out;
- ``webhook-id``, ``webhook-timestamp``, ``webhook-signature:
  v1,<base64 HMAC-SHA256 of "id.timestamp.body">``, as the Standard Webhooks
  specification says (keyed with the base64 decoding of the part after
  "whsec_"), whose signed timestamp lets a receiver refuse old or replayed
  deliveries.

:class:`Verifier` requires both: a delivery whose webhook-* headers were
stripped is refused, since its age cannot be checked. Verify the raw bytes
of the body, before any JSON decoding, and deduplicate by ``event.id``
(stable across retries).
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import time
from dataclasses import dataclass
from typing import Any, Callable, Mapping

from .errors import BotpayError

HEADER_SIGNATURE = "X-Service-Signature"
HEADER_EVENT = "X-Service-Event"
HEADER_DELIVERY = "X-Service-Delivery"
HEADER_WEBHOOK_ID = "Webhook-Id"
HEADER_WEBHOOK_TIMESTAMP = "Webhook-Timestamp"
HEADER_WEBHOOK_SIGNATURE = "Webhook-Signature"

# How far webhook-timestamp may be from now, either way.
DEFAULT_TOLERANCE_SECONDS = 300


class WebhookVerificationError(BotpayError):
    """A delivery failed verification; answer it 401 and do not act on it."""


class MissingSignatureError(WebhookVerificationError):
    """A signature header is missing."""


class BadSignatureError(WebhookVerificationError):
    """A signature does not match the body under the secret."""


class TimestampError(WebhookVerificationError):
    """webhook-timestamp is missing, malformed or outside the tolerance (a replay)."""


@dataclass
class Event:
    """A verified delivery. ``id`` is the event id, the same on every retry."""

    id: str
    event: str
    timestamp: str
    bot_id: str
    data: Any


def _header(headers: Mapping[str, str], name: str) -> str:
    lowered = name.lower()
    for key, value in headers.items():
        if key.lower() == lowered:
            return value
    return ""


def verify_signature(secret: str, body: bytes, header: str) -> None:
    """Checks an X-Service-Signature value ("sha256=<hex>") in constant time."""
    if not header:
        raise MissingSignatureError("webhook: X-Service-Signature missing")
    value = header.strip()
    if not value.startswith("sha256="):
        raise BadSignatureError("webhook: X-Service-Signature is not sha256=<hex>")
    try:
        got = bytes.fromhex(value[len("sha256="):])
    except ValueError:
        raise BadSignatureError("webhook: X-Service-Signature is not hex") from None
    want = hmac.new(secret.encode("utf-8"), body, hashlib.sha256).digest()
    if not hmac.compare_digest(got, want):
        raise BadSignatureError("webhook: X-Service-Signature does not match")


def standard_key(secret: str) -> bytes:
    """The Standard Webhooks HMAC key of a secret: the base64 decoding of the
    part after "whsec_"; a secret without the prefix, or whose rest is not
    base64, is used as it is."""
    if not secret.startswith("whsec_"):
        return secret.encode("utf-8")
    try:
        key = base64.b64decode(secret[len("whsec_"):], validate=True)
    except (binascii.Error, ValueError):
        key = b""
    return key or secret.encode("utf-8")


def verify_standard(secret: str, webhook_id: str, timestamp: str, signatures: str, body: bytes,
                    now: float, tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS) -> None:
    """Checks Standard Webhooks headers: the timestamp within tolerance of
    now, and one of the space-separated "v1,<base64>" signatures matching
    HMAC-SHA256(standard_key(secret), "id.timestamp.body")."""
    if not webhook_id or not signatures:
        raise MissingSignatureError("webhook: webhook-id or webhook-signature missing")
    if not timestamp.isdigit():
        raise TimestampError("webhook: webhook-timestamp missing or malformed")
    if abs(now - int(timestamp)) > tolerance_seconds:
        raise TimestampError("webhook: webhook-timestamp outside the tolerance")
    signed = webhook_id.encode("utf-8") + b"." + timestamp.encode("ascii") + b"." + body
    want = hmac.new(standard_key(secret), signed, hashlib.sha256).digest()
    matched = False
    for candidate in signatures.split():
        version, _, encoded = candidate.partition(",")
        if version != "v1":
            continue
        try:
            got = base64.b64decode(encoded, validate=True)
        except (binascii.Error, ValueError):
            continue
        # Every candidate is compared, so timing does not tell which matched.
        matched |= hmac.compare_digest(got, want)
    if not matched:
        raise BadSignatureError("webhook: webhook-signature does not match")


class Verifier:
    """Checks deliveries signed with one webhook secret.

    ``allow_missing_timestamp`` accepts a delivery that carries
    X-Service-Signature but none of the Standard Webhooks headers; such a
    delivery can be replayed at any later time, so only set it behind a
    proxy that strips the webhook-* headers.
    """

    def __init__(self, secret: str, *, tolerance_seconds: float = DEFAULT_TOLERANCE_SECONDS,
                 allow_missing_timestamp: bool = False, clock: Callable[[], float] = time.time) -> None:
        self.secret = secret
        self.tolerance_seconds = tolerance_seconds
        self.allow_missing_timestamp = allow_missing_timestamp
        self.clock = clock

    def verify(self, headers: Mapping[str, str], body: bytes) -> None:
        """Raises WebhookVerificationError unless both signatures match and
        the signed timestamp is within the tolerance."""
        verify_signature(self.secret, body, _header(headers, HEADER_SIGNATURE))
        webhook_id = _header(headers, HEADER_WEBHOOK_ID)
        timestamp = _header(headers, HEADER_WEBHOOK_TIMESTAMP)
        signatures = _header(headers, HEADER_WEBHOOK_SIGNATURE)
        if not (webhook_id or timestamp or signatures):
            if self.allow_missing_timestamp:
                return
            raise TimestampError("webhook: the Standard Webhooks headers are missing, so the delivery's age is unknown")
        verify_standard(self.secret, webhook_id, timestamp, signatures, body, self.clock(), self.tolerance_seconds)

    def parse(self, headers: Mapping[str, str], body: bytes) -> Event:
        """Verifies a delivery and decodes its body."""
        self.verify(headers, body)
        try:
            document = json.loads(body.decode("utf-8"))
        except (ValueError, UnicodeDecodeError) as failure:
            raise WebhookVerificationError(f"webhook: undecodable body: {failure}") from None
        if not isinstance(document, dict):
            raise WebhookVerificationError("webhook: the body is not a JSON object")
        event_id = _header(headers, HEADER_DELIVERY) or _header(headers, HEADER_WEBHOOK_ID)
        return Event(event_id, str(document.get("event", "")), str(document.get("timestamp", "")),
                     str(document.get("bot_id", "")), document.get("data"))
