package api

// spendingRoutes mounts checkout, purchase approvals, cards, tasks and
// procurement controls (issue 3).
func (s *Server) spendingRoutes() {
	m := s.mux
	m.Handle("POST /api/v1/bot/merchant/checkout", s.bot(s.checkout, spendingAuth))
	m.Handle("GET /api/v1/bot/merchant/checkout/status", s.bot(s.checkoutStatus))
	m.Handle("POST /api/v1/bot/tasks/next", s.bot(s.nextTask))

	m.Handle("POST /api/v1/owner/bots/{bot_id}/cards", s.owner(s.createCard))
	m.Handle("GET /api/v1/owner/bots/{bot_id}/cards", s.owner(s.listCards))
	m.Handle("PATCH /api/v1/owner/bots/{bot_id}/cards/{card_id}", s.owner(s.patchCard))
	m.Handle("POST /api/v1/owner/bots/{bot_id}/tasks", s.owner(s.createTask))
	m.Handle("GET /api/v1/owner/approvals", s.owner(s.approvals))
	m.Handle("POST /api/v1/owner/purchases/{confirmation_id}/approve", s.owner(s.decidePurchase(true)))
	m.Handle("POST /api/v1/owner/purchases/{confirmation_id}/deny", s.owner(s.decidePurchase(false)))
	m.Handle("GET /api/v1/owner/bots/{bot_id}/procurement", s.owner(s.getProcurement))
	m.Handle("PUT /api/v1/owner/bots/{bot_id}/procurement", s.owner(s.putProcurement))
	s.rail5Routes()
}
