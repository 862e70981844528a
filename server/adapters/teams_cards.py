"""Adaptive Cards for the Teams bot: the three pauses, a finished Run, and what a card's submit sends.

Each card's `Action.Submit` data names the action, the ScholarMap thread and the pause it answers; the
card's inputs (answers, a correction, keyword edits) arrive beside them in the message's `value`.
Pure functions, so the bot module only sends what these return.
"""

from __future__ import annotations

from typing import Any

from server.streaming.render import SOURCE_NAMES, render_diff, render_run_ready

CARD_VERSION = "1.5"


def _card(body: list[dict[str, Any]], actions: list[dict[str, Any]]) -> dict[str, Any]:
    return {
        "type": "AdaptiveCard",
        "$schema": "http://adaptivecards.io/schemas/adaptive-card.json",
        "version": CARD_VERSION,
        "body": body,
        "actions": actions,
    }


def _text(text: str, **style: Any) -> dict[str, Any]:
    return {"type": "TextBlock", "text": text, "wrap": True, **style}


def _submit(title: str, action: str, thread_id: str, pause_id: str | None, **extra: Any) -> dict[str, Any]:
    data = {"action": action, "thread_id": thread_id, "pause_id": pause_id, **extra}
    return {"type": "Action.Submit", "title": title, "data": data}


def interrupt_card(payload: dict[str, Any], thread_id: str) -> dict[str, Any]:
    kind = payload.get("kind")
    pause = payload.get("pause_id")
    if kind == "clarification":
        body = []
        if payload.get("summary"):
            body.append(_text(f"What I understood so far: {payload['summary']}"))
        body.append(_text("Before I search, a few questions:", weight="Bolder"))
        for i, question in enumerate(payload.get("questions") or []):
            body.append(_text(f"{i + 1}. {question.get('question', '')}"))
            options = [str(o) for o in question.get("options") or []]
            if options:
                body.append(
                    {
                        "type": "Input.ChoiceSet",
                        "id": f"answer_{i}",
                        "choices": [{"title": o, "value": o} for o in options],
                        "style": "expanded",
                    }
                )
            else:
                body.append({"type": "Input.Text", "id": f"answer_{i}", "placeholder": "your answer"})
        asked = [str(q.get("slot", "")) for q in payload.get("questions") or []]
        return _card(body, [_submit("Send answers", "clarify", thread_id, pause, slots=asked)])
    if kind == "confirmation":
        slots = payload.get("slots") or {}
        facts = [
            {"title": name.replace("_", " "), "value": "; ".join(v) if isinstance(v, list) else str(v)}
            for name, v in slots.items()
            if v
        ]
        body = [
            _text("My interpretation", weight="Bolder"),
            _text(str(payload.get("summary") or "")),
            {"type": "FactSet", "facts": facts},
        ]
        if payload.get("uncertainties"):
            body.append(_text("Still uncertain: " + "; ".join(payload["uncertainties"]), isSubtle=True))
        body.append({"type": "Input.Text", "id": "feedback", "placeholder": "or tell me what to correct"})
        return _card(
            body,
            [
                _submit("Yes, that's it", "confirm_accept", thread_id, pause),
                _submit("Correct it", "confirm_correct", thread_id, pause),
            ],
        )
    return review_card(payload, thread_id)


def review_card(payload: dict[str, Any], thread_id: str) -> dict[str, Any]:
    pause = payload.get("pause_id")
    body: list[dict[str, Any]] = []
    if payload.get("error"):
        body.append(_text(f"I could not apply that edit: {payload['error']}", color="Attention"))
    if payload.get("diff"):
        body.append(_text(f"Changes: {render_diff(payload['diff'])}"))
    body.append(_text("Search terms", weight="Bolder"))
    for term in payload.get("terms") or []:
        synonyms = [s.get("text") for s in term.get("synonyms", []) if s.get("kept", True)]
        extra = f" (synonyms: {', '.join(map(str, synonyms))})" if synonyms else ""
        body.append(_text(f"- [{term.get('slot')}] {term.get('canonical')}{extra}"))
    queries = (payload.get("queries") or {}).get("queries") or {}
    if queries:
        body.append(_text("Queries", weight="Bolder"))
    for source, query in queries.items():
        body.append(_text(SOURCE_NAMES.get(source, source), weight="Bolder", spacing="Small"))
        body.append(_text(str(query.get("query", "")), fontType="Monospace", spacing="None"))
    body.append(
        {
            "type": "Input.Text",
            "id": "edits",
            "isMultiline": True,
            "placeholder": "add term: X; remove synonym Y from Z",
        }
    )
    return _card(
        body,
        [
            _submit("Search now", "review_accept", thread_id, pause),
            _submit("Apply edits", "review_edit", thread_id, pause),
        ],
    )


def run_card(run: dict[str, Any], thread_id: str, public_url: str | None) -> dict[str, Any]:
    counts = run.get("counts") or {}
    facts = [{"title": SOURCE_NAMES.get(k, k), "value": str(v)} for k, v in counts.items()]
    actions = [_submit("Academic map", "run_map", thread_id, None, run_id=run.get("run_id"))]
    if public_url:
        url = f"{public_url.rstrip('/')}/runs/{run.get('run_id')}"
        actions.insert(0, {"type": "Action.OpenUrl", "title": "Open the Run", "url": url})
    return _card([_text(render_run_ready(run)), {"type": "FactSet", "facts": facts}], actions)


def resume_of(value: dict[str, Any]) -> tuple[dict[str, Any] | None, str | None]:
    """The reply a card's submit stands for, or (None, what is missing)."""
    action = value.get("action")
    if action == "confirm_accept":
        return {"accept": True}, None
    if action == "confirm_correct":
        feedback = str(value.get("feedback") or "").strip()
        if not feedback:
            return None, "Type what to correct in the box, then press 'Correct it'."
        return {"accept": False, "feedback": feedback}, None
    if action == "clarify":
        slots = list(value.get("slots") or [])
        answers = {
            slots[i]: str(value.get(f"answer_{i}") or "").strip()
            for i in range(len(slots))
            if str(value.get(f"answer_{i}") or "").strip()
        }
        if not answers:
            return None, "Answer at least one question, then press 'Send answers'."
        return {"answers": answers}, None
    if action in {"review_accept", "review_edit"}:
        edits = str(value.get("edits") or "").strip()
        if action == "review_edit" and not edits:
            return None, "Type the edits in the box (for example 'add term: X'), then press 'Apply edits'."
        return {"accept": action == "review_accept", **({"text": edits} if edits else {})}, None
    return None, f"unknown card action {action!r}"
