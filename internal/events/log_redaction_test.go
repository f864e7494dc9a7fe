package events_test

import (
	"bytes"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store/storetest"
)

// lockedBuffer collects log output written from the dispatcher's goroutines.
type lockedBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

func (b *lockedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

func (b *lockedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}

// TestDeliveryFailureLogsRedactTheCallbackURL: a failed delivery is logged
// without the query or user information of the callback URL, whether the
// receiver answered an error or could not be reached (net/http's error
// quotes the URL whole).
func TestDeliveryFailureLogsRedactTheCallbackURL(t *testing.T) {
	t.Parallel()
	refused := httptest.NewServer(http.NotFoundHandler())
	refused.Close()
	failing := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
	}))
	t.Cleanup(failing.Close)
	for name, base := range map[string]string{"unreachable": refused.URL, "answers 500": failing.URL} {
		t.Run(name, func(t *testing.T) {
			t.Parallel()
			storetest.ForEach(t, func(t *testing.T, db *storetest.DB) {
				w := newWorld(t, db.Store)
				callback := strings.Replace(base, "http://", "http://hookuser:PASSWORD42@", 1) + "/h?token=SUPERSECRET123"
				w.bot(callback)
				logs := &lockedBuffer{}
				cfg := fastRetries
				cfg.MaxRetries, cfg.Logger = 1, slog.New(slog.NewTextHandler(logs, nil))
				stop := w.dispatcher(cfg).Start(t.Context())
				defer stop()
				w.waitDone(db.Store, 10*time.Second)
				out := logs.String()
				if !strings.Contains(out, "webhook delivery failed") {
					t.Fatalf("no failure logged:\n%s", out)
				}
				for _, secret := range []string{"SUPERSECRET123", "PASSWORD42", "hookuser"} {
					if strings.Contains(out, secret) {
						t.Errorf("the log holds %q:\n%s", secret, out)
					}
				}
			})
		})
	}
}
