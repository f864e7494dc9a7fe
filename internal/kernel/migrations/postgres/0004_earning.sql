-- Earning: checkout pages, payment links, invoices and sales (issue 5).
CREATE TABLE checkout_pages (
    id                   TEXT PRIMARY KEY,
    bot_id               TEXT NOT NULL REFERENCES bots(id),
    title                TEXT NOT NULL,
    description          TEXT NOT NULL DEFAULT '',
    amount_cents         BIGINT,
    amount_locked        BOOLEAN NOT NULL,
    allowed_methods      TEXT NOT NULL,
    success_url          TEXT,
    page_type            TEXT NOT NULL,
    digital_product_url  TEXT,
    image_url            TEXT,
    collect_buyer_name   BOOLEAN NOT NULL,
    view_count           BIGINT NOT NULL DEFAULT 0,
    payment_count        BIGINT NOT NULL DEFAULT 0,
    total_received_cents BIGINT NOT NULL DEFAULT 0,
    created_at           BIGINT NOT NULL,
    expires_at           BIGINT
);
CREATE INDEX checkout_pages_bot ON checkout_pages(bot_id, created_at);

CREATE TABLE payment_links (
    id           TEXT PRIMARY KEY,
    bot_id       TEXT NOT NULL REFERENCES bots(id),
    amount_cents BIGINT NOT NULL,
    description  TEXT NOT NULL,
    payer_email  TEXT,
    completed    BOOLEAN NOT NULL DEFAULT FALSE,
    sale_id      TEXT,
    created_at   BIGINT NOT NULL,
    expires_at   BIGINT NOT NULL,
    paid_at      BIGINT
);
CREATE INDEX payment_links_bot ON payment_links(bot_id, created_at);

-- One counter per year hands out INV-YYYY-NNNNNN across the whole service.
CREATE TABLE invoice_sequences (
    year BIGINT PRIMARY KEY,
    last BIGINT NOT NULL
);

CREATE TABLE invoices (
    id               TEXT PRIMARY KEY,
    bot_id           TEXT NOT NULL REFERENCES bots(id),
    reference_number TEXT NOT NULL UNIQUE,
    checkout_page_id TEXT NOT NULL REFERENCES checkout_pages(id),
    status           TEXT NOT NULL,
    recipient_name   TEXT NOT NULL DEFAULT '',
    recipient_email  TEXT NOT NULL DEFAULT '',
    recipient_type   TEXT NOT NULL DEFAULT '',
    line_items       TEXT NOT NULL,
    subtotal_cents   BIGINT NOT NULL,
    tax_cents        BIGINT NOT NULL,
    total_cents      BIGINT NOT NULL,
    due_date         BIGINT NOT NULL,
    sender_name      TEXT NOT NULL DEFAULT '',
    sender_email     TEXT NOT NULL DEFAULT '',
    notes            TEXT NOT NULL DEFAULT '',
    sale_id          TEXT,
    sent_at          BIGINT,
    viewed_at        BIGINT,
    paid_at          BIGINT,
    created_at       BIGINT NOT NULL,
    updated_at       BIGINT NOT NULL
);
CREATE INDEX invoices_bot ON invoices(bot_id, created_at);

CREATE TABLE sales (
    id               TEXT PRIMARY KEY,
    bot_id           TEXT NOT NULL REFERENCES bots(id),
    checkout_page_id TEXT REFERENCES checkout_pages(id),
    payment_link_id  TEXT REFERENCES payment_links(id),
    invoice_id       TEXT REFERENCES invoices(id),
    amount_cents     BIGINT NOT NULL,
    payment_method   TEXT NOT NULL,
    status           TEXT NOT NULL,
    buyer_type       TEXT NOT NULL,
    buyer_identifier TEXT NOT NULL,
    buyer_email      TEXT,
    buyer_name       TEXT,
    tx_hash          TEXT,
    external_ref     TEXT,
    checkout_title   TEXT NOT NULL,
    confirmed_at     BIGINT,
    created_at       BIGINT NOT NULL
);
CREATE INDEX sales_bot ON sales(bot_id, created_at);
-- An on-chain payment can be recorded once only.
CREATE UNIQUE INDEX sales_tx_hash ON sales(tx_hash) WHERE tx_hash IS NOT NULL;
