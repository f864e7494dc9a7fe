import base64
import hashlib
import hmac
import unittest

from botpay import webhook

SECRET = "whsec_" + base64.b64encode(bytes(range(36))).decode()
BODY = (b'{"event":"wallet.funded","timestamp":"2026-11-21T09:30:00.000Z","bot_id":"bot_0123456789abcdef",'
        b'"data":{"amount":50}}')
NOW = 1_790_000_000


def signed_headers(body=BODY, secret=SECRET, timestamp=NOW, webhook_id="evt_0123456789abcdef"):
    """The headers botpay sends: both schemes over the same raw body."""
    service = "sha256=" + hmac.new(secret.encode(), body, hashlib.sha256).hexdigest()
    standard = hmac.new(webhook.standard_key(secret), f"{webhook_id}.{timestamp}.".encode() + body, hashlib.sha256)
    return {
        "X-Service-Signature": service,
        "X-Service-Event": "wallet.funded",
        "X-Service-Delivery": webhook_id,
        "webhook-id": webhook_id,
        "webhook-timestamp": str(timestamp),
        "webhook-signature": "v1," + base64.b64encode(standard.digest()).decode(),
    }


def without(headers, *names):
    return {k: v for k, v in headers.items() if k.lower() not in {n.lower() for n in names}}


class VerifierTest(unittest.TestCase):
    def verifier(self, **options):
        return webhook.Verifier(SECRET, clock=lambda: NOW, **options)

    def test_a_delivery_signed_by_both_schemes_parses(self):
        event = self.verifier().parse(signed_headers(), BODY)
        self.assertEqual((event.id, event.event, event.bot_id), ("evt_0123456789abcdef", "wallet.funded", "bot_0123456789abcdef"))
        self.assertEqual(event.data, {"amount": 50})

    def test_refusals(self):
        good = signed_headers()
        cases = [
            ("a changed body", good, BODY.replace(b"50", b"51"), webhook.BadSignatureError),
            ("another secret", signed_headers(secret="whsec_AAAA"), BODY, webhook.BadSignatureError),
            ("no service signature", without(good, "X-Service-Signature"), BODY, webhook.MissingSignatureError),
            ("a service signature not hex", dict(good, **{"X-Service-Signature": "sha256=zz"}), BODY, webhook.BadSignatureError),
            ("a standard signature of another body",
             dict(good, **{"webhook-signature": signed_headers(body=b"{}")["webhook-signature"]}), BODY, webhook.BadSignatureError),
            ("a replay older than the window", signed_headers(timestamp=NOW - 301), BODY, webhook.TimestampError),
            ("a timestamp too far ahead", signed_headers(timestamp=NOW + 301), BODY, webhook.TimestampError),
            ("a malformed timestamp", dict(good, **{"webhook-timestamp": "yesterday"}), BODY, webhook.TimestampError),
            ("the standard headers stripped", without(good, "webhook-id", "webhook-timestamp", "webhook-signature"),
             BODY, webhook.TimestampError),
            ("a changed timestamp", dict(good, **{"webhook-timestamp": str(NOW - 1)}), BODY, webhook.BadSignatureError),
        ]
        for name, headers, body, error in cases:
            with self.subTest(name):
                with self.assertRaises(error):
                    self.verifier().verify(headers, body)

    def test_the_window_edges_are_accepted(self):
        for timestamp in (NOW - 300, NOW + 300):
            with self.subTest(timestamp=timestamp):
                self.verifier().verify(signed_headers(timestamp=timestamp), BODY)

    def test_a_wider_tolerance_accepts_an_older_delivery(self):
        self.verifier(tolerance_seconds=600).verify(signed_headers(timestamp=NOW - 500), BODY)

    def test_missing_standard_headers_pass_only_when_allowed(self):
        stripped = without(signed_headers(), "webhook-id", "webhook-timestamp", "webhook-signature")
        self.verifier(allow_missing_timestamp=True).verify(stripped, BODY)

    def test_one_matching_signature_among_several_is_enough(self):
        headers = signed_headers()
        headers["webhook-signature"] = "v1,AAAA v2,xyz " + headers["webhook-signature"]
        self.verifier().verify(headers, BODY)

    def test_header_names_are_case_insensitive(self):
        headers = {k.upper(): v for k, v in signed_headers().items()}
        self.verifier().verify(headers, BODY)

    def test_standard_key_decodes_the_part_after_the_prefix(self):
        self.assertEqual(webhook.standard_key(SECRET), bytes(range(36)))
        self.assertEqual(webhook.standard_key("plain-secret"), b"plain-secret")
        self.assertEqual(webhook.standard_key("whsec_not base64!"), b"whsec_not base64!")


if __name__ == "__main__":
    unittest.main()
