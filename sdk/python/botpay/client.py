"""The bot API: one Client per bot, authenticated with its API key."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Iterator, Sequence

from ._transport import HTTP, DEFAULT_USER_AGENT, Transport, decode_json, quote
from .pages import Page, iterate, page_of
from . import x402 as _x402


@dataclass
class SkillFile:
    """A vendor's skill file (Markdown) and its version headers."""

    markdown: str
    version: str
    maturity: str
    etag: str


def _body(required: dict[str, Any], optional: dict[str, Any]) -> dict[str, Any]:
    body = dict(required)
    body.update({name: value for name, value in optional.items() if value is not None})
    return body


class Client:
    """Calls the bot API of the service at ``base_url`` with ``api_key``.

    ``api_key`` may be None for a client that only registers (see
    :meth:`with_api_key`). Every POST carries an Idempotency-Key, kept across
    the automatic retries of that call; pass ``idempotency_key=`` to reuse
    one across calls (a retry of the same logical operation after a crash).
    ``request_id=`` sends X-Request-Id so logs on both sides share it.
    """

    def __init__(self, base_url: str, api_key: str | None = None, *, timeout: float = 30.0,
                 max_retries: int = 2, user_agent: str = DEFAULT_USER_AGENT,
                 transport: Transport | None = None, http: HTTP | None = None) -> None:
        self.http = http or HTTP(base_url, timeout=timeout, max_retries=max_retries,
                                 user_agent=user_agent, transport=transport)
        self.api_key = api_key

    @property
    def base_url(self) -> str:
        return self.http.base_url

    def with_api_key(self, api_key: str) -> "Client":
        """A client with the same settings that authenticates with api_key."""
        return Client(self.base_url, api_key, http=self.http)

    def _call(self, method: str, path: str, body: Any = None, query: dict[str, Any] | None = None,
              idempotency_key: str | None = None, request_id: str | None = None) -> Any:
        return self.http.json(method, path, token=self.api_key, body=body, query=query,
                              idempotency_key=idempotency_key, request_id=request_id)

    def _page(self, path: str, field: str, query: dict[str, Any], limit: int | None,
              cursor: str | None, request_id: str | None) -> Page[dict[str, Any]]:
        query = dict(query, limit=limit, cursor=cursor)
        return page_of(self._call("GET", path, query=query, request_id=request_id), field)

    # Registration and profile.

    def register(self, bot_name: str, owner_email: str, *, idempotency_key: str | None = None,
                 request_id: str | None = None, **fields: Any) -> dict[str, Any]:
        """Registers a bot (201). The answer's api_key and webhook_secret are
        shown once: store them. Optional fields: description, callback_url,
        pairing_code, bot_type, local_port, webhook_path."""
        return self._call("POST", "/api/v1/bots/register", _body({"bot_name": bot_name, "owner_email": owner_email}, fields),
                          idempotency_key=idempotency_key, request_id=request_id)

    def status(self, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("GET", "/api/v1/bot/status", request_id=request_id)

    def update_profile(self, callback_url: str, *, request_id: str | None = None) -> dict[str, Any]:
        """Points the bot's webhook at callback_url; its health goes back to
        active with no failures and the webhook secret stays the same."""
        return self._call("PATCH", "/api/v1/bot/profile", {"callback_url": callback_url}, request_id=request_id)

    def rotate_api_key(self, grace_seconds: int = 0, *, idempotency_key: str | None = None,
                       request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/api/v1/bot/api-key/rotate", {"grace_seconds": grace_seconds},
                          idempotency_key=idempotency_key, request_id=request_id)

    # Wallet.

    def wallet_check(self, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("GET", "/api/v1/bot/wallet/check", request_id=request_id)

    def spending(self, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("GET", "/api/v1/bot/wallet/spending", request_id=request_id)

    def transactions(self, *, limit: int | None = None, cursor: str | None = None,
                     request_id: str | None = None) -> Page[dict[str, Any]]:
        """One page of the ledger, newest first."""
        return self._page("/api/v1/bot/wallet/transactions", "transactions", {}, limit, cursor, request_id)

    def all_transactions(self) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.transactions(limit=limit, cursor=cursor))

    def topup_request(self, amount_usd: Any, reason: str | None = None, *, idempotency_key: str | None = None,
                      request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/api/v1/bot/wallet/topup-request", _body({"amount_usd": amount_usd}, {"reason": reason}),
                          idempotency_key=idempotency_key, request_id=request_id)

    # Spending.

    def checkout(self, profile_index: int, merchant_name: str, merchant_url: str, item_name: str, amount_cents: int,
                 *, idempotency_key: str | None = None, request_id: str | None = None, **fields: Any) -> dict[str, Any]:
        """Buys with a card: approved at once (200) or held for the owner
        (202 pending_confirmation). Optional fields: category, task_id, card_id."""
        body = _body({"profile_index": profile_index, "merchant_name": merchant_name, "merchant_url": merchant_url,
                      "item_name": item_name, "amount_cents": amount_cents}, fields)
        return self._call("POST", "/api/v1/bot/merchant/checkout", body, idempotency_key=idempotency_key, request_id=request_id)

    def checkout_status(self, confirmation_id: str, *, request_id: str | None = None) -> dict[str, Any]:
        return self._call("GET", "/api/v1/bot/merchant/checkout/status", query={"confirmation_id": confirmation_id},
                          request_id=request_id)

    def next_task(self, *, idempotency_key: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/api/v1/bot/tasks/next", idempotency_key=idempotency_key, request_id=request_id)

    def confirm_rail5_delivery(self, card_id: str | None = None, *, idempotency_key: str | None = None,
                               request_id: str | None = None) -> dict[str, Any]:
        body = {"card_id": card_id} if card_id else None
        return self._call("POST", "/api/v1/bot/rail5/confirm-delivery", body, idempotency_key=idempotency_key, request_id=request_id)

    def rail5_checkout(self, merchant_name: str, merchant_url: str, item_name: str, amount_cents: int, *,
                       idempotency_key: str | None = None, request_id: str | None = None, **fields: Any) -> dict[str, Any]:
        body = _body({"merchant_name": merchant_name, "merchant_url": merchant_url, "item_name": item_name,
                      "amount_cents": amount_cents}, fields)
        return self._call("POST", "/api/v1/bot/rail5/checkout", body, idempotency_key=idempotency_key, request_id=request_id)

    def rail5_key(self, checkout_id: str, *, idempotency_key: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/api/v1/bot/rail5/key", {"checkout_id": checkout_id},
                          idempotency_key=idempotency_key, request_id=request_id)

    def rail5_complete(self, checkout_id: str, success: bool, reason: str | None = None, *,
                       idempotency_key: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        body = _body({"checkout_id": checkout_id, "success": success}, {"reason": reason})
        return self._call("POST", "/api/v1/bot/rail5/complete", body, idempotency_key=idempotency_key, request_id=request_id)

    # Earning.

    def create_checkout_page(self, title: str, *, idempotency_key: str | None = None, request_id: str | None = None,
                             **fields: Any) -> dict[str, Any]:
        """Creates a hosted checkout page. Optional fields: description,
        amount_usd, amount_locked, allowed_methods, success_url, contact_email,
        refund_policy, expires_at,
        page_type, digital_product_url, image_url, collect_buyer_name."""
        return self._call("POST", "/api/v1/bot/checkout-pages/create", _body({"title": title}, fields),
                          idempotency_key=idempotency_key, request_id=request_id)

    def checkout_pages(self, *, limit: int | None = None, cursor: str | None = None,
                       request_id: str | None = None) -> Page[dict[str, Any]]:
        return self._page("/api/v1/bot/checkout-pages", "checkout_pages", {}, limit, cursor, request_id)

    def all_checkout_pages(self) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.checkout_pages(limit=limit, cursor=cursor))

    def create_payment_link(self, amount_usd: Any, description: str, payer_email: str | None = None, *,
                            idempotency_key: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        body = _body({"amount_usd": amount_usd, "description": description}, {"payer_email": payer_email})
        return self._call("POST", "/api/v1/bot/payments/create-link", body, idempotency_key=idempotency_key, request_id=request_id)

    def payment_links(self, *, status: str | None = None, limit: int | None = None, cursor: str | None = None,
                      request_id: str | None = None) -> Page[dict[str, Any]]:
        return self._page("/api/v1/bot/payments/links", "payment_links", {"status": status}, limit, cursor, request_id)

    def all_payment_links(self, *, status: str | None = None) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.payment_links(status=status, limit=limit, cursor=cursor))

    def create_invoice(self, checkout_page_id: str, line_items: Sequence[dict[str, Any]], *,
                       idempotency_key: str | None = None, request_id: str | None = None, **fields: Any) -> dict[str, Any]:
        """Creates a draft invoice. line_items: [{"description", "quantity",
        "unit_price_usd"}]. Optional fields: recipient_name, recipient_email,
        recipient_type, tax_usd, due_date, notes."""
        body = _body({"checkout_page_id": checkout_page_id, "line_items": list(line_items)}, fields)
        return self._call("POST", "/api/v1/bot/invoices/create", body, idempotency_key=idempotency_key, request_id=request_id)

    def invoices(self, *, status: str | None = None, checkout_page_id: str | None = None, limit: int | None = None,
                 cursor: str | None = None, request_id: str | None = None) -> Page[dict[str, Any]]:
        query = {"status": status, "checkout_page_id": checkout_page_id}
        return self._page("/api/v1/bot/invoices", "invoices", query, limit, cursor, request_id)

    def all_invoices(self, *, status: str | None = None, checkout_page_id: str | None = None) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.invoices(status=status, checkout_page_id=checkout_page_id,
                                                           limit=limit, cursor=cursor))

    def send_invoice(self, invoice_id: str, *, idempotency_key: str | None = None,
                     request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", f"/api/v1/bot/invoices/{quote(invoice_id)}/send",
                          idempotency_key=idempotency_key, request_id=request_id)

    def sales(self, *, checkout_page_id: str | None = None, status: str | None = None, payment_method: str | None = None,
              limit: int | None = None, cursor: str | None = None, request_id: str | None = None) -> Page[dict[str, Any]]:
        query = {"checkout_page_id": checkout_page_id, "status": status, "payment_method": payment_method}
        return self._page("/api/v1/bot/sales", "sales", query, limit, cursor, request_id)

    def all_sales(self, *, checkout_page_id: str | None = None, status: str | None = None,
                  payment_method: str | None = None) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.sales(checkout_page_id=checkout_page_id, status=status,
                                                        payment_method=payment_method, limit=limit, cursor=cursor))

    def refund_sale(self, sale_id: str, reason: str, amount_usd: Any = None, *, idempotency_key: str | None = None,
                    request_id: str | None = None) -> dict[str, Any]:
        """Refunds a sale, whole or (with amount_usd) in part."""
        body = _body({"reason": reason}, {"amount_usd": amount_usd})
        return self._call("POST", f"/api/v1/bot/sales/{quote(sale_id)}/refund", body,
                          idempotency_key=idempotency_key, request_id=request_id)

    def pay_checkout_sandbox(self, checkout_page_id: str, buyer_email: str, *, idempotency_key: str | None = None,
                             request_id: str | None = None, **fields: Any) -> dict[str, Any]:
        """Pays a checkout page as a buyer would, in sandbox mode (no credential)."""
        return self._call("POST", f"/api/v1/checkout/{quote(checkout_page_id)}/pay/sandbox",
                          _body({"buyer_email": buyer_email}, fields), idempotency_key=idempotency_key, request_id=request_id)

    def pay_link_sandbox(self, payment_link_id: str, buyer_email: str, *, idempotency_key: str | None = None,
                         request_id: str | None = None, **fields: Any) -> dict[str, Any]:
        return self._call("POST", f"/api/v1/payment-links/{quote(payment_link_id)}/pay/sandbox",
                          _body({"buyer_email": buyer_email}, fields), idempotency_key=idempotency_key, request_id=request_id)

    # Messages (the polled alternative to webhooks).

    def messages(self, *, limit: int | None = None, cursor: str | None = None,
                 request_id: str | None = None) -> Page[dict[str, Any]]:
        """One page of staged, unacknowledged messages, oldest first."""
        return self._page("/api/v1/bot/messages", "messages", {}, limit, cursor, request_id)

    def all_messages(self) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.messages(limit=limit, cursor=cursor))

    def ack(self, message_ids: Sequence[int], *, idempotency_key: str | None = None,
            request_id: str | None = None) -> dict[str, Any]:
        return self._call("POST", "/api/v1/bot/messages/ack", {"message_ids": list(message_ids)},
                          idempotency_key=idempotency_key, request_id=request_id)

    # The vendor catalogue.

    def skills(self, *, search: str | None = None, category: str | None = None, checkout: Sequence[str] = (),
               capability: Sequence[str] = (), maturity: Sequence[str] = (), limit: int | None = None,
               cursor: str | None = None, request_id: str | None = None) -> Page[dict[str, Any]]:
        """One page of vendors; ``page.raw["total"]`` counts every match."""
        query = {"search": search, "category": category, "checkout": list(checkout),
                 "capability": list(capability), "maturity": list(maturity)}
        return self._page("/api/v1/bot/skills", "vendors", query, limit, cursor, request_id)

    def all_skills(self, **filters: Any) -> Iterator[dict[str, Any]]:
        return iterate(lambda limit, cursor: self.skills(limit=limit, cursor=cursor, **filters))

    def skill_file(self, vendor: str, *, etag: str | None = None, request_id: str | None = None) -> SkillFile | None:
        """A vendor's skill file; None when ``etag`` still matches (304)."""
        answer = self.http.request("GET", f"/api/v1/bot/skills/{quote(vendor)}", token=self.api_key,
                                   accept="text/markdown, application/json", request_id=request_id,
                                   extra_headers={"If-None-Match": etag} if etag else None)
        if answer.status == 304:
            return None
        return SkillFile(answer.body.decode("utf-8"), answer.headers.get("x-skill-version", ""),
                         answer.headers.get("x-skill-maturity", ""), answer.headers.get("etag", ""))

    # x402: paying other services with the processor wallet.

    def sign(self, resource_url: str, amount_usdc: int, recipient_address: str, *,
             valid_before: int | None = None, payment_required: Any = None,
             idempotency_key: str | None = None, request_id: str | None = None) -> dict[str, Any]:
        """Asks the service to sign a USDC authorization (micro-USDC).

        ``payment_required`` is the vendor's 402 as it came: the
        PAYMENT-REQUIRED header value (str, x402 v2) or the v1 JSON body
        (dict); the answer then adds payment_signature_header (v2) or
        x_payment_standard_header (v1). A held request answers
        {"status": "awaiting_approval", "approval_id", ...}.
        """
        body = _body({"resource_url": resource_url, "amount_usdc": amount_usdc, "recipient_address": recipient_address},
                     {"valid_before": valid_before, "payment_required": payment_required})
        return self._call("POST", "/api/v1/processor-wallet/bot/sign", body,
                          idempotency_key=idempotency_key, request_id=request_id)

    def pay_x402(self, url: str, *, max_usdc: int, method: str | None = None, body: bytes | None = None,
                 headers: dict[str, str] | None = None, version: int | None = None) -> "_x402.PaidResponse":
        """Fetches an x402 resource, paying it (v2 or v1) through the sign
        endpoint when it answers 402; see botpay.x402.pay."""
        return _x402.pay(self, url, max_usdc=max_usdc, method=method, body=body, headers=headers, version=version)


def decode(data: bytes) -> Any:
    """Decodes a JSON answer as the clients do (amounts as Decimal)."""
    return decode_json(data)
