"""The Teams bot on the Microsoft 365 Agents SDK's TestAdapter, with Teams-shaped activities.

In a 1:1 chat a turn follows the Teams streaming protocol (informative `typing` updates, `streaming`
chunks, one `final` message carrying the card or the citations); in a group chat the same conversation
is plain messages. The conversation is the scripted one of the server tests, against the fake sources.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from microsoft_agents.activity import (
    Activity,
    ChannelAccount,
    ConversationAccount,
    ConversationReference,
)
from microsoft_agents.hosting.core import ClaimsIdentity
from microsoft_agents.testing import TestAdapter

from evals.bench_sse import DESCRIPTION, conversation_llm
from server.adapters.runtime import HOW_TO_BEGIN, open_runtime
from server.adapters.teams_bot import TeamsBot, check_settings
from tests.server.conftest import SettingsFactory

TENANT = "72f988bf-86f1-41af-91ab-2d7cd011db47"
BOT = ChannelAccount(id="28:c9e8c047-2a34-40a1-b28a-b162d5f5327c", name="ScholarMap")
ALICE = ChannelAccount(id="29:1GcS4EyB_oSI8A88XmWBN7NJFyMqe3QGnJdgLfFGkJnVelzRGos", name="Alice")


def adapter(conversation_type: str, conversation_id: str) -> TestAdapter:
    reference = ConversationReference(
        channel_id="msteams",
        service_url="https://smba.trafficmanager.net/amer/",
        user=ALICE,
        agent=BOT,
        conversation=ConversationAccount(
            id=conversation_id,
            conversation_type=conversation_type,
            tenant_id=TENANT,
            is_group=conversation_type != "personal",
        ),
        locale="en-US",
    )
    return TestAdapter(conversation=reference)


def message(text: str | None = None, value: dict[str, Any] | None = None, mention: bool = False) -> Activity:
    """A message activity as Teams sends it (a typed message, or an Adaptive Card's Action.Submit)."""
    body: dict[str, Any] = {
        "type": "message",
        "channelId": "msteams",
        "from": ALICE.model_dump(by_alias=True, exclude_none=True)
        | {"aadObjectId": "b7c2a3e1-0000-4e8b-9d1e-1a2b3c4d5e6f"},
        "textFormat": "plain",
        "locale": "en-US",
        "entities": [{"type": "clientInfo", "locale": "en-US", "country": "US", "platform": "Web"}],
        "channelData": {"tenant": {"id": TENANT}},
    }
    if mention:
        tag = f"<at>{BOT.name}</at>"
        text = f"{tag} {text}"
        body["entities"].append(
            {"type": "mention", "mentioned": {"id": BOT.id, "name": BOT.name}, "text": tag}
        )
    if text is not None:
        body["text"] = text
    if value is not None:
        body["value"] = value
        body["channelData"]["source"] = {"name": "message"}
    return Activity.model_validate(body)


async def send(test_adapter: TestAdapter, bot: TeamsBot, activity: Activity) -> list[Activity]:
    await test_adapter.process_activity(ClaimsIdentity({}, True), activity, bot.on_turn)
    replies = list(test_adapter.activity_queue)
    test_adapter.activity_queue.clear()
    return replies


def stream_types(activities: list[Activity]) -> list[tuple[str, str | None]]:
    out = []
    for activity in activities:
        info = [e for e in activity.entities or [] if e.type == "streaminfo"]
        out.append((activity.type, getattr(info[0], "stream_type", None) if info else None))
    return out


def card_of(activity: Activity) -> dict[str, Any]:
    (attachment,) = activity.attachments
    assert attachment.content_type == "application/vnd.microsoft.card.adaptive"
    return attachment.content


def submit_data(card: dict[str, Any], title: str) -> dict[str, Any]:
    for action in card["actions"]:
        if action["title"] == title:
            return dict(action["data"])
    raise AssertionError(f"no action {title!r} in {card['actions']}")


@pytest.mark.slow
async def test_one_to_one_chat_streams_and_group_chat_gets_plain_messages(
    app_settings: SettingsFactory,
) -> None:
    async with open_runtime(app_settings(chat_update_interval=0.05), llm=conversation_llm()) as runtime:
        bot = TeamsBot(runtime)
        personal = adapter("personal", "a:1Jq8ZQe0pMqkNcXxfZQTR2bIo0uq1kdOVBMT0rn3XX0t")

        # The description: an informative update, then the final message with the confirmation card.
        replies = await send(personal, bot, message(DESCRIPTION))
        kinds = stream_types(replies)
        assert kinds[0] == ("typing", "informative") and replies[0].text == "Reading your description…"
        assert kinds[-1] == ("message", "final")
        card = card_of(replies[-1])
        facts = {f["title"]: f["value"] for f in card["body"][2]["facts"]}
        assert facts["method measurement"] == "electrocorticography"
        accept = submit_data(card, "Yes, that's it")
        assert accept["action"] == "confirm_accept" and accept["thread_id"].startswith("th_")

        # Accepted: the keyword review card, with the queries and an edit box.
        replies = await send(personal, bot, message(value=accept))
        review = card_of(replies[-1])
        texts = [b.get("text", "") for b in review["body"]]
        assert "PubMed" in texts and any('"Electrocorticography"[Mesh]' in t for t in texts)
        assert any(b.get("id") == "edits" for b in review["body"])

        # "Search now" with an edit typed in the box: progress as informative updates, the Run's card.
        search = submit_data(review, "Search now") | {"edits": "add term: speech synthesis"}
        replies = await send(personal, bot, message(value=search))
        informative = [
            a.text for a, kind in zip(replies, stream_types(replies), strict=True) if kind[1] == "informative"
        ]
        assert "Searching PubMed, Semantic Scholar and OpenAlex…" in informative
        assert any(text.startswith("PubMed: 1 records fetched of ") for text in informative)
        final = replies[-1]
        assert stream_types([final]) == [("message", "final")] and "saved (completed)" in final.text
        run_id = submit_data(card_of(final), "Academic map")["run_id"]

        # A question: the text as it grows (the SDK merges chunks that arrive within its 1 s interval),
        # then the final message with the citations as Teams entities.
        replies = await send(personal, bot, message("Which methods decode speech?"))
        kinds = stream_types(replies)
        assert kinds[0] == ("typing", "informative") and replies[0].text == "Reading the papers…"
        assert kinds[-1] == ("message", "final") and re.search(r"\[\d+\]", replies[-1].text)
        chunks = [a.text for a, kind in zip(replies, kinds, strict=True) if kind == ("typing", "streaming")]
        assert all(replies[-1].text.startswith(chunk) for chunk in chunks)
        assert set(kinds[1:-1]) <= {("typing", "streaming"), ("typing", "informative")}
        (cited,) = [e for e in replies[-1].entities if e.type == "https://schema.org/Message"]
        citations = cited.model_dump(by_alias=True)["citation"]
        assert citations and all(f"[{c['position']}]" in replies[-1].text for c in citations)
        urls = [c["appearance"].get("url") for c in citations if c["appearance"].get("url")]
        assert all(url.startswith("https://") for url in urls)  # a DOI or source page, where there is one

        # The same conversation in a group chat: no streaming, plain messages with the cards.
        group = adapter("groupChat", "19:meeting_NjZhYmM2ZTMtZGM5ZC00YjA4LWI5ZDYtYjk1N2Y4MjBkNjdl@thread.v2")
        replies = await send(group, bot, message(DESCRIPTION, mention=True))
        assert all(a.type == "message" and not stream_types([a])[0][1] for a in replies)
        group_accept = submit_data(card_of(replies[-1]), "Yes, that's it")
        assert group_accept["thread_id"] != accept["thread_id"]  # one Teams conversation, one thread
        replies = await send(group, bot, message(value=group_accept))
        group_review = card_of(replies[-1])
        replies = await send(group, bot, message(value=submit_data(group_review, "Search now")))
        progress, run_message = replies[0], replies[-1]
        assert progress.text.startswith("Searching…") and progress.text.count("records fetched") == 3
        assert "saved (completed)" in run_message.text and card_of(run_message)["actions"]

        # A bare mention says how to begin.
        assert [a.text for a in await send(group, bot, message("", mention=True))] == [HOW_TO_BEGIN]

        # A card action without what it needs is answered in words, and nothing runs.
        replies = await send(
            group, bot, message(value={"action": "review_edit", "thread_id": "x", "edits": ""})
        )
        assert [a.text for a in replies] == [
            "Type the edits in the box (for example 'add term: X'), then press 'Apply edits'."
        ]
        thread = await runtime.threads.by_chat_key(f"teams:{personal.conversation.conversation.id}")
        assert (
            thread is not None
            and (await runtime.threads.state(thread["thread_id"]))["active_run_id"] == run_id
        )


def test_missing_credentials_are_named(app_settings: SettingsFactory) -> None:
    with pytest.raises(ValueError, match="SCHOLARMAP_TEAMS_APP_ID and SCHOLARMAP_TEAMS_APP_PASSWORD"):
        check_settings(app_settings())
