# serve-for-load.sh is sourced by the load scripts (checkout-vs-pgbench.sh,
# checkout-drift.sh) from the repository's root with $work set to their
# temporary folder. start_botpay_for_load URL PORT copies BOTPAY_BIN, or
# builds this tree's botpay, builds loadgen, starts `botpay serve` on the
# PostgreSQL database URL at 127.0.0.1:PORT with rate limits high enough
# for a load run and waits until /readyz answers; server_pid is the
# server's pid, for the caller's clean-up.
start_botpay_for_load() {
	local url=$1 port=$2
	if [ -n "${BOTPAY_BIN:-}" ]; then cp "$BOTPAY_BIN" "$work/botpay"; else go build -o "$work/botpay" ./cmd/botpay; fi
	go build -o "$work/loadgen" ./bench/loadgen
	DATABASE_URL="$url" BOTPAY_ADDR=127.0.0.1:$port BOTPAY_DATA_DIR="$work/data" \
		BOTPAY_RATE_REGISTER_PER_HOUR=100000 BOTPAY_RATE_SIGNUP_PER_HOUR=100000 BOTPAY_RATE_CHECKOUT_PER_HOUR=1000000000 BOTPAY_LOG_LEVEL=warn \
		"$work/botpay" serve >"$work/server.log" 2>&1 &
	server_pid=$!
	for _ in $(seq 50); do
		curl -fsS "http://127.0.0.1:$port/readyz" >/dev/null 2>&1 && return 0
		sleep 0.2
	done
	echo "botpay did not answer /readyz on port $port; its log:" >&2
	cat "$work/server.log" >&2
	return 1
}
