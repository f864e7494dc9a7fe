"""Paying an x402 (HTTP 402) resource with the bot's processor wallet.

The service holds the wallet's key: the bot never signs itself. It asks the
sign endpoint for an authorization of exactly what the resource asks, and
repeats its request with the signed header the resource's x402 version
expects.
"""

from __future__ import annotations

import base64
import binascii
import json
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from .errors import AwaitingApprovalError, X402Error

if TYPE_CHECKING:
    from .client import Client

AWAITING_APPROVAL = "awaiting_approval"


@dataclass
class PaidResponse:
    """The resource's final answer and what was signed for it.

    ``version`` is 2 or 1 when a 402 was paid, 0 when the resource did not
    ask for payment; ``requirement`` is the offer paid; ``settlement`` the
    decoded PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1) header, None
    when the resource sent neither.
    """

    status: int
    headers: dict[str, str]
    body: bytes
    version: int = 0
    requirement: dict[str, Any] | None = None
    signed: dict[str, Any] | None = None
    settlement: dict[str, Any] | None = field(default=None)

    def json(self) -> Any:
        return json.loads(self.body.decode("utf-8"))


@dataclass
class _Asked:
    version: int
    payment_required: Any  # what goes to the sign endpoint: the header text (v2) or the body (v1)
    offers: list[dict[str, Any]]
    resource_url: str


def pay(client: "Client", url: str, *, max_usdc: int, method: str | None = None, body: bytes | None = None,
        headers: dict[str, str] | None = None, version: int | None = None) -> PaidResponse:
    """Fetches url (GET, or POST when body is given); when it answers 402,
    pays it and fetches it again.

    Reads PAYMENT-REQUIRED (x402 v2) first, else the v1 JSON body; signs the
    first "exact" offer through the sign endpoint with ``payment_required``
    as it came, after checking it asks at most max_usdc micro-USDC; resends
    with PAYMENT-SIGNATURE (v2) or X-PAYMENT (v1). Raises X402Error when the
    402 cannot be paid, AwaitingApprovalError when the owner must approve
    first, APIError when the sign endpoint refuses. ``version`` 1 or 2
    pays only that version of a seller that offers both.
    """
    method = method or ("POST" if body is not None else "GET")
    first = _fetch(client, method, url, body, headers, {})
    if first.status != 402:
        return first
    asked = read_payment_required(first.headers, first.body, url, version)
    offer = next((o for o in asked.offers if isinstance(o, dict) and o.get("scheme") == "exact"), None)
    if offer is None:
        raise X402Error(f"botpay: the 402 of {url} offers no exact payment")
    amount = _amount_of(offer, asked.version)
    if amount > max_usdc:
        raise X402Error(f"botpay: {url} asks {amount} micro-USDC, more than the allowed {max_usdc}", over_limit=True)
    resource = asked.resource_url if asked.version == 2 else (offer.get("resource") or url)
    signed = client.sign(resource, amount, str(offer.get("payTo", "")), payment_required=asked.payment_required)
    if signed.get("status") == AWAITING_APPROVAL:
        raise AwaitingApprovalError(signed, offer)
    paid = _fetch(client, method, url, body, headers, payment_headers(asked.version, signed))
    paid.version, paid.requirement, paid.signed = asked.version, offer, signed
    return paid


def read_payment_required(headers: dict[str, str], body: bytes, url: str, version: int | None = None) -> _Asked:
    """Reads a 402: the PAYMENT-REQUIRED header (v2) first, else the v1 JSON body."""
    header = headers.get("payment-required", "").strip() if version != 1 else ""
    if version == 2 and not header:
        raise X402Error(f"botpay: the 402 of {url} carries no PAYMENT-REQUIRED header (x402 v2)")
    if header:
        document = _decode_base64_json(header)
        if not isinstance(document, dict) or not isinstance(document.get("accepts"), list):
            raise X402Error(f"botpay: the PAYMENT-REQUIRED header of {url} is not an x402 v2 PaymentRequired")
        resource = document.get("resource") if isinstance(document.get("resource"), dict) else {}
        return _Asked(2, header, document["accepts"], str(resource.get("url") or url))
    try:
        document = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        document = None
    if not isinstance(document, dict) or not isinstance(document.get("accepts"), list):
        raise X402Error(f"botpay: the 402 of {url} carries neither PAYMENT-REQUIRED nor an x402 v1 body")
    return _Asked(1, document, document["accepts"], url)


def payment_headers(version: int, signed: dict[str, Any]) -> dict[str, str]:
    """The header that carries a signed payment to the resource.

    v2 sends PAYMENT-SIGNATURE. v1 sends X-PAYMENT with the stock x402 v1
    payload when the service made one (every seller reads it, botpay's
    too), else with the service's own header (for botpay's sellers). A
    service that does not sign v2 yet answers no payment_signature_header:
    its X-PAYMENT is then the only thing left to send.
    """
    if version == 2 and signed.get("payment_signature_header"):
        return {"PAYMENT-SIGNATURE": signed["payment_signature_header"]}
    header = signed.get("x_payment_standard_header") or signed.get("x_payment_header")
    if not header:
        raise X402Error("botpay: the sign endpoint answered no payment header")
    return {"X-PAYMENT": header}


def decode_settlement(headers: dict[str, str]) -> dict[str, Any] | None:
    """The decoded PAYMENT-RESPONSE (v2) or X-PAYMENT-RESPONSE (v1) header."""
    for name in ("payment-response", "x-payment-response"):
        value = headers.get(name, "").strip()
        if value:
            document = _decode_base64_json(value)
            if isinstance(document, dict):
                return document
    return None


def _amount_of(offer: dict[str, Any], version: int) -> int:
    raw = offer.get("amount") if version == 2 else offer.get("maxAmountRequired")
    try:
        amount = int(str(raw))
    except ValueError:
        amount = 0
    if amount <= 0:
        raise X402Error(f"botpay: the 402 asks for {raw!r} micro-USDC")
    return amount


def _decode_base64_json(value: str) -> Any:
    padded = value + "=" * (-len(value) % 4)
    for decode in (base64.b64decode, base64.urlsafe_b64decode):
        try:
            return json.loads(decode(padded.encode("ascii")).decode("utf-8"))
        except (ValueError, binascii.Error, UnicodeError):
            continue
    return None


def _fetch(client: "Client", method: str, url: str, body: bytes | None, headers: dict[str, str] | None,
           payment: dict[str, str]) -> PaidResponse:
    # Straight to the resource, once, and never with the bot's API key: the
    # resource is someone else's server.
    sent = {"User-Agent": client.http.user_agent, "Accept": "application/json, */*"}
    if body is not None:
        sent["Content-Type"] = "application/json"
    sent.update(headers or {})
    sent.update(payment)
    answer = client.http.raw(method, url, sent, body)
    return PaidResponse(answer.status, answer.headers, answer.body, settlement=decode_settlement(answer.headers))
