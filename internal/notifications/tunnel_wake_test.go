package notifications

import "testing"

// The hub keeps a bot's wake-up only while one of its long polls listens:
// a relay to a bot nobody polls leaves nothing behind, and the last poll to
// leave frees the entry (before, one stayed per bot for the process's
// life).
func TestHubKeepsWakeUpsOnlyWhilePollsListen(t *testing.T) {
	h := NewHub(nil)
	h.notify("bot_a")
	if n := h.listening(); n != 0 {
		t.Fatalf("a relay with no poll listening left %d wake-ups, want 0", n)
	}
	first, leaveFirst := h.listen("bot_a")
	second, leaveSecond := h.listen("bot_a")
	if first != second {
		t.Fatal("two polls of one bot got different wake-ups")
	}
	h.notify("bot_a")
	select {
	case <-first:
	default:
		t.Fatal("a relay did not wake the bot's polls")
	}
	leaveFirst()
	if n := h.listening(); n != 1 {
		t.Fatalf("%d wake-ups while one poll still listens, want 1", n)
	}
	leaveSecond()
	if n := h.listening(); n != 0 {
		t.Fatalf("%d wake-ups after the last poll left, want 0", n)
	}
}

// listening counts the bots with a wake-up on this replica.
func (h *Hub) listening() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return len(h.wake)
}
