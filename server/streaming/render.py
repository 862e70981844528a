"""Plain-text renderings of stream events, for chat clients, bots and the terminal."""

from __future__ import annotations

from typing import Any

from agent.models import Source

SOURCE_NAMES = {source.value: source.label for source in Source}


def _slots_text(slots: dict[str, Any]) -> str:
    lines = []
    for name, value in slots.items():
        if not value:
            continue
        shown = "; ".join(value) if isinstance(value, list) else str(value)
        lines.append(f"- {name.replace('_', ' ')}: {shown}")
    return "\n".join(lines) or "- (nothing yet)"


def render_interrupt(payload: dict[str, Any]) -> str:
    kind = payload.get("kind")
    if kind == "clarification":
        parts = []
        if payload.get("summary"):
            parts.append(f"Here is what I understood so far: {payload['summary']}")
        questions = payload.get("questions") or []
        parts.append("Before I search, a few questions:")
        parts += [f"{i}. {q.get('question', '')}" for i, q in enumerate(questions, 1)]
        parts.append("Answer them in one message (numbered answers are fine).")
        return "\n".join(parts)
    if kind == "confirmation":
        parts = [
            f"My interpretation: {payload.get('summary') or ''}".strip(),
            _slots_text(payload.get("slots") or {}),
        ]
        if payload.get("uncertainties"):
            parts.append("Still uncertain: " + "; ".join(payload["uncertainties"]))
        if payload.get("produced_by") == "rules":
            parts.append("(No LLM is configured: this interpretation comes from the rule-based fallback.)")
        parts.append("Reply 'yes' to confirm, or tell me what to correct.")
        return "\n".join(parts)
    if kind == "review":
        parts = []
        if payload.get("error"):
            parts.append(f"I could not apply that edit: {payload['error']}")
        if payload.get("diff"):
            parts.append(f"Changes: {render_diff(payload['diff'])}")
        parts.append(render_keywords(payload, payload.get("queries") or {}))
        parts.append(
            "Reply 'yes' to search, or edit: 'add term: X', 'remove term: X', "
            "'add synonym Y to X', 'remove synonym Y from X', 'make X optional', 'require X', "
            "'split X', 'merge X and Y', 'move X to Y', 'switch on filter X'."
        )
        return "\n".join(parts)
    return str(payload)


def _synonym_text(synonym: dict[str, Any]) -> str:
    origins = "+".join(synonym.get("origins") or []) or "?"
    hits = ", ".join(f"{db} {n:,}" for db, n in (synonym.get("hits") or {}).items() if n is not None)
    return f"{synonym.get('text')} [{origins}{'; ' + hits if hits else ''}]"


def render_keywords(keywords: dict[str, Any], queries: dict[str, Any], *, dropped: bool = False) -> str:
    """A keyword plan and its queries (JSON shapes of keywords.json / queries.json) for a person.

    Concepts are listed with their role and whether they are AND'ed, each term with its MeSH heading
    and its synonyms (origin and hit counts); `dropped` adds the synonyms left out and why.
    """
    terms = keywords.get("terms") or []
    concepts = keywords.get("concepts") or []
    lines: list[str] = []
    if concepts:
        lines.append("Concepts (required ones are AND'ed; the terms of a concept are OR'ed):")
        for concept in concepts:
            state = (
                "off"
                if not concept.get("enabled", True)
                else ("required" if concept.get("required") else "optional")
            )
            lines.append(
                f"- {concept.get('label')} [{concept.get('role')}, {state}]: {concept.get('reason', '')}"
            )
            for term in (t for t in terms if t.get("concept") == concept.get("id")):
                lines += _term_lines(term, dropped)
    else:
        lines.append("Search terms:")
        for term in terms:
            lines += _term_lines(term, dropped)
    for study in keywords.get("study_filters") or []:
        state = "on: AND'ed into the queries" if study.get("enabled") else "off"
        if study.get("first_year") or study.get("last_year"):
            span = f"{study.get('first_year') or ''}-{study.get('last_year') or ''}"
            lines.append(f"Publication-years filter ({state}): {study.get('text')} ({span})")
            continue
        heading = f" (MeSH {study['heading']})" if study.get("heading") else ""
        lines.append(f"Study-type filter ({state}): {study.get('text')}{heading}")
    for note in keywords.get("notes") or []:
        lines.append(f"note: {note}")
    for error in keywords.get("source_errors") or []:
        lines.append(f"(synonym source {error.get('source')} failed: {error.get('message')})")
    lines.append(render_queries(queries))
    return "\n".join(line for line in lines if line)


def render_queries(queries: dict[str, Any] | None) -> str:
    """The queries of a plan or Run (queries.json's shape), their hit counts and notes."""
    lines: list[str] = []
    listed = (queries or {}).get("queries") or {}
    if listed:
        lines.append("Queries:")
        for source, query in listed.items():
            lines.append(f"- {SOURCE_NAMES.get(source, source)}: {query.get('query')}")
    for count in (queries or {}).get("counts") or []:
        where = count.get("concept") or "whole query"
        hits = count.get("hits")
        lines.append(
            f"  {SOURCE_NAMES.get(count.get('source'), count.get('source'))} hits, {where}: "
            f"{'?' if hits is None else f'{hits:,}'}{' - ' + count['note'] if count.get('note') else ''}"
        )
    for note in (queries or {}).get("notes") or []:
        lines.append(f"note: {note}")
    return "\n".join(lines)


def _term_lines(term: dict[str, Any], dropped: bool) -> list[str]:
    mesh = term.get("mesh") or {}
    heading = f" [MeSH: {mesh.get('heading')}]" if mesh.get("heading") else ""
    broader = [d.get("heading") for d in term.get("broader") or [] if d.get("heading")]
    if heading and broader:
        heading = heading[:-1] + f"; also unexploded: {', '.join(broader)}]"
    original = f" (written: {term['original']})" if term.get("original") else ""
    hits = ", ".join(f"{db} {n:,}" for db, n in (term.get("hits") or {}).items() if n is not None)
    lines = [f"    {term.get('canonical')}{heading}{original}{' - ' + hits if hits else ''}"]
    kept = [s for s in term.get("synonyms") or [] if s.get("kept", True)]
    if kept:
        lines.append("      synonyms: " + "; ".join(_synonym_text(s) for s in kept))
    if dropped:
        for synonym in (s for s in term.get("synonyms") or [] if not s.get("kept", True)):
            lines.append(f"      dropped: {_synonym_text(synonym)} - {synonym.get('reason')}")
    return lines


def render_diff(diff: Any) -> str:
    if isinstance(diff, dict):
        if diff.get("summary"):
            return str(diff["summary"])
        items = [
            f"{key}: {', '.join(map(str, value))}"
            for key, value in diff.items()
            if value and isinstance(value, list)
        ]
        return "; ".join(items) or "no changes"
    return str(diff)


def render_progress(data: dict[str, Any]) -> str | None:
    """One line when a source finishes or fails; page-by-page progress is left to progress bars."""
    name = SOURCE_NAMES.get(data.get("source", ""), data.get("source", ""))
    stage = data.get("stage")
    if stage == "done":
        total = data.get("total")
        return f"{name}: {data.get('fetched', 0)} records fetched" + (
            f" of {total}" if total is not None else ""
        )
    if stage == "failed":
        return f"{name}: failed ({data.get('message') or 'error'})"
    return None


def render_run_ready(data: dict[str, Any]) -> str:
    counts = data.get("counts") or {}
    merged = counts.get("aggregated")
    parts = [f"Run {data.get('run_id')} saved ({data.get('status')})"]
    if merged is not None:
        parts.append(f"{merged} papers after merging")
    errors = data.get("errors") or []
    if errors:
        parts.append("errors: " + "; ".join(f"{e.get('source')}: {e.get('message')}" for e in errors))
    if data.get("snowball"):
        parts.append(str(data["snowball"]))
    return ", ".join(parts) + ". Ask me questions about these papers, or say '/map' for the academic map."


def render_sources(citations: list[dict[str, Any]]) -> str:
    seen: dict[int, dict[str, Any]] = {}
    for citation in citations:
        seen.setdefault(int(citation.get("n", len(seen) + 1)), citation)
    lines = ["Sources:"]
    for n in sorted(seen):
        c = seen[n]
        year = f" ({c['year']})" if c.get("year") else ""
        doi = f" https://doi.org/{c['doi']}" if c.get("doi") else ""
        section = f", {c['section']}" if c.get("section") else ""
        lines.append(f"[{n}] {c.get('title') or c.get('paper_key')}{year}{section}{doi}")
    return "\n".join(lines)
