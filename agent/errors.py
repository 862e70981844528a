"""Every failure ScholarMap names, under one root: `except ScholarMapError` catches them all.

The branches say who must act: the user (`InputError`: the message says what to fix), the operator
(`ConfigError`), an outside service (`ServiceError`: it names the service, never a secret), or the product
itself (storage, local models, the conversation). The leaves live beside the code that raises them; this
module holds the root and the branches, and imports nothing from the project, so `tools/` may use it as it
uses `agent/models.py`. `tests/test_layers.py` checks that every exception class of the product derives from
the root and is drawn here.

    ScholarMapError
    ├── InputError (ValueError)                       the user's input cannot be used
    │   ├── InvalidDescription                        agent/understanding/description.py
    │   ├── NothingToSearch                           agent/search/guard.py
    │   ├── RunConfigError                            agent/search/executor.py
    │   ├── SnowballConfigError                       agent/search/snowball.py
    │   ├── ExportError                               agent/runs/exports.py
    │   ├── MeshBuildError                            tools/mesh_build.py
    │   ├── ResumeMismatch                            server/inputs.py
    │   │   └── InvalidInput
    │   └── CommandError                              server/cli/errors.py
    ├── ConfigError                                   a setting is missing or wrong (agent/settings.py)
    ├── ServiceError                                  an outside service failed
    │   ├── ServiceCallError                          tools/errors.py: one call (names service, status, kind)
    │   │   ├── SourceUnavailable
    │   │   │   └── SourceTimeout
    │   │   ├── RateLimited
    │   │   ├── BadResponse
    │   │   ├── NotFound
    │   │   └── BadQuery
    │   │       └── EmptyQuery
    │   ├── ZoteroError                               tools/zotero.py
    │   │   └── ZoteroAuthError
    │   ├── PdfError                                  tools/pdftext.py
    │   └── LLMError                                  agent/llm.py
    │       ├── LLMUnavailable
    │       └── InvalidLLMOutput
    ├── StepTimeout                                   agent/step_deadline.py: a step ran out of time
    ├── StorageError                                  Projects, Runs, the database, the retrieval index
    │   ├── StoreError                                agent/runs/store.py
    │   │   ├── InvalidId (ValueError)
    │   │   ├── ProjectNotFound (LookupError)
    │   │   ├── RunNotFound (LookupError)
    │   │   ├── ProjectExists
    │   │   └── CorruptRun
    │   ├── DatabaseError                             agent/db.py
    │   └── RunNotIndexed (LookupError)               tools/retrieval/engine.py
    ├── ModelError                                    a local model could not be loaded or run
    │   ├── EmbeddingModelError                       tools/embeddings/sentence.py
    │   ├── OnnxExportError                           tools/embeddings/onnx.py
    │   └── RerankerError                             tools/retrieval/rerank.py
    ├── PromptError                                   agent/prompts.py: a prompt file is missing or malformed
    └── ConversationError                             server/streaming/threads.py: a thread cannot take this now
        ├── ThreadNotFound (LookupError)
        ├── ThreadBusy
        ├── ThreadWaiting
        ├── StalePause
        └── ToolFailure                               server/adapters/mcp_tools.py: an MCP tool call failed
"""

from __future__ import annotations


class ScholarMapError(Exception):
    """The root of every failure ScholarMap names."""


class InputError(ScholarMapError, ValueError):
    """The user's input cannot be used; the message says what to fix."""


class ConfigError(ScholarMapError):
    """Start-up configuration is invalid; the message names the variable and what it accepts (never a secret)."""


class ServiceError(ScholarMapError):
    """An outside service (a database, a full-text host, the LLM endpoint) failed."""


class StorageError(ScholarMapError):
    """Stored Projects, Runs, the database or a Run's retrieval index cannot be read or written."""


class ModelError(ScholarMapError):
    """A local model (embeddings, reranker) could not be loaded or run."""


class ConversationError(ScholarMapError):
    """A conversation thread cannot take this request now (unknown, busy, waiting, stale)."""
