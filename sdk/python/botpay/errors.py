"""Errors of the botpay API.

Every non-2xx answer raises an :class:`APIError` subclass chosen by the HTTP
status (one class per kind of failure), carrying the answer's ``error`` code,
``message`` and ``request_id``. Branch on ``exc.error`` with the constants
below, which equal the codes the service sends.
"""

from __future__ import annotations

import json
from typing import Any

# Codes of the error shape {"error", "message", ...}. The names are the
# service's own constant names in upper snake case; the values are exact.
VALIDATION = "validation_error"
INVALID_JSON = "invalid_json"
INVALID_PAIRING_CODE = "invalid_pairing_code"
DUPLICATE_REGISTRATION = "duplicate_registration"
RATE_LIMITED = "rate_limited"
WALLET_NOT_ACTIVE = "wallet_not_active"
WALLET_NOT_FOUND = "wallet_not_found"
WALLET_FROZEN = "wallet_frozen"
NOT_FOUND = "not_found"
INTERNAL = "internal_error"
AUTH_REQUIRED = "Authentication required"
UNAUTHORIZED = "unauthorized"
INVALID_CREDENTIALS = "invalid_credentials"
INVALID_CLAIM_TOKEN = "invalid_claim_token"
EMAIL_TAKEN = "email_taken"
IDEMPOTENCY_REUSED = "idempotency_key_reused"
IDEMPOTENCY_IN_USE = "idempotency_key_in_use"
METHOD_NOT_ALLOWED = "method_not_allowed"
PAYLOAD_TOO_LARGE = "payload_too_large"
ALREADY_CLAIMED = "already_claimed"
SERVICE_UNAVAILABLE = "service_unavailable"
INVALID_CURSOR = "invalid_cursor"

EMAIL_NOT_VERIFIED = "email_not_verified"
INVALID_LINK = "invalid_link"
LOGIN_THROTTLED = "login_throttled"

INVALID_SIGN_REQUEST = "Invalid request"
SIGN_AUTH_FAILED = "Invalid or missing API key"
GUARDRAIL_BLOCKED = "guardrail_blocked"
INSUFFICIENT_TOKENS = "insufficient_token_balance"
PAYMENT_IN_PROGRESS = "payment_in_progress"
NO_PROCESSOR_WALLET = "no_processor_wallet"
LINK_EXPIRED = "link_expired"
LINK_USED = "link_used"
KEY_SUPERSEDED = "key_superseded"
TUNNEL_NOT_IN_USE = "tunnel_not_in_use"
CROSS_ORIGIN = "cross_origin_request"
LIVE_MODE = "live_mode"
VENDOR_NOT_FOUND = "vendor_not_found"
DATABASE_UNREACHABLE = "database_unreachable"
PAYMENT_IDENTIFIER_REUSED = "payment_identifier_reused"

CHECKOUT_PAGE_NOT_FOUND = "checkout_page_not_found"
CHECKOUT_PAGE_EXPIRED = "checkout_page_expired"
MISSING_INVOICE_ID = "missing_invoice_id"
ONLY_DRAFTS_CAN_BE_SENT = "only_draft_invoices_can_be_sent"
SEND_FAILED = "send_failed"
PAYMENT_LINK_NOT_PENDING = "payment_link_not_pending"
INVOICE_NOT_PAYABLE = "invoice_not_payable"
INVOICE_ALREADY_PAID = "invoice_already_paid"
METHOD_NOT_ALLOWED_ON_PAGE = "method_not_allowed_on_page"
DUPLICATE_PAYMENT = "duplicate_payment"

CARD_ID_REQUIRED = "card_id_required"
INVALID_PROFILE = "invalid_profile"
INSUFFICIENT_FUNDS = "insufficient_funds"
CARD_NOT_ACTIVE = "card_not_active"
CARD_GUARDRAIL_VIOLATION = "card_guardrail_violation"
ALLOWANCE_EXCEEDED = "allowance_exceeded"
MASTER_BUDGET_EXCEEDED = "master_budget_exceeded"
CARD_NOT_FOUND = "card_not_found"
ALREADY_DECIDED = "already_decided"
EXPIRED = "expired"
TASK_COMPLETED = "task_already_completed"
INVALID_CARD_STATUS = "invalid_card_status"

APPROVAL_REQUIRED = "approval_required"
KEY_ALREADY_RELEASED = "key_already_released"
INVALID_CHECKOUT_STATE = "invalid_checkout_status"

REFUND_EXCEEDS_AMOUNT = "refund_exceeds_amount"
NOT_REFUNDABLE = "not_refundable"
REFUND_REFUSED = "refund_refused"
CHAIN_UNAVAILABLE = "chain_unavailable"


class BotpayError(Exception):
    """Base of every error this package raises."""


class APIError(BotpayError):
    """A non-2xx answer of the service.

    ``error`` is the code ("" when the body was not the service's JSON, a
    proxy's HTML page for example), ``message`` the explanation,
    ``request_id`` the id to quote when reporting a failure, ``details``
    the offending fields of a validation error, ``reason`` the refusal of a
    guardrail, ``retry_after_seconds`` the wait of a 429, ``body`` the whole
    decoded answer.
    """

    status: int = 0

    def __init__(self, status: int, error: str, message: str, request_id: str = "",
                 details: dict[str, Any] | None = None, reason: str = "",
                 retry_after_seconds: int = 0, body: Any = None) -> None:
        self.status = status
        self.error = error
        self.message = message
        self.request_id = request_id
        self.details = details or {}
        self.reason = reason
        self.retry_after_seconds = retry_after_seconds
        self.body = body
        super().__init__(str(self))

    def __str__(self) -> str:
        text = f"botpay: HTTP {self.status}"
        if self.error:
            text += f" {self.error}"
        if self.message:
            text += f": {self.message}"
        if self.details:
            text += f" {self.details}"
        if self.reason and self.reason != self.message:
            text += f" ({self.reason})"
        if self.request_id:
            text += f" (request {self.request_id})"
        return text


class BadRequestError(APIError):
    """400: the request itself is wrong (validation_error, invalid_json, ...)."""
    status = 400


class AuthenticationError(APIError):
    """401: no or bad credentials."""
    status = 401


class PaymentRequiredError(APIError):
    """402: not enough money."""
    status = 402


class PermissionDeniedError(APIError):
    """403: understood but not allowed (wallet_not_active, guardrail_blocked, ...)."""
    status = 403


class NotFoundError(APIError):
    """404: no such record for this caller."""
    status = 404


class MethodNotAllowedError(APIError):
    """405: wrong HTTP method for the route."""
    status = 405


class ConflictError(APIError):
    """409: clashes with the current state (already_decided, idempotency_key_reused, ...)."""
    status = 409


class GoneError(APIError):
    """410: existed, no longer actionable (expired, link_expired, ...)."""
    status = 410


class PayloadTooLargeError(APIError):
    """413: the request body is too large."""
    status = 413


class RateLimitedError(APIError):
    """429: too many requests; wait ``retry_after_seconds``."""
    status = 429


class InternalServerError(APIError):
    """500: an unexpected failure of the service; quote ``request_id``."""
    status = 500


class ServiceUnavailableError(APIError):
    """503: a dependency of the service (its database) cannot be reached."""
    status = 503


_CLASS_OF_STATUS: dict[int, type[APIError]] = {
    cls.status: cls for cls in (
        BadRequestError, AuthenticationError, PaymentRequiredError, PermissionDeniedError,
        NotFoundError, MethodNotAllowedError, ConflictError, GoneError, PayloadTooLargeError,
        RateLimitedError, InternalServerError, ServiceUnavailableError)
}


class ConnectionFailedError(BotpayError):
    """The service could not be reached (after the retries)."""


class AwaitingApprovalError(BotpayError):
    """An x402 payment is held for the owner; ``signed`` carries ``approval_id``.

    The signed header arrives later with the purchase.approved event.
    """

    def __init__(self, signed: dict[str, Any], requirement: dict[str, Any] | None = None) -> None:
        self.signed = signed
        self.requirement = requirement
        super().__init__(f"botpay: the payment awaits the owner's approval (approval {signed.get('approval_id')})")


class X402Error(BotpayError):
    """An x402 resource asked for something this package cannot pay.

    Raised when the 402 answer cannot be read, offers no "exact" payment, or
    asks more than the caller allows (``over_limit`` is then true).
    """

    def __init__(self, message: str, *, over_limit: bool = False) -> None:
        self.over_limit = over_limit
        super().__init__(message)


def error_from_answer(status: int, headers: dict[str, str], body: bytes) -> APIError:
    """Builds the APIError of a non-2xx answer; never fails on a strange body."""
    request_id = headers.get("x-request-id", "")
    wire: Any = None
    try:
        wire = json.loads(body.decode("utf-8"))
    except (ValueError, UnicodeDecodeError):
        wire = None
    cls = _CLASS_OF_STATUS.get(status)
    if cls is None:
        cls = InternalServerError if status >= 500 else APIError
    retry_after = 0
    if not isinstance(wire, dict) or not isinstance(wire.get("error"), str) or not wire["error"]:
        text = body.decode("utf-8", "replace").strip()[:200]
        error = cls(status, "", text or f"HTTP {status}", request_id, body=wire)
    else:
        details = wire.get("details") if isinstance(wire.get("details"), dict) else None
        raw_retry = wire.get("retry_after_seconds")
        retry_after = raw_retry if isinstance(raw_retry, int) else 0
        error = cls(status, wire["error"], str(wire.get("message", "")),
                    str(wire.get("request_id") or request_id), details, str(wire.get("reason") or ""),
                    retry_after, wire)
    if not error.retry_after_seconds:
        header = headers.get("retry-after", "")
        if header.isdigit():
            error.retry_after_seconds = int(header)
    error.status = status
    return error
