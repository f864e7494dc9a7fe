-- One table for every background job: a row is due while run_at <= now; a
-- claim moves run_at past its lease, so a crashed replica's job comes due
-- again. A periodic job has one row, named by its key, that runs again
-- after each pass. Owner mail kept for another attempt moves here.
CREATE TABLE jobs (
    id         INTEGER PRIMARY KEY AUTOINCREMENT,
    kind       TEXT NOT NULL,
    job_key    TEXT,             -- set for a job that exists once (a periodic pass)
    payload    BLOB NOT NULL,
    attempts   INTEGER NOT NULL, -- attempts made so far
    run_at     INTEGER NOT NULL, -- ms
    last_error TEXT NOT NULL,
    created_at INTEGER NOT NULL
);
CREATE INDEX jobs_due ON jobs(run_at, id);
CREATE UNIQUE INDEX jobs_key ON jobs(job_key);

INSERT INTO jobs (kind, payload, attempts, run_at, last_error, created_at)
SELECT 'mail.retry', message_sealed, attempts, next_attempt_at, last_error, created_at
FROM mail_retries ORDER BY id;
DROP TABLE mail_retries;
