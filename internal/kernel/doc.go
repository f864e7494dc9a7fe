// Package kernel is the database kernel every capability's SQL runs on:
// the connection pools of the engine in use, one transaction type (Tx)
// whose independent statements travel together on PostgreSQL (Pipeline,
// AtCommit), the write gate that admits transactions in arrival order, the
// SQLite statement cache, the error classification, the embedded
// migrations of both engines and the Driver that holds every difference
// between them.
//
// The kernel knows nothing of bots or money: it runs SQL it is given.
package kernel
