"""Edges of the chat bots: their HTTP modes refuse what is not signed, secrets stay out of the logs, and the
clarifying questions (which the scripted conversation never asks) render as buttons and cards whose
replies fit the graph's reply model."""

from __future__ import annotations

import json
import logging
import time

import httpx
import pytest
from slack_sdk.signature import SignatureVerifier

from evals.bench_sse import conversation_llm
from graph.interrupts import ClarificationReply, ConfirmationReply, ReviewReply
from server.adapters import slack_bot, teams_bot
from server.adapters.slack_blocks import interrupt_message
from server.adapters.teams_cards import interrupt_card, resume_of
from tests.asgi_server import serve
from tests.server.conftest import SettingsFactory

CLARIFICATION = {
    "kind": "clarification",
    "pause_id": "p3",
    "round": 1,
    "summary": "You decode speech from brain recordings.",
    "questions": [
        {"slot": "method_measurement", "question": "Which recordings?", "options": ["ECoG", "EEG"]},
        {"slot": "subject_population", "question": "In whom?", "options": []},
    ],
}


def test_clarification_in_slack_buttons_answer_one_question() -> None:
    text, blocks = interrupt_message(CLARIFICATION, "th_1")
    assert "1. Which recordings?" in text
    (choices,) = [b for b in blocks if b["type"] == "actions"]
    assert [e["text"]["text"] for e in choices["elements"]] == ["ECoG", "EEG"]
    value = json.loads(choices["elements"][1]["value"])
    assert value == {
        "thread_id": "th_1",
        "pause_id": "p3",
        "slot": "method_measurement",
        "answer": "EEG",
    }
    ClarificationReply.model_validate({"answers": {value["slot"]: value["answer"]}})


def test_cards_submit_replies_the_graph_accepts() -> None:
    card = interrupt_card(CLARIFICATION, "th_1")
    inputs = [b for b in card["body"] if b["type"].startswith("Input.")]
    assert [i["type"] for i in inputs] == ["Input.ChoiceSet", "Input.Text"]
    data = card["actions"][0]["data"] | {"answer_0": "ECoG", "answer_1": "adults with epilepsy"}
    resume, problem = resume_of(data)
    assert problem is None and resume == {
        "answers": {"method_measurement": "ECoG", "subject_population": "adults with epilepsy"}
    }
    ClarificationReply.model_validate(resume)
    assert resume_of(card["actions"][0]["data"]) == (
        None,
        "Answer at least one question, then press 'Send answers'.",
    )
    corrected, _ = resume_of({"action": "confirm_correct", "feedback": "also stereo-EEG"})
    ConfirmationReply.model_validate(corrected)
    edited, _ = resume_of({"action": "review_accept", "edits": "add term: speech synthesis"})
    assert ReviewReply.model_validate(edited).accept and edited["text"] == "add term: speech synthesis"


@pytest.mark.slow
def test_http_modes_refuse_unsigned_requests_and_never_log_secrets(
    app_settings: SettingsFactory, caplog: pytest.LogCaptureFixture
) -> None:
    secrets = {
        "slack_bot_token": "xoxb-secret-bot-token",
        "slack_signing_secret": "slack-signing-secret-value",
        "teams_app_id": "00000000-0000-0000-0000-000000000001",
        "teams_app_password": "teams-client-secret-value",
    }
    settings = app_settings(**secrets)
    caplog.set_level(logging.DEBUG)
    with serve(slack_bot.http_app(settings, llm=conversation_llm()), timeout=60) as url:
        body = json.dumps(
            {
                "token": "x",
                "challenge": "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P",
                "type": "url_verification",
            }
        )
        timestamp = str(int(time.time()))
        signature = SignatureVerifier(secrets["slack_signing_secret"]).generate_signature(
            timestamp=timestamp, body=body
        )
        headers = {"x-slack-request-timestamp": timestamp, "content-type": "application/json"}
        signed = httpx.post(
            f"{url}/slack/events", content=body, headers=headers | {"x-slack-signature": signature}
        )
        assert (
            signed.status_code == 200
            and "3eZbrw1aBm2rZgRNFdxV2595E9CY3gmdALWMmHkvFXO7tYXAYM8P" in signed.text
        )
        forged = httpx.post(
            f"{url}/slack/events", content=body, headers=headers | {"x-slack-signature": "v0=00"}
        )
        assert forged.status_code == 401
    with serve(teams_bot.http_app(settings, llm=conversation_llm()), timeout=60) as url:
        activity = {
            "type": "message",
            "text": "hello",
            "channelId": "msteams",
            "serviceUrl": "https://smba.trafficmanager.net/amer/",
        }
        assert httpx.post(f"{url}/api/messages", json=activity).status_code == 401
    logged = caplog.text + repr(settings)
    for name in ("slack_bot_token", "slack_signing_secret", "teams_app_password"):
        assert secrets[name] not in logged
