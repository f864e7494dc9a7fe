package api

import (
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

func viewRefund(rf botpay.Refund) wire.Refund {
	return wire.Refund{RefundID: rf.ID, ConfirmationID: optText(rf.PurchaseID), SaleID: optText(rf.SaleID),
		AmountUSD: usd(rf.Amount), Reason: rf.Reason, Status: rf.Status, TXHash: optText(rf.TxHash), CreatedAt: at(rf.CreatedAt)}
}

// decodeRefund reads {"amount_usd"?, "reason"}.
func decodeRefund(r *http.Request) (botpay.RefundRequest, error) {
	body, err := parseObject(r)
	if err != nil {
		return botpay.RefundRequest{}, err
	}
	var req wire.RefundRequest
	f := body.into(&req)
	f.optUSD(&req.AmountUSD)
	f.text(&req.Reason)
	return botpay.RefundRequest{Amount: optMoney(req.AmountUSD), Reason: req.Reason}, body.err()
}

func (s *Server) refundPurchase(w http.ResponseWriter, r *http.Request, o botpay.Owner) {
	req, err := decodeRefund(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	rf, err := s.svc.Earning().RefundPurchase(r.Context(), o, pathID(r, "confirmation_id"), req)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, viewRefund(rf))
}

func (s *Server) refundSale(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	req, err := decodeRefund(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	rf, err := s.svc.Earning().RefundSale(r.Context(), bot, pathID(r, "sale_id"), req)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusCreated, viewRefund(rf))
}
