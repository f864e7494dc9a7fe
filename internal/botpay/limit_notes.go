package botpay

import (
	"context"
	"sync"
)

// LimitState is where one rate limit stands after the request counted
// against it: Remaining requests of its quota, and ResetSeconds until the
// oldest counted request leaves the window.
type LimitState struct {
	RateLimit
	Remaining    int
	ResetSeconds int
}

// LimitNotes collects the rate limits one request was counted against, so
// that its answer can carry them in RateLimit headers whether or not it was
// refused. The store notes; the HTTP layer reads.
type LimitNotes struct {
	mu     sync.Mutex
	states []LimitState
}

type limitNotesKey struct{}

// WithLimitNotes returns a context whose limits are noted in n (which the
// caller may keep inside something it allocates anyway, such as a
// response writer, so the hot path pays for no extra allocation).
func WithLimitNotes(ctx context.Context, n *LimitNotes) context.Context {
	return context.WithValue(ctx, limitNotesKey{}, n)
}

// NoteLimit records st in the context's notes, if it has any. A limit
// noted again (a transaction run a second time) replaces its first note.
func NoteLimit(ctx context.Context, st LimitState) {
	n, _ := ctx.Value(limitNotesKey{}).(*LimitNotes)
	if n == nil {
		return
	}
	n.mu.Lock()
	defer n.mu.Unlock()
	for i := range n.states {
		if n.states[i].Policy == st.Policy {
			n.states[i] = st
			return
		}
	}
	n.states = append(n.states, st)
}

// States are the noted limits in the order they were first counted.
func (n *LimitNotes) States() []LimitState {
	n.mu.Lock()
	defer n.mu.Unlock()
	return append([]LimitState(nil), n.states...)
}
