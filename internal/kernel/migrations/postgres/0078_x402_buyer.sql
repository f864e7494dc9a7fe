-- A person paying from a buyer page with a browser wallet may give an
-- e-mail address (for the receipt) and a name (on pages that collect it).
-- They wait with the claimed authorization, so a settlement finished
-- after a restart still records them on its sale.
ALTER TABLE x402_payments ADD COLUMN buyer_email TEXT;
ALTER TABLE x402_payments ADD COLUMN buyer_name TEXT;
