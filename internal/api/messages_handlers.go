package api

import (
	"encoding/json"
	"net/http"

	"github.com/botpay/botpay/internal/botpay"
	"github.com/botpay/botpay/wire"
)

func (s *Server) listMessages(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	list := newList(r, "messages", bot.ID, maxPageLimit)
	page, err := s.page(r, list)
	if err != nil {
		writeError(w, r, err)
		return
	}
	msgs, err := s.svc.Notifications().PendingMessages(r.Context(), bot, page)
	if err != nil {
		writeError(w, r, err)
		return
	}
	out := make([]wire.PendingMessage, len(msgs.Items))
	for i, m := range msgs.Items {
		out[i] = wire.PendingMessage{MessageID: m.ID, EventID: m.EventID, Event: m.Event, Data: m.Data, Timestamp: at(m.EventAt),
			StagedAt: at(m.StagedAt), ExpiresAt: at(m.ExpiresAt)}
	}
	more, cursor := s.pageEnd(list, msgs.Next)
	writeJSON(w, http.StatusOK, wire.ListMessagesResponse{Messages: out, Count: len(out), HasMore: more, NextCursor: cursor})
}

func (s *Server) ackMessages(w http.ResponseWriter, r *http.Request, bot botpay.Bot) {
	body, err := parseObject(r)
	if err != nil {
		writeError(w, r, err)
		return
	}
	var req wire.AckMessagesRequest
	req.MessageIDs = body.ids(body.into(&req).name(&req.MessageIDs))
	if err := body.err(); err != nil {
		writeError(w, r, err)
		return
	}
	acked, notFound, err := s.svc.Notifications().AckMessages(r.Context(), bot, req.MessageIDs)
	if err != nil {
		writeError(w, r, err)
		return
	}
	writeJSON(w, http.StatusOK, wire.AckMessagesResponse{Acknowledged: acked, NotFound: notFound})
}

// ids reads a required array of positive integer ids.
func (o *object) ids(name string) []int64 {
	v, ok := o.raw(name, requiredField)
	if !ok {
		return nil
	}
	var raw []json.RawMessage
	if v[0] != '[' || json.Unmarshal(v, &raw) != nil {
		o.fail(name, "must be an array of integer ids")
		return nil
	}
	out := make([]int64, 0, len(raw))
	for _, item := range raw {
		r, err := botpay.ParseDecimal(string(item))
		if len(item) == 0 || (item[0] != '-' && (item[0] < '0' || item[0] > '9')) || err != nil ||
			!r.IsInt() || !r.Num().IsInt64() || r.Num().Int64() < 1 {
			o.fail(name, "must be an array of integer ids")
			return nil
		}
		out = append(out, r.Num().Int64())
	}
	return out
}
