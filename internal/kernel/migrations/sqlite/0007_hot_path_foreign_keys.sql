-- Nothing changes on SQLite: PostgreSQL drops the foreign keys of the rows
-- every payment writes (see postgres/0007), SQLite keeps them, so the test
-- suite, which runs every store test on both engines, still refuses an
-- orphan. Kept as a file so both engines count the same versions.
SELECT 1;
