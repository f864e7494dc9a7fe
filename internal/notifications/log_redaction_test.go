package notifications_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/botpay/botpay/internal/store/storetest"
)

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
				logs := &storetest.LogBuffer{}
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
