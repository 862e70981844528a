"""The Slack bot: Bolt listeners driven by signed Events API and interactivity payloads, answering into a
local fake of the Slack Web API (slack_sdk's base URL pointed at 127.0.0.1), with the exact calls checked.

Payload shapes follow Slack's documentation (event_callback envelopes with app_mention / message events;
block_actions payloads form-encoded as `payload=`); the conversation is the scripted one of the server
tests, against the fake sources.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import re
import time
from collections.abc import Iterator
from typing import Any
from urllib.parse import urlencode

import httpx
import psycopg
import pytest
from slack_bolt.request.async_request import AsyncBoltRequest
from slack_sdk.signature import SignatureVerifier
from slack_sdk.web.async_client import AsyncWebClient

from evals.bench_sse import DESCRIPTION, conversation_llm
from server.adapters.runtime import HOW_TO_BEGIN, open_runtime
from server.adapters.slack_bot import build_app, check_settings
from tests.server.adapters.fake_slack import BOT_USER, TEAM, FakeSlack, running_fake_slack
from tests.server.conftest import ServerFactory, SettingsFactory

SECRET = "test-signing-secret"
CHANNEL = "C0LAB"
USER = "U0ALICE"
ROOT_TS = "1700000000.000100"
EVENT_IDS = itertools.count(1)


@pytest.fixture
def fake_slack() -> Iterator[FakeSlack]:
    with running_fake_slack() as fake:
        yield fake


def signed(body: str, content_type: str) -> AsyncBoltRequest:
    timestamp = str(int(time.time()))
    signature = SignatureVerifier(SECRET).generate_signature(timestamp=timestamp, body=body)
    headers = {
        "content-type": [content_type],
        "x-slack-request-timestamp": [timestamp],
        "x-slack-signature": [signature],
    }
    return AsyncBoltRequest(body=body, headers=headers)


def event_callback(event: dict[str, Any]) -> AsyncBoltRequest:
    body = {
        "token": "XXYYZZ",
        "team_id": TEAM,
        "api_app_id": "A0APP",
        "event": event,
        "type": "event_callback",
        "authorizations": [
            {"team_id": TEAM, "user_id": BOT_USER, "is_bot": True, "is_enterprise_install": False}
        ],
        "event_id": f"Ev{next(EVENT_IDS):08d}",
        "event_time": int(time.time()),
    }
    return signed(json.dumps(body), "application/json")


def mention(text: str) -> AsyncBoltRequest:
    return event_callback(
        {
            "type": "app_mention",
            "user": USER,
            "text": f"<@{BOT_USER}> {text}",
            "ts": ROOT_TS,
            "channel": CHANNEL,
            "event_ts": ROOT_TS,
            "team": TEAM,
        }
    )


def thread_reply(text: str, ts: str) -> AsyncBoltRequest:
    return event_callback(
        {
            "type": "message",
            "channel": CHANNEL,
            "user": USER,
            "text": text,
            "ts": ts,
            "thread_ts": ROOT_TS,
            "channel_type": "channel",
            "event_ts": ts,
            "team": TEAM,
        }
    )


def block_action(message_ts: str, action: dict[str, Any]) -> AsyncBoltRequest:
    payload = {
        "type": "block_actions",
        "user": {"id": USER, "username": "alice", "name": "alice", "team_id": TEAM},
        "api_app_id": "A0APP",
        "token": "XXYYZZ",
        "container": {
            "type": "message",
            "message_ts": message_ts,
            "channel_id": CHANNEL,
            "is_ephemeral": False,
            "thread_ts": ROOT_TS,
        },
        "trigger_id": "1388105719492.1379717998065.9bc163894734c1f415a2c504e81dec91",
        "team": {"id": TEAM, "domain": "lab"},
        "channel": {"id": CHANNEL, "name": "lab"},
        "message": {
            "type": "message",
            "bot_id": "B0BOT",
            "ts": message_ts,
            "thread_ts": ROOT_TS,
            "text": "...",
        },
        "response_url": "https://hooks.slack.com/actions/T0TEAM/1/abc",
        "actions": [{"action_ts": str(time.time()), "block_id": "b", **action}],
    }
    return signed(urlencode({"payload": json.dumps(payload)}), "application/x-www-form-urlencoded")


def button(blocks: list[dict[str, Any]], action_id: str) -> dict[str, Any]:
    for block in blocks:
        for element in block.get("elements", []):
            if element.get("action_id") == action_id:
                return {
                    "type": "button",
                    "action_id": action_id,
                    "value": element["value"],
                    "text": element["text"],
                }
    raise AssertionError(f"no button {action_id} in {blocks}")


def blocks_of(params: dict[str, Any]) -> list[dict[str, Any]]:
    blocks = params.get("blocks") or []
    return json.loads(blocks) if isinstance(blocks, str) else blocks


async def dispatch(
    app: Any, bot: Any, fake: FakeSlack, request: AsyncBoltRequest, until: str
) -> list[tuple[str, dict[str, Any]]]:
    """Send one request, wait for the Web API call that ends the turn, return the turn's calls."""
    response = await app.async_dispatch(request)
    assert response.status == 200, response.body
    await fake.wait_for(lambda f: until in f.methods())
    await bot.settled()
    return fake.take()


@pytest.mark.slow
async def test_a_conversation_in_a_slack_thread(
    fake_slack: FakeSlack, app_settings: SettingsFactory, start_server: ServerFactory, pg_url: str
) -> None:
    settings = app_settings(
        slack_bot_token="xoxb-test-token",
        slack_signing_secret=SECRET,
        slack_api_url=f"{fake_slack.base_url}/api",
        chat_update_interval=0.05,
    )
    client = AsyncWebClient(token="xoxb-test-token", base_url=f"{fake_slack.base_url}/api/")
    async with open_runtime(settings, llm=conversation_llm()) as runtime:
        app, bot = build_app(runtime, client=client)

        # A bare mention says how to begin, and starts nothing.
        calls = await dispatch(app, bot, fake_slack, mention(""), until="chat.postMessage")
        assert [(m, p["thread_ts"], p["text"]) for m, p in calls] == [
            ("chat.postMessage", ROOT_TS, HOW_TO_BEGIN)
        ]
        assert await runtime.threads.by_chat_key(f"slack:{TEAM}:{CHANNEL}:{ROOT_TS}") is None

        # A mention starts the conversation in its thread: the interpretation, with two buttons.
        first = mention(DESCRIPTION)
        calls = await dispatch(app, bot, fake_slack, first, until="chat.postMessage")
        assert [m for m, _ in calls] == ["chat.postMessage"]
        confirmation = calls[0][1]
        assert confirmation["channel"] == CHANNEL and confirmation["thread_ts"] == ROOT_TS
        assert confirmation["text"].startswith("My interpretation: You decode speech")
        blocks = blocks_of(confirmation)
        assert "*My interpretation:* You decode speech from ECoG" in blocks[0]["text"]["text"]
        assert "• *method measurement:* electrocorticography" in blocks[1]["text"]["text"]
        accept = button(blocks, "confirm_accept")
        assert json.loads(accept["value"])["thread_id"].startswith("th_")

        # Slack redelivers an event it thinks was missed: the bot takes it once.
        assert (await app.async_dispatch(first)).status == 200
        await asyncio.sleep(0.3)
        await bot.settled()
        assert fake_slack.take() == []

        # "Yes": the keyword review, with the queries and an edit box.
        calls = await dispatch(
            app, bot, fake_slack, block_action("1800000000.000001", accept), until="chat.postMessage"
        )
        review = calls[-1][1]
        assert review["thread_ts"] == ROOT_TS and "speech decoding" in review["text"]
        blocks = blocks_of(review)
        texts = "\n".join(b.get("text", {}).get("text", "") for b in blocks)
        assert "*PubMed*\n```" in texts and '"Electrocorticography"[Mesh]' in texts and "*OpenAlex*" in texts
        assert any(b["type"] == "input" and b["element"]["action_id"] == "review_edit" for b in blocks)

        # An edit typed in the box: the plan again, with what changed.
        edit = {"type": "plain_text_input", "action_id": "review_edit", "value": "add term: speech synthesis"}
        calls = await dispatch(
            app, bot, fake_slack, block_action("1800000000.000002", edit), until="chat.postMessage"
        )
        edited = blocks_of(calls[-1][1])
        assert "*Changes:* + term: speech synthesis" in edited[0]["text"]["text"]

        # "Search now": progress edited in one message, the Run with its buttons, the CSV in the thread.
        search = button(edited, "review_accept")
        calls = await dispatch(
            app,
            bot,
            fake_slack,
            block_action("1800000000.000003", search),
            until="files.completeUploadExternal",
        )
        methods = [m for m, _ in calls]
        assert methods[0] == "chat.postMessage" and calls[0][1]["text"].startswith(":mag: Searching")
        assert "chat.update" in methods
        final_progress = [p for m, p in calls if m == "chat.update"][-1]
        assert final_progress["ts"] == calls[0][1]["_reply"]["ts"] and final_progress["text"].count(" ✓") == 3
        run_post = [p for m, p in calls if m == "chat.postMessage"][-1]
        assert "saved (completed)" in run_post["text"] and run_post["thread_ts"] == ROOT_TS
        run_id = json.loads(button(blocks_of(run_post), "export:ris")["value"])["run_id"]
        assert methods[-2:] == ["files.getUploadURLExternal", "files.completeUploadExternal"]
        upload_request = [p for m, p in calls if m == "files.getUploadURLExternal"][0]
        assert upload_request["filename"] == f"run_{run_id}.csv"
        completed = [p for m, p in calls if m == "files.completeUploadExternal"][0]
        assert completed["channel_id"] == CHANNEL and completed["thread_ts"] == ROOT_TS
        (csv,) = fake_slack.uploads.values()
        assert csv.decode("utf-8-sig").startswith("rank,key,title") and csv.count(b"\n") == 4

        # A reply in the thread, without a mention, is a question about the Run: streamed, then sources.
        calls = await dispatch(
            app,
            bot,
            fake_slack,
            thread_reply("Which methods decode speech?", "1700000100.000200"),
            until="chat.stopStream",
        )
        methods = [m for m, _ in calls]
        assert methods[0] == "chat.startStream" and methods[-1] == "chat.stopStream"
        start = calls[0][1]
        assert (start["channel"], start["thread_ts"]) == (CHANNEL, ROOT_TS)
        assert (start["recipient_team_id"], start["recipient_user_id"]) == (TEAM, USER)
        streamed = start["markdown_text"] + "".join(
            p["markdown_text"] for m, p in calls if m == "chat.appendStream"
        )
        stop = calls[-1][1]
        stream_ts = calls[0][1]["_reply"]["ts"]  # the streamed message, as chat.startStream named it
        assert {p["ts"] for m, p in calls if m in {"chat.appendStream", "chat.stopStream"}} == {stream_ts}
        answer, _, sources = (streamed + stop["markdown_text"]).partition("\n\n**Sources**\n")
        cited = re.findall(r"^(\d+)\. ", sources, flags=re.M)
        assert cited and all(f"[{n}]" in answer for n in cited)
        links = re.findall(r"\]\((https://[^)]+)\)", sources)  # Slack markdown links, where a source has one
        assert all(link.startswith("https://") for link in links) and "](" not in sources.replace(
            "](https://", ""
        )

        # An RIS file on the Run's button.
        ris = button(blocks_of(run_post), "export:ris")
        calls = await dispatch(
            app, bot, fake_slack, block_action("1800000000.000005", ris), until="files.completeUploadExternal"
        )
        assert [p for m, p in calls if m == "files.getUploadURLExternal"][0][
            "filename"
        ] == f"run_{run_id}.ris"

        # Where Slack refuses streaming, the answer is one message, edited, with mrkdwn links.
        fake_slack.refuse_streaming = True
        calls = await dispatch(
            app, bot, fake_slack, thread_reply("And which cohorts?", "1700000200.000300"), until="chat.update"
        )
        methods = [m for m, _ in calls]
        assert methods[:2] == ["chat.startStream", "chat.postMessage"] and methods[-1] == "chat.update"
        final = calls[-1][1]
        assert "\n\n*Sources*\n1. " in final["text"]
        listed = final["text"].split("*Sources*")[1]
        assert "](" not in listed  # mrkdwn, not markdown: links as <url|title> where a source has one

    # The Slack thread's key is kept in the database (a restarted bot finds the same conversation) ...
    with psycopg.connect(pg_url) as conn:
        key = f"slack:{TEAM}:{CHANNEL}:{ROOT_TS}"
        (thread_id,) = conn.execute("SELECT thread_id FROM threads WHERE chat_key = %s", (key,)).fetchone()
    # ... and the same thread and its Run open through the REST API.
    with start_server(settings) as url:
        check_rest(url, thread_id, run_id)


def check_rest(url: str, thread_id: str, run_id: str) -> None:
    with httpx.Client(base_url=url, timeout=60) as http:
        assert http.get(f"/threads/{thread_id}").json()["active_run_id"] == run_id
        assert http.get(f"/runs/{run_id}").json()["thread_id"] == thread_id


def test_missing_tokens_are_named(app_settings: SettingsFactory) -> None:
    with pytest.raises(ValueError, match="SCHOLARMAP_SLACK_BOT_TOKEN"):
        check_settings(app_settings(), http=False)
    with pytest.raises(ValueError, match="SCHOLARMAP_SLACK_APP_TOKEN"):
        check_settings(app_settings(slack_bot_token="xoxb-1"), http=False)
    with pytest.raises(ValueError, match="SCHOLARMAP_SLACK_SIGNING_SECRET"):
        check_settings(app_settings(slack_bot_token="xoxb-1"), http=True)
