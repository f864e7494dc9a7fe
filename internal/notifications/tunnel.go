package notifications

import (
	"context"
	"errors"
	"sync"
	"time"

	"github.com/botpay/botpay/internal/kernel"
)

// Tunnel timings.
const (
	// TunnelLongPoll is how long a tunnel client's poll waits for work
	// before an empty answer; clients poll again at once.
	TunnelLongPoll = 25 * time.Second
	// TunnelStale is how long after its last poll a client still counts as
	// connected (it may be busy delivering between polls).
	TunnelStale = 40 * time.Second
	// tunnelCheck is how often a waiting side re-reads the database for
	// work or answers queued by another replica.
	tunnelCheck = 20 * time.Millisecond
)

// ErrTunnelDown is the failure of a delivery to a bot whose tunnel client is
// not connected.
var ErrTunnelDown = errors.New("the bot's tunnel client is not connected")

// Hub relays deliveries to managed-tunnel clients through the database, so
// the dispatcher of any replica reaches a client long-polling any other:
// the dispatcher queues a tunnel request and waits for its answer; the
// client's poll claims it; the client posts the gateway's answer back.
// In-process signals only shorten the waits.
type Hub struct {
	db       *kernel.DB
	mu       sync.Mutex
	wake     map[string]*wakeup // bot id → its pollers' wake-up, while any polls
	closing  chan struct{}
	shutdown sync.Once
}

// NewHub builds the relay over db.
func NewHub(db *kernel.DB) *Hub {
	return &Hub{db: db, wake: map[string]*wakeup{}, closing: make(chan struct{})}
}

// Shutdown ends every long poll at once with an empty answer, so a server
// shutting down is not held up by them; the clients poll another replica
// (or this one after its restart) and keep their sessions.
func (h *Hub) Shutdown() { h.shutdown.Do(func() { close(h.closing) }) }

// wakeup is the wake-up of one bot's long polls on this replica.
type wakeup struct {
	c       chan struct{}
	pollers int
}

// listen registers a long poll of botID and returns its wake-up and the
// call that ends the registration; the last poll to leave frees the entry,
// so the hub holds one only for bots polling right now. A request queued
// while no poll listens is not lost: every poll claims from the database
// before it waits.
func (h *Hub) listen(botID string) (<-chan struct{}, func()) {
	h.mu.Lock()
	defer h.mu.Unlock()
	w, ok := h.wake[botID]
	if !ok {
		w = &wakeup{c: make(chan struct{}, 1)}
		h.wake[botID] = w
	}
	w.pollers++
	return w.c, func() {
		h.mu.Lock()
		defer h.mu.Unlock()
		if w.pollers--; w.pollers == 0 {
			delete(h.wake, botID)
		}
	}
}

func (h *Hub) notify(botID string) {
	h.mu.Lock()
	w := h.wake[botID]
	h.mu.Unlock()
	if w == nil {
		return
	}
	select {
	case w.c <- struct{}{}:
	default:
	}
}

// Relay implements the dispatcher's Relay: queue, then wait for the
// client's answer until ctx ends (the delivery time-out).
func (h *Hub) Relay(ctx context.Context, botID string, req RelayRequest) (int, error) {
	live, err := h.tunnelLive(ctx, botID, TunnelStale)
	if err != nil {
		return 0, err
	}
	if !live {
		return 0, ErrTunnelDown
	}
	deadline, ok := ctx.Deadline()
	if !ok {
		deadline = h.db.Clock().Now().Add(DefaultTimeout)
	}
	id, err := h.queueTunnelRequest(ctx, botID, TunnelRequest{Path: req.Path, Headers: req.Headers, Body: req.Body}, deadline)
	if err != nil {
		return 0, err
	}
	h.notify(botID)
	for {
		done, status, errText, err := h.tunnelAnswer(ctx, id)
		if err == nil && done {
			if errText != "" {
				return 0, errors.New("tunnel: " + errText)
			}
			return status, nil
		}
		if !sleep(ctx, tunnelCheck) {
			h.abandonTunnelRequest(context.WithoutCancel(ctx), id)
			return 0, ctx.Err()
		}
	}
}

// Next is a client's long poll: it marks the session live and returns the
// next delivery, or nil after TunnelLongPoll. When ctx ends because the
// client went away, the session is closed so dispatchers fail fast and the
// webhook degrades.
func (h *Hub) Next(ctx context.Context, botID, session string) (*TunnelRequest, error) {
	if _, err := h.touchTunnelSession(ctx, botID, session, TunnelStale); err != nil {
		return nil, err
	}
	end := time.NewTimer(TunnelLongPoll)
	defer end.Stop()
	touch := time.NewTicker(TunnelStale / 4)
	defer touch.Stop()
	check := time.NewTicker(tunnelCheck)
	defer check.Stop()
	wake, leave := h.listen(botID)
	defer leave()
	for {
		r, err := h.claimTunnelRequest(ctx, botID)
		if ctx.Err() != nil {
			return nil, h.closeTunnelSession(context.WithoutCancel(ctx), botID, session)
		}
		if err != nil || r != nil {
			return r, err
		}
		select {
		case <-ctx.Done():
			return nil, h.closeTunnelSession(context.WithoutCancel(ctx), botID, session)
		case <-end.C:
			return nil, nil
		case <-h.closing:
			return nil, nil
		case <-touch.C:
			if _, err := h.touchTunnelSession(ctx, botID, session, TunnelStale); err != nil {
				return nil, err
			}
		case <-wake:
		case <-check.C:
		}
	}
}

// Answer records the gateway's answer to a request the client received.
func (h *Hub) Answer(ctx context.Context, botID string, id int64, status int, errText string) error {
	return h.answerTunnelRequest(ctx, botID, id, status, errText)
}

// Disconnect closes a session at the client's request (clean shutdown).
func (h *Hub) Disconnect(ctx context.Context, botID, session string) error {
	return h.closeTunnelSession(ctx, botID, session)
}
