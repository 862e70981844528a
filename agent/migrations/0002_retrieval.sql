-- The retrieval index of each Run: its papers, its sections (retrievable chunks) with their BM25
-- tokens and embeddings, and its term graph. Everything is keyed by run_id and removed with the Run.

CREATE TABLE IF NOT EXISTS retrieval_runs (
    run_id      text        PRIMARY KEY,
    -- bumped by every ingest that changed something; search caches compare it to stay fresh
    generation  bigint      NOT NULL DEFAULT 1,
    embed_model text        NOT NULL,
    dim         integer     NOT NULL,
    tokenizer   text        NOT NULL,   -- version of the BM25 tokeniser the stored tokens come from
    plan        jsonb,                  -- the Run's keyword plan: synonyms and jieba words at query time
    papers      integer     NOT NULL DEFAULT 0,
    sections    integer     NOT NULL DEFAULT 0,
    ingested_at timestamptz NOT NULL DEFAULT now()
);

CREATE TABLE IF NOT EXISTS retrieval_papers (
    run_id    text    NOT NULL REFERENCES retrieval_runs (run_id) ON DELETE CASCADE,
    paper_key text    NOT NULL,
    title     text    NOT NULL DEFAULT '',
    year      integer,
    doi       text,
    metadata  jsonb   NOT NULL DEFAULT '{}'::jsonb,
    PRIMARY KEY (run_id, paper_key)
);

-- One row per chunk. `embedding` has no fixed dimension so that a Run embedded with another model
-- (bge-m3: 1024) can live beside MiniLM ones (384); `dim` records it, and each dimension gets a
-- partial HNSW index over the cast column (pgvector's documented way to index mixed dimensions).
CREATE TABLE IF NOT EXISTS retrieval_sections (
    run_id       text    NOT NULL REFERENCES retrieval_runs (run_id) ON DELETE CASCADE,
    section_id   text    NOT NULL,       -- <paper key>#<section>#<ordinal>
    paper_key    text    NOT NULL,
    section      text    NOT NULL,
    kind         text    NOT NULL,
    ordinal      integer NOT NULL,
    position     integer NOT NULL,       -- order of the section inside its paper
    heading      text    NOT NULL DEFAULT '',
    text         text    NOT NULL,
    tokens       text    NOT NULL,       -- BM25 tokens of `text`, joined by spaces (no token contains one)
    searchable   boolean NOT NULL DEFAULT true,  -- false: a title its paper's other sections carry
    metadata     jsonb   NOT NULL DEFAULT '{}'::jsonb,
    content_hash text    NOT NULL,       -- of every stored field: equal hash, nothing to rewrite
    embed_hash   text    NOT NULL,       -- of model + embedded text: equal hash, the vector is reusable
    dim          integer NOT NULL,
    embedding    vector  NOT NULL,
    PRIMARY KEY (run_id, section_id)
);

-- Vectors stay uncompressed in the row: an exact scan of a Run's vectors then reads pages instead
-- of decompressing each value (8,000 sections: 7 ms instead of 30 ms). A row must still fit a page,
-- which holds up to ~1,900 dimensions — HNSW's own limit is 2,000.
ALTER TABLE retrieval_sections ALTER COLUMN embedding SET STORAGE PLAIN;

CREATE INDEX IF NOT EXISTS retrieval_sections_reading_order
    ON retrieval_sections (run_id, paper_key, position, ordinal);

CREATE INDEX IF NOT EXISTS retrieval_sections_hnsw_384
    ON retrieval_sections USING hnsw ((embedding::vector(384)) vector_cosine_ops)
    WHERE dim = 384;

CREATE TABLE IF NOT EXISTS retrieval_graphs (
    run_id     text   PRIMARY KEY REFERENCES retrieval_runs (run_id) ON DELETE CASCADE,
    generation bigint NOT NULL,
    data       jsonb  NOT NULL            -- TermGraph.to_json(): node and edge lists
);
