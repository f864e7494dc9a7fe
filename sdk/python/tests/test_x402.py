import base64
import json
import unittest

import botpay
from botpay._transport import Response
from tests.fakes import FakeTransport, Sent, answer

PAY_TO = "0x209693Bc6afc0C5328bA36FaF03C514EF312287C"
RESOURCE = "https://seller.example/report"


def b64(document):
    return base64.b64encode(json.dumps(document).encode()).decode()


V1_BODY = {"x402Version": 1, "error": "X-PAYMENT header is required", "accepts": [
    {"scheme": "upto", "network": "base", "maxAmountRequired": "1", "payTo": PAY_TO},
    {"scheme": "exact", "network": "base", "maxAmountRequired": "50000", "resource": RESOURCE, "payTo": PAY_TO,
     "asset": "0xusdc", "maxTimeoutSeconds": 300, "extra": {"name": "USD Coin", "version": "2"}}]}
V2_REQUIRED = {"x402Version": 2, "error": "payment required", "resource": {"url": RESOURCE + "?v=2"}, "accepts": [
    {"scheme": "exact", "network": "eip155:8453", "amount": "70000", "payTo": PAY_TO, "asset": "0xusdc",
     "maxTimeoutSeconds": 300, "extra": {"name": "USD Coin", "version": "2"}}]}
SETTLED = {"success": True, "transaction": "0xabc", "network": "base", "payer": "0xbot"}


class Seller:
    """A resource behind x402 and botpay's sign endpoint, in one fake transport."""

    def __init__(self, challenge, signed, paid_header_name):
        self.challenge, self.signed, self.paid_header_name = challenge, signed, paid_header_name
        self.sign_bodies = []

    def __call__(self, request: Sent) -> Response:
        if request.url.endswith("/api/v1/processor-wallet/bot/sign"):
            self.sign_bodies.append(request.json())
            return answer(200 if "status" not in self.signed else 202, self.signed)
        if request.header(self.paid_header_name):
            return answer(200, {"report": "ok"}, {self.settlement_header: b64(SETTLED)})
        return self.challenge

    settlement_header = "X-PAYMENT-RESPONSE"


def bot(seller, steps):
    transport = FakeTransport(*[seller] * steps)
    return botpay.Client("http://botpay.test", "bp_key", transport=transport), transport


class PayX402Test(unittest.TestCase):
    def test_v2_reads_payment_required_first_and_sends_payment_signature(self):
        seller = Seller(answer(402, V1_BODY, {"PAYMENT-REQUIRED": b64(V2_REQUIRED)}),
                        {"x_payment_header": "flat", "payment_signature_header": "v2-payload"}, "PAYMENT-SIGNATURE")
        seller.settlement_header = "PAYMENT-RESPONSE"
        client, transport = bot(seller, 3)
        paid = client.pay_x402(RESOURCE, max_usdc=70000)
        self.assertEqual((paid.status, paid.version, paid.settlement), (200, 2, SETTLED))
        sign = seller.sign_bodies[0]
        self.assertEqual((sign["amount_usdc"], sign["recipient_address"], sign["resource_url"]), (70000, PAY_TO, RESOURCE + "?v=2"))
        self.assertEqual(sign["payment_required"], b64(V2_REQUIRED), "the header goes to the sign endpoint as it came")
        self.assertEqual(transport.sent[2].header("PAYMENT-SIGNATURE"), "v2-payload")
        self.assertEqual(transport.sent[2].header("X-PAYMENT"), "")
        self.assertEqual(transport.sent[0].header("Authorization"), "", "the bot's key never goes to the seller")

    def test_v1_sends_the_body_to_sign_and_the_standard_payload_in_x_payment(self):
        seller = Seller(answer(402, V1_BODY), {"x_payment_header": "flat", "x_payment_standard_header": "standard"}, "X-PAYMENT")
        client, transport = bot(seller, 3)
        paid = client.pay_x402(RESOURCE, max_usdc=50000)
        self.assertEqual((paid.status, paid.version, paid.settlement, paid.json()), (200, 1, SETTLED, {"report": "ok"}))
        self.assertEqual(seller.sign_bodies[0]["payment_required"], V1_BODY)
        self.assertEqual(seller.sign_bodies[0]["amount_usdc"], 50000, "the exact offer, not the first")
        self.assertEqual(transport.sent[2].header("X-PAYMENT"), "standard")

    def test_version_1_pays_the_v1_body_of_a_seller_offering_both(self):
        seller = Seller(answer(402, V1_BODY, {"PAYMENT-REQUIRED": b64(V2_REQUIRED)}),
                        {"x_payment_header": "flat", "x_payment_standard_header": "standard"}, "X-PAYMENT")
        client, transport = bot(seller, 3)
        paid = client.pay_x402(RESOURCE, max_usdc=70000, version=1)
        self.assertEqual((paid.version, seller.sign_bodies[0]["payment_required"]), (1, V1_BODY))
        with self.assertRaises(botpay.X402Error):
            bot(Seller(answer(402, V1_BODY), {}, "X-PAYMENT"), 1)[0].pay_x402(RESOURCE, max_usdc=70000, version=2)

    def test_v1_without_a_standard_payload_sends_botpays_own_header(self):
        seller = Seller(answer(402, V1_BODY), {"x_payment_header": "flat"}, "X-PAYMENT")
        client, transport = bot(seller, 3)
        client.pay_x402(RESOURCE, max_usdc=50000)
        self.assertEqual(transport.sent[2].header("X-PAYMENT"), "flat")

    def test_a_post_resource_is_posted_both_times(self):
        seller = Seller(answer(402, V1_BODY), {"x_payment_header": "flat"}, "X-PAYMENT")
        client, transport = bot(seller, 3)
        client.pay_x402(RESOURCE, max_usdc=50000, body=b'{"q":1}')
        self.assertEqual([(s.method, s.body) for s in (transport.sent[0], transport.sent[2])], [("POST", b'{"q":1}')] * 2)

    def test_refusals_before_anything_is_signed(self):
        cases = [
            ("over the caller's maximum", answer(402, V1_BODY), 49999, True),
            ("no exact offer", answer(402, {"x402Version": 1, "accepts": [{"scheme": "upto"}]}), 10**9, False),
            ("not x402 at all", answer(402, b"pay me"), 10**9, False),
            ("a PAYMENT-REQUIRED that is not base64 JSON", answer(402, V1_BODY, {"PAYMENT-REQUIRED": "%%%"}), 10**9, False),
        ]
        for name, challenge, maximum, over_limit in cases:
            with self.subTest(name):
                seller = Seller(challenge, {"x_payment_header": "flat"}, "X-PAYMENT")
                client, transport = bot(seller, 1)
                with self.assertRaises(botpay.X402Error) as caught:
                    client.pay_x402(RESOURCE, max_usdc=maximum)
                self.assertEqual(caught.exception.over_limit, over_limit)
                self.assertEqual(seller.sign_bodies, [])

    def test_a_held_signature_raises_awaiting_approval(self):
        held = {"status": "awaiting_approval", "approval_id": 7, "expires_at": "2026-11-27T12:00:00Z", "message": "ask"}
        seller = Seller(answer(402, V1_BODY), held, "X-PAYMENT")
        client, transport = bot(seller, 2)
        with self.assertRaises(botpay.AwaitingApprovalError) as caught:
            client.pay_x402(RESOURCE, max_usdc=50000)
        self.assertEqual(caught.exception.signed["approval_id"], 7)
        self.assertEqual(len(transport.sent), 2, "nothing is resent before the owner decides")

    def test_a_free_resource_is_returned_as_it_came(self):
        client, transport = bot(Seller(answer(200, {"free": True}), {}, "X-PAYMENT"), 1)
        paid = client.pay_x402(RESOURCE, max_usdc=1)
        self.assertEqual((paid.status, paid.version, paid.signed), (200, 0, None))


if __name__ == "__main__":
    unittest.main()
