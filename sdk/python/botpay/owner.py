"""The owner API: an OwnerClient per owner session (Bearer session token)."""

from __future__ import annotations

from typing import Any, Iterator

from ._transport import HTTP, DEFAULT_USER_AGENT, Transport, decode_json, quote
from .pages import Page, iterate, next_cursor_of_link, page_of


def _bot_path(bot_id: str, rest: str) -> str:
    return f"/api/v1/owner/bots/{quote(bot_id)}{rest}"


def _writable(document: dict[str, Any]) -> dict[str, Any]:
    # What was read can be sent back: the service sets updated_at itself.
    return {name: value for name, value in document.items() if name != "updated_at"}


class OwnerClient:
    """Calls the owner API with a session token (from :meth:`signup` or
    :meth:`login`; see :meth:`with_token`). Call options as for Client:
    ``idempotency_key=`` on POSTs, ``request_id=`` everywhere."""

    def __init__(self, base_url: str, token: str | None = None, *, timeout: float = 30.0,
                 max_retries: int = 2, user_agent: str = DEFAULT_USER_AGENT,
                 transport: Transport | None = None, http: HTTP | None = None) -> None:
        self.http = http or HTTP(base_url, timeout=timeout, max_retries=max_retries,
                                 user_agent=user_agent, transport=transport)
        self.token = token

    @property
    def base_url(self) -> str:
        return self.http.base_url

    def with_token(self, token: str) -> "OwnerClient":
        return OwnerClient(self.base_url, token, http=self.http)

    def _call(self, method: str, path: str, body: Any = None, query: dict[str, Any] | None = None,
              idempotency_key: str | None = None, request_id: str | None = None) -> Any:
        return self.http.json(method, path, token=self.token, body=body, query=query,
                              idempotency_key=idempotency_key, request_id=request_id)

    def _page(self, path: str, field: str, limit: int | None, cursor: str | None,
              request_id: str | None) -> Page[dict[str, Any]]:
        return page_of(self._call("GET", path, query={"limit": limit, "cursor": cursor}, request_id=request_id), field)

    # Session.

    def signup(self, email: str, password: str, *, idempotency_key: str | None = None,
               request_id: str | None = None) -> dict[str, Any]:
        """Creates an owner account; the answer's token opens a session."""
        return self._call("POST", "/api/v1/owner/signup", {"email": email, "password": password},
                          idempotency_key=idempotency_key, request_id=request_id)

    def login(self, email: str, password: str, *, idempotency_key: str | None = None,
              request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/api/v1/owner/login", {"email": email, "password": password},
                          idempotency_key=idempotency_key, request_id=request_id)

    def logout(self, *, request_id: str | None = None) -> None:
        self._call("POST", "/api/v1/owner/logout", request_id=request_id)

    def request_password_reset(self, email: str, *, idempotency_key: str | None = None,
                               request_id: str | None = None) -> dict[str, Any]:
        """E-mails a single-use reset link (the same answer whether or not the account exists)."""
        return self._call("POST", "/api/v1/owner/password-reset", {"email": email},
                          idempotency_key=idempotency_key, request_id=request_id)

    def confirm_password_reset(self, token: str, password: str, *, idempotency_key: str | None = None,
                               request_id: str | None = None) -> dict[str, Any]:
        """Sets a new password with a reset link's token; every session and token ends."""
        return self._call("POST", "/api/v1/owner/password-reset/confirm", {"token": token, "password": password},
                          idempotency_key=idempotency_key, request_id=request_id)

    def resend_email_verification(self, *, idempotency_key: str | None = None,
                                  request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/api/v1/owner/email-verification", idempotency_key=idempotency_key, request_id=request_id)

    def sessions(self, *, request_id: str | None = None) -> list[dict[str, Any]]:
        """The owner's live dashboard sessions and API tokens."""
        return self._call("GET", "/api/v1/owner/sessions", request_id=request_id)["sessions"]

    def revoke_session(self, session_id: str, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("DELETE", f"/api/v1/owner/sessions/{quote(session_id)}", request_id=request_id)

    # Bots.

    def create_pairing_code(self, *, idempotency_key: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/api/v1/owner/pairing-codes", idempotency_key=idempotency_key, request_id=request_id)

    def claim(self, claim_token: str, *, idempotency_key: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/api/v1/owner/bots/claim", {"claim_token": claim_token},
                          idempotency_key=idempotency_key, request_id=request_id)

    def bots_mine(self, *, limit: int | None = None, cursor: str | None = None,
                  request_id: str | None = None) -> Page[dict[str, Any]]:
        """One page of the owner's bots, oldest first. The answer is a bare
        array; the next page is named in its Link header."""
        answer = self.http.request("GET", "/api/v1/bots/mine", token=self.token,
                                   query={"limit": limit, "cursor": cursor}, request_id=request_id)
        items = decode_json(answer.body) or []
        next_cursor = next_cursor_of_link(answer.headers.get("link", ""))
        return Page(items, next_cursor is not None, next_cursor, items)

    def all_bots_mine(self) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.bots_mine(limit=limit, cursor=cursor))

    def fund(self, bot_id: str, amount_usd: Any, rail: str | None = None, *, idempotency_key: str | None = None,
             request_id: str | None = None) -> dict[str, Any]:
        """Adds money to a bot's wallet (sandbox), or to its processor wallet with rail="processor_wallet"."""
        body: dict[str, Any] = {"amount_usd": amount_usd}
        if rail:
            body["rail"] = rail
        return self._call("POST", _bot_path(bot_id, "/fund"), body, idempotency_key=idempotency_key, request_id=request_id)

    def freeze(self, bot_id: str, frozen: bool = True, *, idempotency_key: str | None = None,
               request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", _bot_path(bot_id, "/freeze"), {"frozen": frozen},
                          idempotency_key=idempotency_key, request_id=request_id)

    def guardrails(self, bot_id: str, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("GET", _bot_path(bot_id, "/guardrails"), request_id=request_id)

    def set_guardrails(self, bot_id: str, guardrails: dict[str, Any], *, request_id: str | None = None) -> dict[str, Any]:
        """Replaces a bot's guardrails: {"approval_mode", "limits": {...},
        "recurring_allowed", "notes", "approved_categories", "blocked_categories"}."""
        return self._call("PUT", _bot_path(bot_id, "/guardrails"), _writable(guardrails), request_id=request_id)

    def master_guardrails(self, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("GET", "/api/v1/owner/master-guardrails", request_id=request_id)

    def set_master_guardrails(self, guardrails: dict[str, Any], *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("PUT", "/api/v1/owner/master-guardrails", _writable(guardrails), request_id=request_id)

    def set_callback_url(self, bot_id: str, callback_url: str, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("PUT", _bot_path(bot_id, "/callback-url"), {"callback_url": callback_url}, request_id=request_id)

    def rotate_bot_api_key(self, bot_id: str, grace_seconds: int = 0, *, idempotency_key: str | None = None,
                           request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", _bot_path(bot_id, "/api-key/rotate"), {"grace_seconds": grace_seconds},
                          idempotency_key=idempotency_key, request_id=request_id)

    # Cards, tasks, approvals, procurement.

    def create_card(self, bot_id: str, card: dict[str, Any], *, idempotency_key: str | None = None,
                    request_id: str | None = None) -> dict[str, Any]:
        """Adds a card: {"card_name", "missing_digits", "expiry_month",
        "expiry_year", "real_profile_index", "profiles": [...], "limits"}."""
        return self._call("POST", _bot_path(bot_id, "/cards"), card, idempotency_key=idempotency_key, request_id=request_id)

    def cards(self, bot_id: str, *, limit: int | None = None, cursor: str | None = None,
              request_id: str | None = None) -> Page[dict[str, Any]]:
        return self._page(_bot_path(bot_id, "/cards"), "cards", limit, cursor, request_id)

    def all_cards(self, bot_id: str) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.cards(bot_id, limit=limit, cursor=cursor))

    def set_card_status(self, bot_id: str, card_id: str, status: str, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("PATCH", _bot_path(bot_id, f"/cards/{quote(card_id)}"), {"status": status}, request_id=request_id)

    def create_rail5_card(self, bot_id: str, card: dict[str, Any], *, idempotency_key: str | None = None,
                          request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", _bot_path(bot_id, "/rail5-cards"), card, idempotency_key=idempotency_key, request_id=request_id)

    def create_task(self, bot_id: str, task: dict[str, Any], *, idempotency_key: str | None = None,
                    request_id: str | None = None) -> dict[str, Any]:
        """Gives a bot a purchase task: {"merchant_name", "merchant_url",
        "item_name", "amount_cents", "category", "profile_index"}."""
        return self._call("POST", _bot_path(bot_id, "/tasks"), task, idempotency_key=idempotency_key, request_id=request_id)

    def approvals(self, *, limit: int | None = None, cursor: str | None = None,
                  request_id: str | None = None) -> Page[dict[str, Any]]:
        """One page of what awaits the owner: held purchases and held signing requests."""
        return self._page("/api/v1/owner/approvals", "approvals", limit, cursor, request_id)

    def all_approvals(self) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.approvals(limit=limit, cursor=cursor))

    def approve_purchase(self, confirmation_id: str, *, idempotency_key: str | None = None,
                         request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", f"/api/v1/owner/purchases/{quote(confirmation_id)}/approve",
                          idempotency_key=idempotency_key, request_id=request_id)

    def deny_purchase(self, confirmation_id: str, *, idempotency_key: str | None = None,
                      request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", f"/api/v1/owner/purchases/{quote(confirmation_id)}/deny",
                          idempotency_key=idempotency_key, request_id=request_id)

    def refund_purchase(self, confirmation_id: str, reason: str, amount_usd: Any = None, *,
                        idempotency_key: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        body: dict[str, Any] = {"reason": reason}
        if amount_usd is not None:
            body["amount_usd"] = amount_usd
        return self._call("POST", f"/api/v1/owner/purchases/{quote(confirmation_id)}/refund", body,
                          idempotency_key=idempotency_key, request_id=request_id)

    def procurement(self, bot_id: str, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("GET", _bot_path(bot_id, "/procurement"), request_id=request_id)

    def set_procurement(self, bot_id: str, procurement: dict[str, Any], *, request_id: str | None = None) -> dict[str, Any]:
        """Replaces the allow and block lists (allowed_domains, blocked_domains,
        allowed_merchants, blocked_merchants, allowed_recipients, blocked_recipients);
        a missing list is empty."""
        body = {name: list(procurement.get(name) or []) for name in (
            "allowed_domains", "blocked_domains", "allowed_merchants", "blocked_merchants",
            "allowed_recipients", "blocked_recipients")}
        return self._call("PUT", _bot_path(bot_id, "/procurement"), body, request_id=request_id)

    def cancel_invoice(self, invoice_id: str, *, idempotency_key: str | None = None,
                       request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", f"/api/v1/owner/invoices/{quote(invoice_id)}/cancel",
                          idempotency_key=idempotency_key, request_id=request_id)

    # The processor wallet and held signatures.

    def create_processor_wallet(self, bot_id: str, *, idempotency_key: str | None = None,
                                request_id: str | None = None) -> str:
        """Gives a bot its processor wallet; returns its address (the existing one, if any)."""
        answer = self._call("POST", _bot_path(bot_id, "/processor-wallet"),
                            idempotency_key=idempotency_key, request_id=request_id)
        return answer["address"]

    def signing_requests(self, *, limit: int | None = None, cursor: str | None = None,
                         request_id: str | None = None) -> Page[dict[str, Any]]:
        return self._page("/api/v1/owner/signing-requests", "approvals", limit, cursor, request_id)

    def all_signing_requests(self) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.signing_requests(limit=limit, cursor=cursor))

    def approve_signing(self, approval_id: int, *, idempotency_key: str | None = None,
                        request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", f"/api/v1/owner/signing-requests/{int(approval_id)}/approve",
                          idempotency_key=idempotency_key, request_id=request_id)

    def deny_signing(self, approval_id: int, *, idempotency_key: str | None = None,
                     request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", f"/api/v1/owner/signing-requests/{int(approval_id)}/deny",
                          idempotency_key=idempotency_key, request_id=request_id)
