import unittest
import urllib.error
from decimal import Decimal

import botpay
from botpay import errors
from tests.fakes import FakeTransport, answer


def client(transport, **options):
    return botpay.Client("http://botpay.test/", "bp_key", transport=transport, **options)


class NoSleepClientMixin:
    def client(self, *script, **options):
        self.transport = FakeTransport(*script)
        self.waits = []
        c = client(self.transport, **options)
        c.http.sleep = self.waits.append
        return c


class ErrorsTest(NoSleepClientMixin, unittest.TestCase):
    def test_each_kind_raises_its_class_with_code_message_and_request_id(self):
        cases = [
            (400, errors.VALIDATION, botpay.BadRequestError),
            (401, errors.AUTH_REQUIRED, botpay.AuthenticationError),
            (402, errors.INSUFFICIENT_FUNDS, botpay.PaymentRequiredError),
            (403, errors.WALLET_NOT_ACTIVE, botpay.PermissionDeniedError),
            (404, errors.NOT_FOUND, botpay.NotFoundError),
            (405, errors.METHOD_NOT_ALLOWED, botpay.MethodNotAllowedError),
            (409, errors.ALREADY_DECIDED, botpay.ConflictError),
            (410, errors.EXPIRED, botpay.GoneError),
            (413, errors.PAYLOAD_TOO_LARGE, botpay.PayloadTooLargeError),
            (429, errors.RATE_LIMITED, botpay.RateLimitedError),
            (500, errors.INTERNAL, botpay.InternalServerError),
            (503, errors.DATABASE_UNREACHABLE, botpay.ServiceUnavailableError),
        ]
        for status, code, cls in cases:
            with self.subTest(status=status):
                c = self.client(answer(status, {"error": code, "message": "why", "request_id": "req-1"}), max_retries=0)
                with self.assertRaises(cls) as caught:
                    c.status()
                e = caught.exception
                self.assertEqual((e.status, e.error, e.message, e.request_id), (status, code, "why", "req-1"))
                self.assertIsInstance(e, botpay.APIError)

    def test_details_reason_and_retry_after_are_kept(self):
        c = self.client(answer(400, {"error": "validation_error", "message": "bad", "details": {"amount_usd": "must be positive"}},
                               {"X-Request-Id": "from-header"}), max_retries=0)
        with self.assertRaises(botpay.BadRequestError) as caught:
            c.topup_request(-1)
        self.assertEqual(caught.exception.details, {"amount_usd": "must be positive"})
        self.assertEqual(caught.exception.request_id, "from-header")
        self.assertIn("from-header", str(caught.exception))

        c = self.client(answer(403, {"error": "guardrail_blocked", "message": "no", "reason": "over the limit"}))
        with self.assertRaises(botpay.PermissionDeniedError) as caught:
            c.sign("https://r.example", 1, "0x" + "1" * 40)
        self.assertEqual(caught.exception.reason, "over the limit")

        c = self.client(answer(429, {"error": "rate_limited", "message": "slow"}, {"Retry-After": "7"}), max_retries=0)
        with self.assertRaises(botpay.RateLimitedError) as caught:
            c.status()
        self.assertEqual(caught.exception.retry_after_seconds, 7)

    def test_a_body_that_is_not_the_services_json_still_raises_with_the_status(self):
        c = self.client(answer(502, b"<html>Bad gateway</html>"), max_retries=0)
        with self.assertRaises(botpay.APIError) as caught:
            c.status()
        self.assertEqual((caught.exception.status, caught.exception.error), (502, ""))
        self.assertIn("Bad gateway", caught.exception.message)


class RetryTest(NoSleepClientMixin, unittest.TestCase):
    def test_a_retried_post_keeps_one_idempotency_key(self):
        c = self.client(urllib.error.URLError("connection reset"),
                        answer(503, {"error": "service_unavailable", "message": "db"}),
                        answer(201, {"checkout_page_id": "cp_1"}))
        page = c.create_checkout_page("Sticker pack", amount_usd=Decimal("12.50"))
        self.assertEqual(page["checkout_page_id"], "cp_1")
        keys = [s.header("Idempotency-Key") for s in self.transport.sent]
        self.assertEqual(len(keys), 3)
        self.assertTrue(keys[0])
        self.assertEqual(len(set(keys)), 1, keys)
        self.assertEqual(len(self.waits), 2)
        self.assertEqual(self.transport.sent[0].json(), {"title": "Sticker pack", "amount_usd": 12.5})

    def test_two_calls_draw_two_keys_and_a_given_key_is_sent_as_is(self):
        c = self.client(answer(200, {}), answer(200, {}), answer(200, {}))
        c.ack([1])
        c.ack([1])
        c.ack([1], idempotency_key="ack-1")
        keys = [s.header("Idempotency-Key") for s in self.transport.sent]
        self.assertNotEqual(keys[0], keys[1])
        self.assertEqual(keys[2], "ack-1")

    def test_a_get_carries_no_idempotency_key(self):
        c = self.client(answer(200, {"status": "active"}))
        c.status(request_id="mine-1")
        self.assertEqual(self.transport.sent[0].header("Idempotency-Key"), "")
        self.assertEqual(self.transport.sent[0].header("X-Request-Id"), "mine-1")
        self.assertEqual(self.transport.sent[0].header("Authorization"), "Bearer bp_key")

    def test_rate_limits_wait_retry_after_and_key_in_use_is_retried(self):
        c = self.client(answer(429, {"error": "rate_limited", "message": "slow", "retry_after_seconds": 3}),
                        answer(409, {"error": "idempotency_key_in_use", "message": "busy"}),
                        answer(200, {"acknowledged": [1]}))
        c.ack([1])
        self.assertEqual(self.waits[0], 3.0)
        self.assertEqual(len(self.transport.sent), 3)

    def test_answers_that_a_retry_cannot_change_are_not_retried(self):
        for status, code in [(400, "validation_error"), (409, "idempotency_key_reused"), (403, "wallet_frozen"), (404, "not_found")]:
            with self.subTest(code=code):
                c = self.client(answer(status, {"error": code, "message": "no"}))
                with self.assertRaises(botpay.APIError):
                    c.ack([1])
                self.assertEqual(len(self.transport.sent), 1)

    def test_retries_stop_after_max_retries(self):
        c = self.client(*[urllib.error.URLError("down")] * 3, max_retries=2)
        with self.assertRaises(botpay.ConnectionFailedError):
            c.status()
        self.assertEqual(len(self.transport.sent), 3)

    def test_amounts_are_decoded_as_decimal(self):
        c = self.client(answer(200, b'{"balance_usd": 12.10}'))
        self.assertEqual(c.wallet_check()["balance_usd"], Decimal("12.10"))


class PagesTest(NoSleepClientMixin, unittest.TestCase):
    def test_all_iterates_every_page_following_next_cursor(self):
        c = self.client(answer(200, {"transactions": [{"id": 1}, {"id": 2}], "has_more": True, "next_cursor": "c1"}),
                        answer(200, {"transactions": [{"id": 3}], "has_more": True, "next_cursor": "c2"}),
                        answer(200, {"transactions": [], "has_more": False, "next_cursor": None}))
        self.assertEqual([t["id"] for t in c.all_transactions()], [1, 2, 3])
        urls = [s.url for s in self.transport.sent]
        self.assertEqual(urls, ["http://botpay.test/api/v1/bot/wallet/transactions?limit=100",
                                "http://botpay.test/api/v1/bot/wallet/transactions?limit=100&cursor=c1",
                                "http://botpay.test/api/v1/bot/wallet/transactions?limit=100&cursor=c2"])

    def test_filters_travel_with_every_page_and_no_cursor_is_sent_first(self):
        c = self.client(answer(200, {"sales": [{"sale_id": "s1"}], "has_more": True, "next_cursor": "n"}),
                        answer(200, {"sales": [{"sale_id": "s2"}], "has_more": False}))
        self.assertEqual([s["sale_id"] for s in c.all_sales(status="completed")], ["s1", "s2"])
        self.assertNotIn("cursor", self.transport.sent[0].url)
        self.assertTrue(all("status=completed" in s.url for s in self.transport.sent))

    def test_a_repeated_cursor_stops_instead_of_looping(self):
        c = self.client(answer(200, {"messages": [{"message_id": 1}], "next_cursor": "same"}),
                        answer(200, {"messages": [{"message_id": 1}], "next_cursor": "same"}))
        with self.assertRaises(botpay.BotpayError):
            list(c.all_messages())

    def test_one_page_reads_its_fields(self):
        c = self.client(answer(200, {"vendors": [{"slug": "a"}], "total": 40, "has_more": True, "next_cursor": "v"}))
        page = c.skills(checkout=["x402", "acp"], limit=1)
        self.assertEqual((len(page), page.has_more, page.next_cursor, page.raw["total"]), (1, True, "v", 40))
        self.assertIn("checkout=x402%2Cacp", self.transport.sent[0].url)

    def test_the_owners_bots_page_through_the_link_header(self):
        transport = FakeTransport(
            answer(200, [{"bot_id": "b1"}], {"Link": '<http://botpay.test/api/v1/bots/mine?limit=100&cursor=abc>; rel="next"'}),
            answer(200, [{"bot_id": "b2"}]))
        owner = botpay.OwnerClient("http://botpay.test", "sess", transport=transport)
        self.assertEqual([b["bot_id"] for b in owner.all_bots_mine()], ["b1", "b2"])
        self.assertTrue(transport.sent[1].url.endswith("cursor=abc"))


if __name__ == "__main__":
    unittest.main()
