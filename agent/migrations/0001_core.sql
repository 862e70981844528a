-- Core schema: the vector extension and the replayable event log of conversation threads.
CREATE EXTENSION IF NOT EXISTS vector;

-- Every SSE event a thread emitted, so a client that lost its connection can replay what it missed
-- (Last-Event-ID). Rows older than the retention window are pruned by the server.
CREATE TABLE IF NOT EXISTS thread_events (
    thread_id  text        NOT NULL,
    event_id   bigint      NOT NULL,
    type       text        NOT NULL,
    data       jsonb       NOT NULL,
    ts         timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (thread_id, event_id)
);
CREATE INDEX IF NOT EXISTS thread_events_ts ON thread_events (ts);

-- Threads: one conversation in one Project, with its active Run.
CREATE TABLE IF NOT EXISTS threads (
    thread_id     text        PRIMARY KEY,
    project_id    text        NOT NULL,
    active_run_id text,
    chat_key      text        UNIQUE,
    created_at    timestamptz NOT NULL DEFAULT now(),
    updated_at    timestamptz NOT NULL DEFAULT now()
);
