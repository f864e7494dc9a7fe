"""Tests against a running botpay service.

They run when BOTPAY_URL names one (the Go test internal/sdktest starts the
service on each engine and sets it), with BOTPAY_API_KEY, BOTPAY_BOT_ID and
BOTPAY_OWNER_TOKEN of a claimed bot whose wallet and processor wallet are
funded; otherwise they skip.
"""

import http.server
import os
import queue
import secrets
import threading
import unittest
from decimal import Decimal

import botpay
from botpay import errors, webhook

URL = os.environ.get("BOTPAY_URL", "")


def unique(name):
    return f"{name}-{secrets.token_hex(6)}"


@unittest.skipUnless(URL, "set BOTPAY_URL (and the keys) to run against a service; internal/sdktest does")
class ServiceTest(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.bot = botpay.Client(URL, os.environ["BOTPAY_API_KEY"])
        cls.bot_id = os.environ["BOTPAY_BOT_ID"]
        cls.owner = botpay.OwnerClient(URL, os.environ["BOTPAY_OWNER_TOKEN"])

    def claimed_bot(self, name, **registration):
        """Registers a bot and claims it for a new owner, with the SDK only."""
        anonymous = botpay.Client(URL)
        reg = anonymous.register(name, unique(name) + "@example.com", **registration)
        session = botpay.OwnerClient(URL).signup(unique(name + "-owner") + "@example.com", "correct horse battery staple")
        owner = botpay.OwnerClient(URL, session["token"])
        owner.claim(reg["claim_token"])
        return anonymous.with_api_key(reg["api_key"]), owner, reg

    def test_the_funded_bot_reads_its_status_and_wallet(self):
        status = self.bot.status()
        self.assertEqual((status["bot_id"], status["status"]), (self.bot_id, "active"))
        wallet = self.bot.wallet_check()
        self.assertIsInstance(wallet["balance_usd"], (Decimal, int))
        self.assertGreater(wallet["balance_usd"], 0)
        self.assertTrue(list(self.bot.all_transactions()))
        self.assertIn("limits", self.bot.spending())

    def test_an_owner_claims_funds_guards_and_freezes_a_bot(self):
        bot, owner, reg = self.claimed_bot("py-owner")
        funded = owner.fund(reg["bot_id"], Decimal("20.50"))
        self.assertEqual(bot.wallet_check()["balance_usd"], Decimal("20.5"), funded)
        rails = owner.guardrails(reg["bot_id"])
        rails["limits"]["per_transaction_usd"] = Decimal("7.25")
        self.assertEqual(owner.set_guardrails(reg["bot_id"], rails)["limits"]["per_transaction_usd"], Decimal("7.25"))
        self.assertIn(reg["bot_id"], [b["bot_id"] for b in owner.all_bots_mine()])
        owner.freeze(reg["bot_id"], True)
        with self.assertRaises(botpay.PermissionDeniedError) as caught:
            bot.checkout(1, "Acme", "https://acme.example", "Paper", 100)
        self.assertEqual(caught.exception.error, errors.WALLET_FROZEN)
        owner.freeze(reg["bot_id"], False)
        self.assertEqual(owner.procurement(reg["bot_id"])["allowed_domains"], [])
        address = owner.create_processor_wallet(reg["bot_id"])
        self.assertTrue(address.startswith("0x"))
        sessions = owner.sessions()
        self.assertEqual([s["current"] for s in sessions], [True])
        self.assertTrue(owner.revoke_session(sessions[0]["id"])["revoked"])
        with self.assertRaises(botpay.AuthenticationError):
            owner.master_guardrails()

    def test_the_other_calls_reach_their_routes(self):
        bot, owner, reg = self.claimed_bot("py-calls")
        bot_id = reg["bot_id"]
        owner.fund(bot_id, 30)
        self.assertTrue(owner.create_pairing_code()["pairing_code"])
        self.assertEqual(owner.set_master_guardrails(owner.master_guardrails())["per_transaction_usd"],
                         owner.master_guardrails()["per_transaction_usd"])
        task = owner.create_task(bot_id, {"merchant_name": "Acme", "merchant_url": "https://acme.example",
                                          "item_name": "Paper", "amount_cents": 500})
        self.assertEqual(bot.next_task()["task_id"], task["task_id"])
        self.assertTrue(bot.topup_request(Decimal("5"), "more paper")["topup_request_id"])
        page = bot.create_checkout_page("Consulting", amount_usd=Decimal("40"))
        invoice = bot.create_invoice(page["checkout_page_id"], [{"description": "hours", "quantity": 2, "unit_price_usd": 20}],
                                     recipient_email="ap@example.com")
        self.assertEqual(bot.send_invoice(invoice["invoice_id"])["invoice_id"], invoice["invoice_id"])
        self.assertEqual([i["invoice_id"] for i in bot.all_invoices(checkout_page_id=page["checkout_page_id"])],
                         [invoice["invoice_id"]])
        self.assertEqual(owner.cancel_invoice(invoice["invoice_id"])["status"], "cancelled")
        messages = list(bot.all_messages())
        self.assertTrue(messages, "a bot without a callback URL gets its events as messages")
        acked = bot.ack([m["message_id"] for m in messages])
        self.assertEqual(sorted(acked["acknowledged"]), sorted(m["message_id"] for m in messages))
        self.assertEqual(list(bot.all_messages()), [])
        for listing in (owner.all_approvals(), owner.all_signing_requests(), owner.all_cards(bot_id),
                        bot.all_checkout_pages(), bot.all_skills(search="zz-none")):
            self.assertIsInstance(list(listing), list)
        rotated = bot.rotate_api_key(0)
        self.assertEqual(bot.with_api_key(rotated["api_key"]).status()["bot_id"], bot_id)

    def test_spending_calls_hold_approve_deny_and_refund(self):
        bot, owner, reg = self.claimed_bot("py-spend")
        bot_id = reg["bot_id"]
        owner.fund(bot_id, 100)
        profiles = [{"profile_index": 1, "allowance_duration": "month", "allowance_usd": 500}]
        card = owner.create_card(bot_id, {"card_name": "Team card", "missing_digits": "4242", "expiry_month": "12",
                                          "expiry_year": "2031", "real_profile_index": 1, "profiles": profiles})
        self.assertEqual([c["card_id"] for c in owner.all_cards(bot_id)], [card["card_id"]])
        self.assertEqual(owner.set_card_status(bot_id, card["card_id"], "inactive")["status"], "inactive")
        owner.set_card_status(bot_id, card["card_id"], "active")
        owner.set_procurement(bot_id, {"blocked_domains": ["blocked.example"]})
        self.assertEqual(owner.procurement(bot_id)["blocked_domains"], ["blocked.example"])

        self.assertTrue(bot.checkout(1, "Acme", "https://shop.acme.com", "Pens", 500)["approved"])
        held = bot.checkout(1, "Acme", "https://shop.acme.com", "Desk", 5000, category="office")
        self.assertEqual(held["status"], "pending_confirmation")
        self.assertIn(held["confirmation_id"], [str(a["id"]) for a in owner.all_approvals()])
        self.assertEqual(owner.approve_purchase(held["confirmation_id"])["status"], "approved")
        self.assertEqual(bot.checkout_status(held["confirmation_id"])["status"], "approved")
        owner.refund_purchase(held["confirmation_id"], "returned", Decimal("10"))
        denied = bot.checkout(1, "Acme", "https://shop.acme.com", "Chair", 4000)
        self.assertEqual(owner.deny_purchase(denied["confirmation_id"])["status"], "denied")
        with self.assertRaises(botpay.ConflictError) as caught:
            owner.deny_purchase(denied["confirmation_id"])
        self.assertEqual(caught.exception.error, errors.ALREADY_DECIDED)

    def test_earning_calls_take_sandbox_payments_and_refund_them(self):
        seller, _, _ = self.claimed_bot("py-earn")
        page = seller.create_checkout_page("Stickers", amount_usd=Decimal("12.50"))
        paid = seller.pay_checkout_sandbox(page["checkout_page_id"], "bea@example.com")
        self.assertEqual(paid["amount_usd"], Decimal("12.5"))
        self.assertEqual([s["sale_id"] for s in seller.all_sales(checkout_page_id=page["checkout_page_id"])], [paid["sale_id"]])
        seller.refund_sale(paid["sale_id"], "sorry")
        link = seller.create_payment_link(Decimal("7.25"), "Invoice 7", "bea@example.com")
        seller.pay_link_sandbox(link["payment_link_id"], "bea@example.com")
        self.assertIn(link["payment_link_id"], [p["payment_link_id"] for p in seller.all_payment_links(status="completed")])
        vendor = next(self.bot.all_skills())
        skill = self.bot.skill_file(vendor["slug"])
        self.assertTrue(skill.markdown and skill.etag)
        self.assertIsNone(self.bot.skill_file(vendor["slug"], etag=skill.etag))

    def test_iteration_walks_every_page_once(self):
        made = {self.bot.create_payment_link(Decimal("1.25") + n, f"page test {n}")["payment_link_id"] for n in range(3)}
        first = self.bot.payment_links(limit=1)
        self.assertEqual(len(first), 1)
        self.assertTrue(first.has_more and first.next_cursor)
        seen = [link["payment_link_id"] for link in self.bot.all_payment_links()]
        self.assertEqual(len(seen), len(set(seen)), "no item twice")
        self.assertLessEqual(made, set(seen))

    def test_errors_carry_code_message_and_request_id(self):
        cases = [
            ("an unknown confirmation", lambda: self.bot.checkout_status("chk_" + "0" * 16), botpay.NotFoundError, errors.NOT_FOUND),
            ("a wrong key", lambda: botpay.Client(URL, "bp_live_wrong").status(), botpay.AuthenticationError, errors.AUTH_REQUIRED),
            ("a negative amount", lambda: self.bot.create_payment_link(-1, "x"), botpay.BadRequestError, errors.VALIDATION),
            ("a bad cursor", lambda: self.bot.transactions(cursor="not-a-cursor"), botpay.BadRequestError, errors.INVALID_CURSOR),
        ]
        for name, call, cls, code in cases:
            with self.subTest(name):
                with self.assertRaises(cls) as caught:
                    call()
                self.assertEqual(caught.exception.error, code)
                self.assertTrue(caught.exception.message)
                self.assertTrue(caught.exception.request_id)

    def test_an_idempotency_key_replays_and_refuses_another_body(self):
        key = unique("link")
        first = self.bot.create_payment_link(Decimal("3.10"), "idempotent", idempotency_key=key)
        again = self.bot.create_payment_link(Decimal("3.10"), "idempotent", idempotency_key=key)
        self.assertEqual(first["payment_link_id"], again["payment_link_id"])
        with self.assertRaises(botpay.ConflictError) as caught:
            self.bot.create_payment_link(Decimal("3.11"), "idempotent", idempotency_key=key)
        self.assertEqual(caught.exception.error, errors.IDEMPOTENCY_REUSED)

    def seller_resource(self):
        seller, _, _ = self.claimed_bot("py-seller")
        page = seller.create_checkout_page("Dataset", amount_usd=Decimal("0.05"), page_type="digital_product",
                                           digital_product_url="https://files.example/data.csv")
        return seller, page, f"{URL}/api/v1/checkout/{page['checkout_page_id']}/x402"

    def assert_paid(self, seller, page, paid, version):
        self.assertEqual((paid.status, paid.version), (200, version), paid.body)
        self.assertTrue(paid.settlement and paid.settlement.get("success"), paid.headers)
        self.assertEqual(paid.settlement.get("payer"), paid.signed["from"])
        sales = list(seller.all_sales(checkout_page_id=page["checkout_page_id"]))
        self.assertEqual([s["payment_method"] for s in sales], ["x402"])

    def test_pay_x402_v1_through_the_sign_endpoint(self):
        seller, page, url = self.seller_resource()
        with self.assertRaises(botpay.X402Error) as caught:
            self.bot.pay_x402(url, max_usdc=49_999, version=1)
        self.assertTrue(caught.exception.over_limit)
        self.assert_paid(seller, page, self.bot.pay_x402(url, max_usdc=50_000, version=1), 1)

    def test_pay_x402_v2_through_the_sign_endpoint(self):
        seller, page, url = self.seller_resource()
        paid = self.bot.pay_x402(url, max_usdc=50_000)
        self.assert_paid(seller, page, paid, 2)
        self.assertTrue(paid.signed.get("payment_signature_header"), "the v2 seller must be paid with PAYMENT-SIGNATURE")
        self.assertEqual(str(paid.settlement.get("amount")), "50000", paid.settlement)

    def test_a_held_x402_payment_waits_for_the_owner(self):
        seller, page, url = self.seller_resource()
        buyer, owner, reg = self.claimed_bot("py-held")
        owner.create_processor_wallet(reg["bot_id"])
        owner.fund(reg["bot_id"], 1, "processor_wallet")
        rails = owner.guardrails(reg["bot_id"])
        rails["limits"]["ask_approval_above_usd"] = Decimal("0.01")
        owner.set_guardrails(reg["bot_id"], rails)
        with self.assertRaises(botpay.AwaitingApprovalError) as caught:
            buyer.pay_x402(url, max_usdc=50_000, version=1)
        approval_id = caught.exception.signed["approval_id"]
        self.assertEqual([a["id"] for a in owner.all_signing_requests()], [approval_id])
        self.assertEqual(owner.approve_signing(approval_id)["status"], "approved")
        with self.assertRaises(botpay.AwaitingApprovalError) as caught:
            buyer.pay_x402(url, max_usdc=50_000, version=1)
        self.assertEqual(owner.deny_signing(caught.exception.signed["approval_id"])["status"], "denied")

    def test_sessions_profiles_and_keys(self):
        bot, owner, reg = self.claimed_bot("py-keys")
        email = unique("py-login") + "@example.com"
        botpay.OwnerClient(URL).signup(email, "correct horse battery staple")
        again = botpay.OwnerClient(URL)
        again = again.with_token(again.login(email, "correct horse battery staple")["token"])
        again.logout()
        with self.assertRaises(botpay.AuthenticationError):
            again.master_guardrails()
        self.assertEqual(bot.update_profile("http://127.0.0.1:9/a")["callback_url"], "http://127.0.0.1:9/a")
        self.assertEqual(owner.set_callback_url(reg["bot_id"], "http://127.0.0.1:9/b")["callback_url"], "http://127.0.0.1:9/b")
        rotated = owner.rotate_bot_api_key(reg["bot_id"], 0)
        self.assertEqual(bot.with_api_key(rotated["api_key"]).status()["bot_id"], reg["bot_id"])
        with self.assertRaises(botpay.AuthenticationError):
            bot.status()

    def test_a_webhook_delivery_verifies_with_the_registration_secret(self):
        deliveries = queue.Queue()

        class Receiver(http.server.BaseHTTPRequestHandler):
            def do_POST(self):
                body = self.rfile.read(int(self.headers.get("Content-Length", 0)))
                deliveries.put((dict(self.headers.items()), body))
                self.send_response(204)
                self.end_headers()

            def log_message(self, *args):
                pass

        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Receiver)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        self.addCleanup(server.server_close)
        self.addCleanup(server.shutdown)
        callback = f"http://127.0.0.1:{server.server_address[1]}/hooks/botpay"
        bot, owner, reg = self.claimed_bot("py-hook", callback_url=callback)
        owner.fund(reg["bot_id"], 5)
        verifier = webhook.Verifier(reg["webhook_secret"])
        events = []
        while "wallet.funded" not in events:
            headers, body = deliveries.get(timeout=30)
            event = verifier.parse(headers, body)
            self.assertEqual(event.bot_id, reg["bot_id"])
            self.assertTrue(event.id)
            events.append(event.event)
            with self.assertRaises(webhook.BadSignatureError):
                verifier.verify(headers, body + b" ")
            with self.assertRaises(webhook.BadSignatureError):
                webhook.Verifier("whsec_" + "0" * 48).verify(headers, body)


if __name__ == "__main__":
    unittest.main()
