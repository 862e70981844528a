-- Several server processes on one database: each thread's event ids come from a counter in its row,
-- taken in the same statement that stores the event (no process keeps ids in memory).
ALTER TABLE threads ADD COLUMN IF NOT EXISTS last_event_id bigint NOT NULL DEFAULT 0;
UPDATE threads t
   SET last_event_id = coalesce((SELECT max(event_id) FROM thread_events e WHERE e.thread_id = t.thread_id), 0);
