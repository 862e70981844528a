"""One settings object for the whole service (env prefix `SCHOLARMAP_`, `.env` supported).

Outside-source base URLs are settings so that tests and offline machines can point every client at
the local fake-sources server. Secrets are `SecretStr`, so they never appear in a repr, a log line
or an error message.
"""

from __future__ import annotations

import re
from functools import lru_cache
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import AliasChoices, Field, SecretStr, ValidationError, field_validator, model_validator
from pydantic_settings import BaseSettings, SettingsConfigDict

from agent.errors import ConfigError

SOURCE_NAMES = (
    "pubmed",
    "mesh",
    "openalex",
    "semantic_scholar",
    "wikidata",
    "wikipedia",
    "europepmc",
    "unpaywall",
    "zotero",
)

DEFAULT_BASE_URLS: dict[str, str] = {
    "pubmed": "https://eutils.ncbi.nlm.nih.gov/entrez/eutils",
    "mesh": "https://id.nlm.nih.gov/mesh",
    "openalex": "https://api.openalex.org",
    "semantic_scholar": "https://api.semanticscholar.org/graph/v1",
    "wikidata": "https://www.wikidata.org/w/api.php",
    "wikipedia": "https://en.wikipedia.org/w/api.php",
    "europepmc": "https://www.ebi.ac.uk/europepmc/webservices/rest",
    "unpaywall": "https://api.unpaywall.org/v2",
    "zotero": "https://api.zotero.org",
}

PositiveFloat = Annotated[float, Field(gt=0)]
PositiveInt = Annotated[int, Field(gt=0)]


class Settings(BaseSettings):
    model_config = SettingsConfigDict(
        env_prefix="SCHOLARMAP_",
        env_file=".env",
        env_file_encoding="utf-8",
        extra="ignore",
        validate_default=True,
    )

    data_dir: Path = Field(
        Path("~/.scholarmap").expanduser(), description="Projects, Runs, embedded PostgreSQL, caches"
    )
    database_url: SecretStr | None = Field(
        None, description="External PostgreSQL with pgvector; unset = embedded pgserver"
    )

    # LLM: any OpenAI-compatible endpoint. OPENAI_API_KEY is read without the prefix, as every OpenAI tool does.
    openai_api_key: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("SCHOLARMAP_OPENAI_API_KEY", "OPENAI_API_KEY"),
        description="Key for the OpenAI-compatible endpoint; with none, the rules fallback runs",
    )
    llm_base_url: str | None = Field(
        None, description="e.g. https://api.deepseek.com/v1 or http://localhost:11434/v1"
    )
    llm_model: str = Field("gpt-4o-mini", description="Model name at the LLM endpoint")
    llm_temperature: float = Field(0.1, ge=0.0, le=2.0, description="At most 0.2 unless allowed below")
    llm_allow_high_temperature: bool = Field(False, description="Permit a temperature above 0.2")
    llm_timeout: PositiveFloat = Field(60.0, description="Seconds for one LLM call")
    llm: str = Field("auto", description="auto | openai | rules")

    # outside services
    ncbi_api_key: SecretStr | None = Field(
        None, description="NCBI E-utilities key (raises PubMed to 10 requests/s)"
    )
    contact_email: str = Field("scholarmap@example.org", description="Sent to NCBI, OpenAlex and Wikimedia")
    openalex_mailto: str | None = Field(
        None, description="OpenAlex polite-pool e-mail (default: contact e-mail)"
    )
    openalex_api_key: SecretStr | None = Field(None, description="OpenAlex API key")
    semantic_scholar_api_key: SecretStr | None = Field(
        None, description="Semantic Scholar API key (x-api-key)"
    )
    unpaywall_email: str | None = Field(
        None, description="E-mail Unpaywall requires (default: contact e-mail)"
    )
    zotero_api_key: SecretStr | None = Field(None, description="Zotero API key")
    zotero_library: str | None = Field(
        None, description="Zotero library read for full texts: 'users/<id>' or 'groups/<id>' (Web API)"
    )
    zotero_local: bool = Field(
        False, description="Read full texts from the Zotero 7 desktop app's local API instead of the Web API"
    )

    pubmed_base_url: str = DEFAULT_BASE_URLS["pubmed"]
    mesh_base_url: str = DEFAULT_BASE_URLS["mesh"]
    openalex_base_url: str = DEFAULT_BASE_URLS["openalex"]
    semantic_scholar_base_url: str = DEFAULT_BASE_URLS["semantic_scholar"]
    wikidata_base_url: str = DEFAULT_BASE_URLS["wikidata"]
    wikipedia_base_url: str = DEFAULT_BASE_URLS["wikipedia"]
    europepmc_base_url: str = DEFAULT_BASE_URLS["europepmc"]
    unpaywall_base_url: str = DEFAULT_BASE_URLS["unpaywall"]
    zotero_base_url: str = DEFAULT_BASE_URLS["zotero"]

    # HTTP policy
    http_timeout: PositiveFloat = Field(20.0, description="Seconds for one request, connect to last byte")
    http_retries: Annotated[int, Field(ge=0, le=10, description="Retries after a failed request")] = 4
    http_backoff: PositiveFloat = Field(0.5, description="First retry delay in seconds; doubles, with jitter")
    http_max_retry_after: PositiveFloat = Field(60.0, description="Longest Retry-After we will honour")
    http_concurrency: PositiveInt = Field(8, description="Requests in flight at once, per service")
    cache_ttl: Annotated[float, Field(ge=0)] = Field(
        7 * 24 * 3600.0, description="Response cache lifetime; 0 = off"
    )
    rate_pubmed: PositiveFloat | None = Field(
        None, description="Requests/s to NCBI; default 3, or 10 with an API key"
    )
    rate_semantic_scholar: PositiveFloat = Field(1.0, description="Requests/s to Semantic Scholar")
    rate_openalex: PositiveFloat = Field(10.0, description="Requests/s to OpenAlex")
    rate_wikimedia: PositiveFloat = Field(5.0, description="Requests/s to Wikidata and Wikipedia")
    rate_other: PositiveFloat = Field(
        5.0, description="Requests/s to Europe PMC, Unpaywall, Zotero, geocoding"
    )

    # Runs
    max_per_source: Annotated[
        int, Field(ge=1, le=10_000, description="Records fetched per source in a Run")
    ] = 200
    source_time_limit: PositiveFloat = Field(300.0, description="Seconds one source may take within a Run")
    step_time_limit: PositiveFloat = Field(
        90.0,
        description="Seconds a conversation step may spend on outside services (the keyword step); "
        "past it the step finishes without them and says so",
    )
    # citation snowballing (agent/search/snowball.py), when a Run asks for it
    snowball_depth: Annotated[
        int, Field(ge=1, le=5, description="Rounds of citation snowballing (`run --snowball`)")
    ] = 2
    snowball_budget: Annotated[
        int, Field(ge=1, le=5000, description="Requests snowballing may send to the sources, per Run")
    ] = 200
    snowball_seeds: Annotated[
        int, Field(ge=0, le=100, description="Top-ranked papers of a Run that seed snowballing")
    ] = 10
    snowball_saturation: Annotated[
        float,
        Field(
            ge=0,
            le=1,
            description="Snowballing stops when a round's share of new relevant papers is below this",
        ),
    ] = 0.1
    snowball_min_match: Annotated[
        float,
        Field(ge=0, le=1, description="Share of the plan's concepts a linked paper must mention to be kept"),
    ] = 0.5
    clarification_rounds: Annotated[
        int, Field(ge=0, le=10, description="Most clarification rounds before searching")
    ] = 3

    # retrieval models (loaded from local paths or installed packages; nothing is downloaded at run time
    # unless the name is a hub id and the machine is online)
    query_hit_limit: Annotated[
        int,
        Field(
            ge=1,
            description="A query finding more records than this gets a warning naming the block to tighten",
        ),
    ] = 20_000
    mesh_file: Path | None = Field(
        None,
        description=(
            "MeSH descriptor table (.jsonl[.gz]) for recognition, consulted before the MeSH services; "
            "default: the MeSH 2024 table ScholarMap ships (rebuild with `scholarmap mesh-build`)"
        ),
    )
    embedding_model: str = Field(
        "all-MiniLM-L6-v2", description="Packaged MiniLM, a local folder, or a hub id"
    )
    reranker_model: str = Field(
        "BAAI/bge-reranker-base", description="Cross-encoder for reranking (local folder or hub id)"
    )
    fulltext_budget_chars: Annotated[int, Field(ge=0)] = Field(
        200_000,
        description="Full text a question may pull in beyond the required papers (Related-Work tier), in characters",
    )
    fulltext_max_pdf_mb: Annotated[float, Field(gt=0, le=500)] = Field(
        30.0, description="Largest open-access PDF downloaded for full text, in MB"
    )
    embedding_backend: Literal["auto", "onnx", "torch"] = Field(
        "auto",
        description="Runtime of transformer + pooling embedding models: onnx (ONNX Runtime), torch, or auto",
    )
    ranking_precision: Literal["int8", "fp32"] = Field(
        "int8", description="Embedding precision of the Run ranking's similarity (int8 needs onnx)"
    )
    model_cache_dir: Path | None = Field(
        None, description="Folder of derived model files (ONNX exports); default ~/.cache/scholarmap/models"
    )

    # academic map: institutions are matched against this file when it is set
    ror_registry: Path | None = Field(
        None, description="Optional ROR-form institution registry (.json/.jsonl[.gz]), academic map"
    )

    # server
    api_token: SecretStr | None = Field(
        None, description="When set, every route but /healthz needs Authorization: Bearer"
    )
    host: str = Field("127.0.0.1", description="Address `scholarmap serve` binds")
    port: Annotated[int, Field(ge=1, le=65535, description="Port `scholarmap serve` listens on")] = 8000
    cors_origins: list[str] = Field(
        default_factory=list, description="Comma-separated origins; CORS is off when empty"
    )
    max_body_bytes: PositiveInt = Field(1_000_000, description="Largest request body; larger gets 413")
    public_url: str | None = Field(
        None, description="The web app's address (https://...), for links to Runs and maps in the chat bots"
    )

    # chat bots (`scholarmap slack`, `scholarmap teams`); secrets are never logged
    slack_bot_token: SecretStr | None = Field(None, description="Slack bot token (xoxb-...)")
    slack_app_token: SecretStr | None = Field(
        None, description="Slack app-level token (xapp-...), Socket Mode"
    )
    slack_signing_secret: SecretStr | None = Field(
        None, description="Slack signing secret, for HTTP events (`scholarmap slack --http`)"
    )
    slack_api_url: str = Field("https://slack.com/api/", description="Slack Web API base URL")
    chat_update_interval: PositiveFloat = Field(
        1.0, description="Seconds between two edits of one chat-bot message (Slack, Teams: answers, progress)"
    )
    teams_app_id: str | None = Field(None, description="Microsoft app (client) id of the Teams bot")
    teams_app_password: SecretStr | None = Field(None, description="Client secret of the Teams bot's app")
    teams_tenant_id: str | None = Field(None, description="Tenant of a single-tenant Teams bot")

    @field_validator("data_dir", mode="after")
    @classmethod
    def _expand(cls, value: Path) -> Path:
        return value.expanduser().resolve()

    @field_validator("llm")
    @classmethod
    def _llm_choice(cls, value: str) -> str:
        value = value.strip().lower()
        if value not in {"auto", "openai", "rules"}:
            raise ValueError("must be one of auto, openai, rules")
        return value

    @field_validator(
        *(f"{name}_base_url" for name in SOURCE_NAMES), "llm_base_url", "slack_api_url", "public_url"
    )
    @classmethod
    def _url(cls, value: str | None) -> str | None:
        if value is None:
            return None
        value = value.strip().rstrip("/")
        if not value.startswith(("http://", "https://")):
            raise ValueError("must be an http:// or https:// URL")
        return value

    @field_validator("cors_origins", mode="before")
    @classmethod
    def _origins(cls, value: Any) -> Any:
        if isinstance(value, str) and not value.strip().startswith("["):
            return [v.strip() for v in value.split(",") if v.strip()]
        return value

    @model_validator(mode="after")
    def _temperature_cap(self) -> Settings:
        # Extraction must be reproducible; a higher temperature is an explicit, deliberate choice.
        if self.llm_temperature > 0.2 and not self.llm_allow_high_temperature:
            raise ValueError(
                "SCHOLARMAP_LLM_TEMPERATURE above 0.2 needs SCHOLARMAP_LLM_ALLOW_HIGH_TEMPERATURE=true"
            )
        return self

    # ------------------------------------------------------------------------------------------

    def base_url(self, source: str) -> str:
        return str(getattr(self, f"{source}_base_url"))

    @property
    def pubmed_rate(self) -> float:
        if self.rate_pubmed is not None:
            return self.rate_pubmed
        return 10.0 if self.ncbi_api_key else 3.0

    @property
    def llm_configured(self) -> bool:
        if self.llm == "rules":
            return False
        return self.openai_api_key is not None or self.llm_base_url is not None

    @property
    def projects_dir(self) -> Path:
        return self.data_dir / "projects"

    def public_dict(self) -> dict[str, Any]:
        """Settings safe to record in a Run or show at /healthz: every secret reduced to set/unset."""
        out: dict[str, Any] = {}
        for name, value in self.model_dump().items():
            if isinstance(value, SecretStr) or name in {"database_url"}:
                out[name] = "set" if value else None
            elif isinstance(value, Path):
                out[name] = str(value)
            elif isinstance(value, str) and name.endswith("base_url"):
                # a URL may carry credentials (https://user:password@host/v1): keep only the user
                out[name] = re.sub(r"(://[^:/@]*):[^@/]*@", r"\1:***@", value)
            else:
                out[name] = value
        return out


def format_validation_error(error: ValidationError) -> str:
    """One line per bad variable: its environment name, the value's problem and what it accepts."""
    lines = []
    for item in error.errors():
        loc = item.get("loc") or ()
        field = str(loc[0]) if loc else ""
        env = f"SCHOLARMAP_{field.upper()}" if field else "settings"
        if field == "openai_api_key":
            env = "OPENAI_API_KEY"
        message = item.get("msg", "invalid value").removeprefix("Value error, ")
        lines.append(f"{env}: {message}")
    return "; ".join(lines)


def load_settings(**overrides: Any) -> Settings:
    """Build settings from the environment (and `.env`), raising ConfigError with a readable message."""
    try:
        return Settings(**overrides)
    except ValidationError as error:
        raise ConfigError(f"invalid configuration: {format_validation_error(error)}") from None


@lru_cache(maxsize=1)
def get_settings() -> Settings:
    return load_settings()
