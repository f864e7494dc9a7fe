package store

import "github.com/botpay/botpay/internal/botpay"

// emit writes an event to the outbox inside the caller's transaction
// (ledger.Outbox.Emit).
func (t *Tx) emit(e botpay.Event) error { return t.s.outbox.Emit(t.k, e) }
