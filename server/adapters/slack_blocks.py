"""Block Kit for the Slack bot: the three pauses as messages with buttons, a Run, progress, sources.

Pure functions from event payloads to (fallback text, blocks), so the bot module only sends them. Every
button carries the ScholarMap thread id and the pause it answers in its `value`; the plain-text
fallback is `server.streaming.render`'s, the same words the OpenAI-compatible endpoint and the terminal show.
"""

from __future__ import annotations

import json
from typing import Any

from server.streaming.render import SOURCE_NAMES, render_diff, render_interrupt, render_run_ready

MAX_SECTION = 2900  # Slack refuses a section text over 3,000 characters
MAX_BUTTON_VALUE = 2000

Blocks = list[dict[str, Any]]


def button_value(thread_id: str, pause_id: str | None = None, **extra: Any) -> str:
    value = json.dumps({"thread_id": thread_id, "pause_id": pause_id, **extra}, ensure_ascii=False)
    return value[:MAX_BUTTON_VALUE]


def _section(text: str) -> dict[str, Any]:
    return {"type": "section", "text": {"type": "mrkdwn", "text": text[:MAX_SECTION] or " "}}


def _button(text: str, action_id: str, value: str, style: str | None = None) -> dict[str, Any]:
    button: dict[str, Any] = {
        "type": "button",
        "text": {"type": "plain_text", "text": text[:75]},
        "action_id": action_id,
        "value": value,
    }
    if style:
        button["style"] = style
    return button


def escape(text: str) -> str:
    """Slack's mrkdwn control characters, escaped as its docs require."""
    return text.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def interrupt_message(payload: dict[str, Any], thread_id: str) -> tuple[str, Blocks]:
    kind = payload.get("kind")
    pause = payload.get("pause_id")
    text = render_interrupt(payload)
    if kind == "clarification":
        blocks: Blocks = []
        if payload.get("summary"):
            blocks.append(_section(f"*What I understood so far:* {escape(str(payload['summary']))}"))
        blocks.append(
            _section("*Before I search, a few questions* (pick an option, or reply in this thread):")
        )
        for i, question in enumerate(payload.get("questions") or []):
            blocks.append(_section(f"{i + 1}. {escape(str(question.get('question', '')))}"))
            options = [str(o) for o in question.get("options") or []][:5]
            if options:
                blocks.append(
                    {
                        "type": "actions",
                        "block_id": f"clarify_{i}",
                        "elements": [
                            _button(
                                option,
                                f"clarify:{i}:{j}",
                                button_value(thread_id, pause, slot=question.get("slot"), answer=option),
                            )
                            for j, option in enumerate(options)
                        ],
                    }
                )
        return text, blocks
    if kind == "confirmation":
        slots = payload.get("slots") or {}
        lines = [
            f"• *{name.replace('_', ' ')}:* {escape('; '.join(v) if isinstance(v, list) else str(v))}"
            for name, v in slots.items()
            if v
        ]
        blocks = [
            _section(f"*My interpretation:* {escape(str(payload.get('summary') or ''))}"),
            _section("\n".join(lines) or "(nothing yet)"),
        ]
        if payload.get("uncertainties"):
            blocks.append(_section("_Still uncertain:_ " + escape("; ".join(payload["uncertainties"]))))
        blocks.append(
            {
                "type": "actions",
                "block_id": "confirmation",
                "elements": [
                    _button("Yes, that's it", "confirm_accept", button_value(thread_id, pause), "primary"),
                    _button("Correct it", "confirm_correct", button_value(thread_id, pause)),
                ],
            }
        )
        return text, blocks
    return text, review_blocks(payload, thread_id)


def review_blocks(payload: dict[str, Any], thread_id: str) -> Blocks:
    pause = payload.get("pause_id")
    blocks: Blocks = []
    if payload.get("error"):
        blocks.append(_section(f":warning: I could not apply that edit: {escape(str(payload['error']))}"))
    if payload.get("diff"):
        blocks.append(_section(f"*Changes:* {escape(render_diff(payload['diff']))}"))
    terms = []
    for term in payload.get("terms") or []:
        synonyms = [s.get("text") for s in term.get("synonyms", []) if s.get("kept", True)]
        extra = f" _(synonyms: {escape(', '.join(map(str, synonyms)))})_" if synonyms else ""
        terms.append(f"• [{term.get('slot')}] *{escape(str(term.get('canonical')))}*{extra}")
    blocks.append(_section("*Search terms*\n" + "\n".join(terms)))
    queries = (payload.get("queries") or {}).get("queries") or {}
    for source, query in queries.items():
        name = SOURCE_NAMES.get(source, source)
        blocks.append(_section(f"*{name}*\n```{str(query.get('query', ''))[: MAX_SECTION - 40]}```"))
    for error in payload.get("source_errors") or []:
        blocks.append(
            _section(f"_synonym source {error.get('source')} failed: {escape(str(error.get('message')))}_")
        )
    blocks.append(
        {
            "type": "input",
            "block_id": "review_edit",
            "dispatch_action": True,
            "label": {"type": "plain_text", "text": "Edit the keywords"},
            "element": {
                "type": "plain_text_input",
                "action_id": "review_edit",
                "placeholder": {"type": "plain_text", "text": "add term: X; remove synonym Y from Z"},
                "dispatch_action_config": {"trigger_actions_on": ["on_enter_pressed"]},
            },
        }
    )
    blocks.append(
        {
            "type": "actions",
            "block_id": "review",
            "elements": [
                _button("Search now", "review_accept", button_value(thread_id, pause), "primary"),
            ],
        }
    )
    return blocks


def progress_text(progress: dict[str, dict[str, Any]]) -> str:
    lines = [":mag: Searching…"]
    for source, data in progress.items():
        name = SOURCE_NAMES.get(source, source)
        total = data.get("total")
        of = f" of {total}" if total is not None else ""
        stage = {"done": " ✓", "failed": f" ✗ {data.get('message') or ''}"}.get(str(data.get("stage")), "")
        lines.append(f"• {name}: {data.get('fetched', 0)} records{of}{stage}")
    return "\n".join(lines)


def run_message(run: dict[str, Any], thread_id: str, public_url: str | None) -> tuple[str, Blocks]:
    text = render_run_ready(run)
    run_id = str(run.get("run_id"))
    summary = text
    if public_url:
        summary += f"\n<{public_url.rstrip('/')}/runs/{run_id}|Open the Run in the web app>"
    return text, [
        _section(escape(summary) if not public_url else summary),
        {
            "type": "actions",
            "block_id": "run",
            "elements": [
                _button("Results as CSV", "export:csv", button_value(thread_id, run_id=run_id)),
                _button("Results as RIS", "export:ris", button_value(thread_id, run_id=run_id)),
                _button("Academic map", "run_map", button_value(thread_id, run_id=run_id)),
            ],
        },
    ]


def sources_markdown(citations: list[dict[str, Any]], *, mrkdwn: bool = False) -> str:
    """The cited papers as a numbered list of links (each source once, in [n] order).

    Markdown for `chat.appendStream`/`stopStream` (`markdown_text`), Slack's mrkdwn for plain messages.
    """
    seen: dict[int, dict[str, Any]] = {}
    for citation in citations:
        seen.setdefault(int(citation.get("n", len(seen) + 1)), citation)
    lines = ["*Sources*" if mrkdwn else "**Sources**"]
    for n in sorted(seen):
        c = seen[n]
        title = str(c.get("title") or c.get("paper_key"))
        year = f" ({c['year']})" if c.get("year") else ""
        if c.get("doi"):
            url = f"https://doi.org/{c['doi']}"
            shown = f"<{url}|{escape(title)}>" if mrkdwn else f"[{title}]({url})"
        else:
            shown = escape(title) if mrkdwn else title
        lines.append(f"{n}. {shown}{year}")
    return "\n".join(lines)
