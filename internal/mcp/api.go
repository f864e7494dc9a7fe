package mcp

import (
	"context"
	"errors"
	"fmt"
	"net/http"

	"github.com/botpay/botpay/client"
)

// UserAgent names the MCP server in the service's logs on every call it
// makes of the bot API.
const UserAgent = "botpay-mcp"

// NetworkAPI is the client of `botpay mcp`: the bot API of the service at
// baseURL, over the network, as the bot whose key is apiKey; hc nil takes
// the client's default (30 s per call).
func NetworkAPI(baseURL, apiKey string, hc *http.Client) *client.Client {
	return client.New(baseURL, apiKey, client.WithHTTPClient(hc), client.WithUserAgent(UserAgent))
}

// ErrKeyRefused is CheckKey's answer to a key the service does not accept.
var ErrKeyRefused = errors.New("the botpay service refuses this API key (missing, wrong or revoked)")

// CheckKey asks the service whether the bot's key is valid, so that
// `botpay mcp` with a bad key offers no tool at all. An error that is not
// ErrKeyRefused means the service could not say.
func CheckKey(ctx context.Context, bot *client.Client) error {
	var ans client.Answer
	_, err := bot.Status(ctx, client.WithAnswer(&ans))
	switch {
	case ans.StatusCode == 0:
		return fmt.Errorf("checking the API key: %w", err)
	case ans.StatusCode == 401:
		return ErrKeyRefused
	case !ans.OK():
		return fmt.Errorf("checking the API key: %w", err)
	}
	return nil
}
