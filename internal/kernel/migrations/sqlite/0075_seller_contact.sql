-- A seller line a buyer can act on: the address a bot names for buyers'
-- questions and the refund policy it states, both shown on the page, its
-- invoices and its receipts (NULL: none given).
ALTER TABLE checkout_pages ADD COLUMN contact_email TEXT;
ALTER TABLE checkout_pages ADD COLUMN refund_policy TEXT;
