// Package jobs runs botpay's background work: jobs kept in the jobs table,
// enqueued in the transaction of the change that calls for them, claimed
// under a lease by one statement (SKIP LOCKED on PostgreSQL; SQLite has one
// writer), run by the handler registered for their kind, retried with one
// backoff, and forgotten when done. A periodic kind keeps one row that runs
// again every interval on whichever replica claims it. Every replica runs a
// Runner; the lease keeps a job on one replica at a time, and a replica that
// dies mid-run leaves its job to the next claim after the lease.
package jobs
