package botpay

// CodeChainUnavailable is a request that needed the chain (a balance, a
// check or a transaction) when the node did not answer usefully: down,
// slow, an HTML error page, a JSON-RPC error or a malformed result. It is
// never answered as a refusal: the service does not know.
const CodeChainUnavailable = "chain_unavailable"

// ChainRetrySeconds is the Retry-After of chain_unavailable: a node or a
// hosted endpoint that failed is usually back, or failed over, soon.
const ChainRetrySeconds = 5

// ChainUnavailable is the 503 of a request the chain could not answer;
// nothing was promised, sent or recorded.
func ChainUnavailable(what string) *Error {
	return &Error{Kind: KindUnavailable, Code: CodeChainUnavailable, RetryAfterSeconds: ChainRetrySeconds,
		Message: "the chain cannot be read right now (" + what + "); nothing was signed, sent or recorded; retry after a few seconds"}
}
