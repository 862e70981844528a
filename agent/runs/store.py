"""Projects and their immutable Runs, kept as plain files under `<data_dir>/projects/`.

Layout (ARCHITECTURE.md, "Where data lives"):

    projects/<project_id>/project.json
    projects/<project_id>/runs/run_<run_id>/{run,understanding,keywords,queries,results_*}.json
    projects/<project_id>/derived/run_<run_id>/map.json      (recomputable artefacts, never inside the Run)

A Run is written into a hidden temporary folder and renamed into place in one `rename(2)`, so a reader
either sees the whole Run or none of it; a writer killed half-way leaves only a `.tmp-*` folder that
listings ignore and later writes sweep away. Runs are never edited after the rename.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import re
import secrets
import shutil
import time
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ValidationError

from agent.errors import StorageError
from agent.models import (
    AggregatedPaper,
    KeywordPlan,
    Paper,
    Project,
    QueryPlan,
    Run,
    RunData,
    Source,
    Understanding,
)

PROJECT_ID_PATTERN = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
RUN_ID_PATTERN = re.compile(r"^[0-9]{8}T[0-9]{6}-[0-9a-f]{6}$")
RUN_FILES = (
    "run.json",
    "understanding.json",
    "keywords.json",
    "queries.json",
    *(f"results_{source.value}.json" for source in Source),
    "results_aggregated.json",
)
# files only some Runs have: what citation snowballing found (agent/search/snowball.py), when it was asked for
OPTIONAL_RUN_FILES = ("results_snowball.json",)
_STALE_TEMP_SECONDS = 3600.0


class StoreError(StorageError):
    """Base class for run-store errors; the message says what to fix."""


class InvalidId(StoreError, ValueError):
    pass


class ProjectNotFound(StoreError, LookupError):
    def __init__(self, project_id: str) -> None:
        super().__init__(f"project '{project_id}' does not exist")
        self.project_id = project_id


class ProjectExists(StoreError):
    def __init__(self, project_id: str) -> None:
        super().__init__(f"project '{project_id}' already exists")
        self.project_id = project_id


class RunNotFound(StoreError, LookupError):
    def __init__(self, run_id: str) -> None:
        super().__init__(f"run '{run_id}' does not exist")
        self.run_id = run_id


class CorruptRun(StoreError):
    pass


def validate_project_id(project_id: str) -> str:
    if not isinstance(project_id, str) or not PROJECT_ID_PATTERN.fullmatch(project_id):
        raise InvalidId(
            f"invalid project id {project_id!r}: use 1-64 lower-case letters, digits, '-' or '_', "
            "starting with a letter or digit"
        )
    return project_id


def validate_run_id(run_id: str) -> str:
    if not isinstance(run_id, str) or not RUN_ID_PATTERN.fullmatch(run_id):
        raise InvalidId(f"invalid run id {run_id!r}: expected the form 20261123T101500-1a2b3c")
    return run_id


def slugify(name: str) -> str:
    """A project id from a human name ('Speech BCI 2026' -> 'speech-bci-2026')."""
    slug = re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:64].strip("-")
    return slug or "project"


def new_run_id(now: datetime | None = None) -> str:
    now = now or datetime.now(UTC)
    return f"{now:%Y%m%dT%H%M%S}-{secrets.token_hex(3)}"


def _dump(value: Any) -> bytes:
    if isinstance(value, BaseModel):
        return value.model_dump_json(indent=2).encode()
    return json.dumps(value, ensure_ascii=False, indent=2, default=str).encode()


def _write_file(path: Path, data: bytes) -> None:
    with open(path, "wb") as handle:
        handle.write(data)
        handle.flush()
        os.fsync(handle.fileno())


_WRITE_BATCH = 100  # records serialized per write: a Run's 10,000 records are ~55 MB of JSON


def _write_records(path: Path, items: Sequence[BaseModel]) -> None:
    """A list of records as a JSON array with one record per line (readable, greppable, still plain
    JSON), streamed to the file a batch at a time: the JSON of a whole list is never held in memory."""
    with open(path, "wb") as handle:
        if not items:
            handle.write(b"[]")
        else:
            handle.write(b"[\n")
            for start in range(0, len(items), _WRITE_BATCH):
                batch = items[start : start + _WRITE_BATCH]
                handle.write(b",\n" if start else b"")
                handle.write(b",\n".join(item.__pydantic_serializer__.to_json(item) for item in batch))
            handle.write(b"\n]\n")
        handle.flush()
        os.fsync(handle.fileno())


def _fsync_dir(path: Path) -> None:
    fd = os.open(path, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


class RunWriter:
    """A Run being written: parts go into its hidden temporary folder as soon as they are ready (a
    source's results while the others still search), and `commit` renames the whole into place.

    Until `commit` nothing is visible; `abort` (or a killed process, swept later) leaves nothing.
    `write_results` may be called from worker threads, one source each.
    """

    def __init__(self, temp: Path, final: Path) -> None:
        self.temp = temp
        self.final = final
        self._written: set[str] = set()

    def write_results(self, source: Source, papers: Sequence[Paper]) -> None:
        name = f"results_{source.value}.json"
        _write_records(self.temp / name, papers)
        self._written.add(name)

    def write_file(self, name: str, records: Sequence[BaseModel]) -> None:
        """One of the Run's optional files (`OPTIONAL_RUN_FILES`): a list of records."""
        if name not in OPTIONAL_RUN_FILES:
            raise StoreError(f"unknown run file {name!r}; expected one of {', '.join(OPTIONAL_RUN_FILES)}")
        _write_records(self.temp / name, records)
        self._written.add(name)

    def commit(
        self,
        run: Run,
        *,
        understanding: Understanding | None = None,
        keywords: KeywordPlan | None = None,
        queries: QueryPlan | None = None,
        aggregated: list[AggregatedPaper] | None = None,
    ) -> Path:
        """Write the remaining files, run.json last, and rename the folder into place; returns it."""
        if run.id not in self.final.name:
            raise StoreError(f"run '{run.id}' does not belong to the folder {self.final.name}")
        files: dict[str, Any] = {
            "understanding.json": understanding.model_dump(mode="json") if understanding else None,
            "keywords.json": keywords.model_dump(mode="json") if keywords else None,
            "queries.json": queries.model_dump(mode="json") if queries else None,
        }
        for name, value in files.items():
            _write_file(self.temp / name, _dump(value))
        _write_records(self.temp / "results_aggregated.json", aggregated or [])
        for source in Source:  # a source that was not searched, or failed, has an empty list
            if f"results_{source.value}.json" not in self._written:
                _write_records(self.temp / f"results_{source.value}.json", [])
        # run.json last: a folder holding run.json is a finished write.
        _write_file(self.temp / "run.json", _dump(run))
        _fsync_dir(self.temp)
        if self.final.exists():
            raise StoreError(f"run '{run.id}' already exists; Runs are immutable")
        os.rename(self.temp, self.final)
        _fsync_dir(self.final.parent)
        return self.final

    def abort(self) -> None:
        shutil.rmtree(self.temp, ignore_errors=True)


class RunStore:
    """The file store of Projects and Runs rooted at `root` (normally `settings.projects_dir`)."""

    def __init__(self, root: Path) -> None:
        self.root = Path(root)
        self.root.mkdir(parents=True, exist_ok=True)

    # -- projects ---------------------------------------------------------------------------------

    def project_dir(self, project_id: str) -> Path:
        return self.root / validate_project_id(project_id)

    def create_project(self, name: str, description: str = "", project_id: str | None = None) -> Project:
        name = (name or "").strip()
        if not name and project_id is None:
            raise InvalidId("a project needs a name")
        project_id = validate_project_id(slugify(name) if project_id is None else project_id)
        directory = self.root / project_id
        with self._lock(project_id):
            if (directory / "project.json").exists():
                raise ProjectExists(project_id)
            (directory / "runs").mkdir(parents=True, exist_ok=True)
            project = Project(id=project_id, name=name or project_id, description=description)
            self._write_project(project)
        return project

    def ensure_project(self, project_id: str, name: str | None = None) -> Project:
        """The project with this id, created on first use (the CLI's `--project P`)."""
        try:
            return self.get_project(project_id)
        except ProjectNotFound:
            try:
                return self.create_project(name or project_id, project_id=project_id)
            except ProjectExists:  # another process won the race
                return self.get_project(project_id)

    def get_project(self, project_id: str) -> Project:
        path = self.project_dir(project_id) / "project.json"
        if not path.exists():
            raise ProjectNotFound(project_id)
        return self._read_model(path, Project)

    def list_projects(self) -> list[Project]:
        projects = []
        for path in sorted(self.root.glob("*/project.json")):
            if PROJECT_ID_PATTERN.fullmatch(path.parent.name):
                projects.append(self._read_model(path, Project))
        return sorted(projects, key=lambda project: project.created_at)

    def choose_run(self, project_id: str, run_id: str) -> Project:
        """Mark the Run used for Phase 2. The Run must belong to the project."""
        run = self.get_run(run_id)
        if run.project_id != project_id:
            raise RunNotFound(f"{run_id} (it belongs to project '{run.project_id}')")
        with self._lock(project_id):
            project = self.get_project(project_id).model_copy(update={"chosen_run_id": run_id})
            self._write_project(project)
        return project

    # -- runs -------------------------------------------------------------------------------------

    def save_run(
        self,
        run: Run,
        *,
        understanding: Understanding | None = None,
        keywords: KeywordPlan | None = None,
        queries: QueryPlan | None = None,
        results: dict[Source, list[Paper]] | None = None,
        aggregated: list[AggregatedPaper] | None = None,
    ) -> Path:
        """Write a whole Run atomically and return its folder. Existing Runs are never overwritten."""
        writer = self.begin_run(run.project_id, run.id)
        try:
            for source, papers in (results or {}).items():
                writer.write_results(source, papers)
            return writer.commit(
                run, understanding=understanding, keywords=keywords, queries=queries, aggregated=aggregated
            )
        except BaseException:
            writer.abort()
            raise

    def begin_run(self, project_id: str, run_id: str) -> RunWriter:
        """Start writing a Run whose parts become ready at different times (see `RunWriter`)."""
        validate_run_id(run_id)
        project_dir = self.project_dir(project_id)
        if not (project_dir / "project.json").exists():
            raise ProjectNotFound(project_id)
        runs_dir = project_dir / "runs"
        runs_dir.mkdir(exist_ok=True)
        self._sweep_stale_temps(runs_dir)
        if (runs_dir / f"run_{run_id}").exists():
            raise StoreError(f"run '{run_id}' already exists; Runs are immutable")
        temp = runs_dir / f".tmp-run_{run_id}-{os.getpid()}-{secrets.token_hex(3)}"
        temp.mkdir()
        return RunWriter(temp, runs_dir / f"run_{run_id}")

    def list_runs(self, project_id: str) -> list[Run]:
        runs_dir = self.project_dir(project_id) / "runs"
        if not (self.project_dir(project_id) / "project.json").exists():
            raise ProjectNotFound(project_id)
        runs = [self._read_model(path, Run) for path in runs_dir.glob("run_*/run.json")]
        return sorted(runs, key=lambda run: (run.created_at, run.id))

    def run_dir(self, run_id: str) -> Path:
        validate_run_id(run_id)
        for candidate in self.root.glob(f"*/runs/run_{run_id}"):
            if (candidate / "run.json").exists():
                return candidate
        raise RunNotFound(run_id)

    def get_run(self, run_id: str) -> Run:
        return self._read_model(self.run_dir(run_id) / "run.json", Run)

    def run_file_path(self, run_id: str, name: str) -> Path:
        """Where one of a Run's files is stored (for streaming it as it is); StoreError if it has none."""
        if name not in RUN_FILES + OPTIONAL_RUN_FILES:
            raise StoreError(f"unknown run file {name!r}; expected one of {', '.join(RUN_FILES)}")
        path = self.run_dir(run_id) / name
        if not path.is_file():
            raise StoreError(f"run '{run_id}' has no {name}")
        return path

    def read_run_file(self, run_id: str, name: str) -> Any:
        if name not in RUN_FILES + OPTIONAL_RUN_FILES:
            raise StoreError(f"unknown run file {name!r}; expected one of {', '.join(RUN_FILES)}")
        path = self.run_dir(run_id) / name
        try:
            return json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError as exc:
            raise StoreError(f"run '{run_id}' has no {name}") from exc
        except (json.JSONDecodeError, UnicodeDecodeError) as exc:
            # No server path in the message: it reaches API clients.
            raise CorruptRun(
                f"the stored file {name} of run '{run_id}' is damaged (not valid JSON); it cannot be served"
            ) from exc

    def load_run(self, run_id: str) -> RunData:
        directory = self.run_dir(run_id)

        def optional(name: str, model: type[BaseModel]) -> Any:
            raw = self.read_run_file(run_id, name) if (directory / name).exists() else None
            return model.model_validate(raw) if raw is not None else None

        try:
            return RunData(
                run=self.get_run(run_id),
                understanding=optional("understanding.json", Understanding),
                keywords=optional("keywords.json", KeywordPlan),
                queries=optional("queries.json", QueryPlan),
                results={
                    source: [Paper.model_validate(item) for item in self.read_run_file(run_id, name)]
                    for source in Source
                    if (directory / (name := f"results_{source.value}.json")).exists()
                },
                aggregated=[
                    AggregatedPaper.model_validate(item)
                    for item in self.read_run_file(run_id, "results_aggregated.json")
                ],
            )
        except ValidationError as exc:
            raise CorruptRun(f"run '{run_id}' does not match the current schema: {exc}") from exc

    def load_aggregated(self, run_id: str) -> list[AggregatedPaper]:
        return [
            AggregatedPaper.model_validate(item)
            for item in self.read_run_file(run_id, "results_aggregated.json")
        ]

    # -- derived artefacts ---------------------------------------------------------------------------

    def derived_dir(self, run_id: str) -> Path:
        run = self.get_run(run_id)
        return self.project_dir(run.project_id) / "derived" / f"run_{run_id}"

    def write_derived(self, run_id: str, name: str, data: Any) -> Path:
        """Write a recomputable artefact (e.g. map.json) beside the Run, atomically, leaving the Run untouched."""
        if "/" in name or name.startswith("."):
            raise StoreError(f"invalid artefact name {name!r}")
        directory = self.derived_dir(run_id)
        directory.mkdir(parents=True, exist_ok=True)
        temp = directory / f".tmp-{name}-{os.getpid()}-{secrets.token_hex(3)}"
        _write_file(temp, data if isinstance(data, bytes) else _dump(data))
        os.replace(temp, directory / name)
        return directory / name

    def read_derived(self, run_id: str, name: str) -> bytes | None:
        path = self.derived_dir(run_id) / name
        return path.read_bytes() if path.exists() else None

    # -- internals ------------------------------------------------------------------------------------

    def _write_project(self, project: Project) -> None:
        directory = self.root / project.id
        temp = directory / f".project.json.{os.getpid()}.{secrets.token_hex(3)}"
        _write_file(temp, _dump(project))
        os.replace(temp, directory / "project.json")

    @contextlib.contextmanager
    def _lock(self, project_id: str) -> Iterator[None]:
        """An advisory lock per project, so two processes don't interleave project.json updates."""
        lock_path = self.root / f".{project_id}.lock"
        with open(lock_path, "a") as handle:
            fcntl.flock(handle, fcntl.LOCK_EX)
            try:
                yield
            finally:
                fcntl.flock(handle, fcntl.LOCK_UN)

    @staticmethod
    def _read_model(path: Path, model: type[Any]) -> Any:
        try:
            return model.model_validate_json(path.read_bytes())
        except ValidationError as exc:
            # Named by its folder and file, never by the server's absolute path (messages reach clients).
            where = f"{path.parent.name}/{path.name}"
            first = exc.errors(include_url=False)[0]
            field = ".".join(map(str, first.get("loc", ()))) or "the document"
            raise CorruptRun(
                f"the stored file {where} is damaged or from an incompatible version "
                f"({exc.error_count()} problem(s), first at {field}: {first.get('msg')})"
            ) from exc

    @staticmethod
    def _sweep_stale_temps(runs_dir: Path) -> None:
        """Remove temporary folders left by writers that died (old enough that no writer still owns them)."""
        cutoff = time.time() - _STALE_TEMP_SECONDS
        for temp in runs_dir.glob(".tmp-run_*"):
            with contextlib.suppress(OSError):
                if not _writer_alive(temp.name) or temp.stat().st_mtime < cutoff:
                    shutil.rmtree(temp)


def _writer_alive(temp_name: str) -> bool:
    """Temporary folders are named `.tmp-run_<run id>-<pid>-<hex>`; is that pid still running?"""
    parts = temp_name.split("-")
    try:
        pid = int(parts[-2])
    except (IndexError, ValueError):
        return False
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
