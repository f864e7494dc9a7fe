-- A signing request held for the owner keeps the vendor's 402 its bot
-- handed over (payment_required, as the JSON it came as), so the signature
-- made at approval carries the header paying the vendor's own offer.
ALTER TABLE signing_requests ADD COLUMN payment_required TEXT;
