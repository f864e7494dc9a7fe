-- On-chain refunds of live x402 sales: the relayer's signed transaction is
-- stored (pending) before it is sent, with the nonce it took, so a crash
-- after the store is finished by the resume worker from the raw bytes.
ALTER TABLE refunds ADD COLUMN raw_tx TEXT;
ALTER TABLE refunds ADD COLUMN relayer TEXT;
ALTER TABLE refunds ADD COLUMN relayer_nonce INTEGER;
ALTER TABLE refunds ADD COLUMN submitted_at INTEGER;
ALTER TABLE refunds ADD COLUMN failure TEXT;
CREATE INDEX refunds_pending ON refunds(submitted_at) WHERE status = 'pending';
