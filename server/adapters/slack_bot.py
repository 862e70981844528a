"""`scholarmap slack`: the conversation in Slack, one Slack thread per ScholarMap thread.

A mention (or a direct message) starts a conversation; its Slack thread maps onto one ScholarMap thread
through the threads table's chat key `slack:<team>:<channel>:<thread ts>`, so replies in that thread
(with or without a mention) continue it, also after a restart. The bot only renders the thread
manager's typed events: the pauses as Block Kit with buttons (`server.adapters.slack_blocks`), search progress
as one message edited at a bounded rate, answers streamed with `chat.startStream` / `appendStream` /
`stopStream` (or, where Slack refuses streaming, one message edited at a bounded rate), citations as a
numbered list of links, and a Run's results as a CSV file in the thread (RIS on a button).

Socket Mode by default (no public address needed); `--http` serves the Events API on 127.0.0.1.
"""

from __future__ import annotations

import asyncio
import json
import logging
import re
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass
from typing import Any

from slack_bolt.async_app import AsyncApp
from slack_sdk.errors import SlackApiError
from slack_sdk.web.async_client import AsyncWebClient

from agent.llm import LLM
from agent.runs.exports import export_filename, export_papers
from agent.runs.store import StoreError
from agent.settings import Settings
from server.adapters.runtime import HOW_TO_BEGIN, AdapterRuntime, open_runtime, thread_for_key, turn
from server.adapters.slack_blocks import (
    escape,
    interrupt_message,
    progress_text,
    run_message,
    sources_markdown,
)
from server.streaming import threads as thread_errors

log = logging.getLogger(__name__)

SEEN_EVENTS = 1000
_MENTION = re.compile(r"<@[A-Z0-9]+(?:\|[^>]*)?>")
# What a submit may refuse with before the turn starts (StalePause: a button of a pause that is over).
_REFUSALS: tuple[type[Exception], ...] = tuple(
    getattr(thread_errors, name)
    for name in ("ThreadBusy", "ResumeMismatch", "ThreadNotFound", "StalePause")
    if hasattr(thread_errors, name)
)


@dataclass(frozen=True)
class Where:
    """A Slack thread: where the bot answers, and who it streams to."""

    team_id: str
    channel: str
    thread_ts: str
    user_id: str

    @property
    def key(self) -> str:
        return f"slack:{self.team_id}:{self.channel}:{self.thread_ts}"


class SlackTurn:
    """Renders one turn's events into the Slack thread."""

    def __init__(self, bot: SlackBot, where: Where, thread_id: str) -> None:
        self.bot = bot
        self.client = bot.client
        self.where = where
        self.thread_id = thread_id
        self.interval = bot.update_interval
        self.answer = ""
        self.unsent = ""
        self.answer_ts: str | None = None
        self.streaming: bool | None = None  # None: not started; False: edited message instead
        self.last_answer_send = 0.0
        self.citations: list[dict[str, Any]] = []
        self.progress: dict[str, dict[str, Any]] = {}
        self.progress_ts: str | None = None
        self.last_progress_send = 0.0

    async def post(self, text: str, blocks: list[dict[str, Any]] | None = None) -> str:
        response = await self.client.chat_postMessage(
            channel=self.where.channel, thread_ts=self.where.thread_ts, text=text, blocks=blocks
        )
        return str(response["ts"])

    async def handle(self, event: Any) -> None:
        data = event.data
        if event.type == "text":
            await self.text(str(data.get("delta", "")))
        elif event.type == "citation":
            self.citations.append(data)
        elif event.type == "interrupt":
            await self.finish_answer()
            text, blocks = interrupt_message(data, self.thread_id)
            await self.post(text, blocks)
        elif event.type == "search_progress":
            await self.search_progress(data)
        elif event.type == "run_ready":
            await self.run_ready(data)
        elif event.type == "map_ready":
            await self.post(f"The academic map is ready: {self.bot.link(str(data.get('url')))}")
        elif event.type == "error":
            await self.post(f":warning: {escape(str(data.get('message') or 'the conversation failed'))}")
        elif event.type == "done":
            await self.finish_answer()

    # -- answers -----------------------------------------------------------------------------------

    async def text(self, delta: str) -> None:
        if not delta:
            return
        self.answer += delta
        self.unsent += delta
        if self.streaming is None:
            await self._start_answer()
        elif time.monotonic() - self.last_answer_send >= self.interval:
            await self._send_answer()

    async def _start_answer(self) -> None:
        where = self.where
        try:
            response = await self.client.chat_startStream(
                channel=where.channel,
                thread_ts=where.thread_ts,
                recipient_team_id=where.team_id,
                recipient_user_id=where.user_id,
                markdown_text=self.unsent,
            )
            self.streaming = True
        except SlackApiError as exc:  # streaming not offered here (plan, channel type, older workspace)
            log.info("chat.startStream refused (%s): editing one message instead", exc.response.get("error"))
            self.streaming = False
            response = await self.client.chat_postMessage(
                channel=where.channel, thread_ts=where.thread_ts, text=self.answer
            )
        self.answer_ts = str(response["ts"])
        self.unsent = ""
        self.last_answer_send = time.monotonic()

    async def _send_answer(self) -> None:
        if self.streaming:
            if self.unsent:
                await self.client.chat_appendStream(
                    channel=self.where.channel, ts=str(self.answer_ts), markdown_text=self.unsent
                )
        else:
            await self.client.chat_update(
                channel=self.where.channel, ts=str(self.answer_ts), text=self.answer
            )
        self.unsent = ""
        self.last_answer_send = time.monotonic()

    async def finish_answer(self) -> None:
        if self.streaming is None:
            if self.citations:  # citations without text cannot happen, but must not be lost
                await self.post(sources_markdown(self.citations, mrkdwn=True))
                self.citations = []
            return
        if self.streaming:
            tail = self.unsent + ("\n\n" + sources_markdown(self.citations) if self.citations else "")
            await self.client.chat_stopStream(
                channel=self.where.channel, ts=str(self.answer_ts), markdown_text=tail or None
            )
        else:
            full = self.answer + (
                "\n\n" + sources_markdown(self.citations, mrkdwn=True) if self.citations else ""
            )
            await self.client.chat_update(channel=self.where.channel, ts=str(self.answer_ts), text=full)
        self.streaming, self.answer, self.unsent, self.citations = None, "", "", []

    # -- search ------------------------------------------------------------------------------------

    async def search_progress(self, data: dict[str, Any]) -> None:
        self.progress[str(data.get("source"))] = data
        if self.progress_ts is None:
            self.progress_ts = await self.post(progress_text(self.progress))
            self.last_progress_send = time.monotonic()
        elif time.monotonic() - self.last_progress_send >= self.interval:
            await self._send_progress()

    async def _send_progress(self) -> None:
        if self.progress_ts is not None:
            await self.client.chat_update(
                channel=self.where.channel, ts=self.progress_ts, text=progress_text(self.progress)
            )
            self.last_progress_send = time.monotonic()

    async def run_ready(self, run: dict[str, Any]) -> None:
        await self._send_progress()  # the final counts, whatever the rate allowed before
        text, blocks = run_message(run, self.thread_id, self.bot.public_url)
        await self.post(text, blocks)
        await self.bot.upload(self.where, str(run["run_id"]), "csv")


class SlackBot:
    """Bolt listeners over the thread manager."""

    def __init__(self, runtime: AdapterRuntime, client: AsyncWebClient) -> None:
        self.runtime = runtime
        self.client = client
        self.update_interval = runtime.settings.chat_update_interval
        self.public_url = runtime.settings.public_url
        self._working = 0
        self._idle = asyncio.Event()
        self._idle.set()
        self._seen: dict[str, None] = {}  # event ids already handled (Slack redelivers unacknowledged ones)

    def first_delivery(self, body: dict[str, Any]) -> bool:
        """False for an event this process already took (a retry, or the same message as app_mention)."""
        event_id = str(body.get("event_id") or "")
        if not event_id:
            return True
        if event_id in self._seen:
            return False
        self._seen[event_id] = None
        if len(self._seen) > SEEN_EVENTS:
            self._seen.pop(next(iter(self._seen)))
        return True

    def link(self, path: str) -> str:
        return f"<{self.public_url.rstrip('/')}{path}|{path}>" if self.public_url else path

    async def settled(self) -> None:
        """Wait until no listener is working (tests: bolt runs listeners after acknowledging)."""
        await self._idle.wait()

    @asynccontextmanager
    async def _work(self) -> AsyncIterator[None]:
        self._working += 1
        self._idle.clear()
        try:
            yield
        finally:
            self._working -= 1
            if self._working == 0:
                self._idle.set()

    def register(self, app: AsyncApp) -> None:
        app.event("app_mention")(self.on_mention)
        app.event("message")(self.on_message)
        app.action("confirm_accept")(self.on_confirm_accept)
        app.action("confirm_correct")(self.on_confirm_correct)
        app.action(re.compile(r"^clarify:"))(self.on_clarify_option)
        app.action("review_accept")(self.on_review_accept)
        app.action("review_edit")(self.on_review_edit)
        app.action(re.compile(r"^export:"))(self.on_export)
        app.action("run_map")(self.on_map)

    # -- events --------------------------------------------------------------------------------------

    async def on_mention(self, event: dict[str, Any], body: dict[str, Any]) -> None:
        if not self.first_delivery(body):
            return
        async with self._work():
            where = _where_of_message(event, body)
            await self.converse(where, text=_MENTION.sub("", event.get("text", "")).strip())

    async def on_message(self, event: dict[str, Any], body: dict[str, Any], context: Any) -> None:
        """A DM, or a reply in a thread the bot already converses in (mentions come as app_mention)."""
        if event.get("bot_id") or event.get("subtype"):
            return
        text = str(event.get("text", ""))
        bot_user = getattr(context, "bot_user_id", None) or context.get("bot_user_id")
        if bot_user and f"<@{bot_user}>" in text:
            return
        if not self.first_delivery(body):
            return
        async with self._work():
            where = _where_of_message(event, body)
            if (
                event.get("channel_type") != "im"
                and await self.runtime.threads.by_chat_key(where.key) is None
            ):
                return
            await self.converse(where, text=_MENTION.sub("", text).strip())

    # -- actions -------------------------------------------------------------------------------------

    async def on_confirm_accept(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        async with self._work():
            await self.reply(body, action, {"accept": True})

    async def on_confirm_correct(self, ack: Any, body: dict[str, Any]) -> None:
        await ack()
        async with self._work():
            where = _where_of_action(body)
            await self.client.chat_postMessage(
                channel=where.channel,
                thread_ts=where.thread_ts,
                text="Tell me in this thread what to correct, and I will read the description again.",
            )

    async def on_clarify_option(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        value = _value(action)
        async with self._work():
            await self.reply(body, action, {"answers": {str(value.get("slot")): str(value.get("answer"))}})

    async def on_review_accept(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        async with self._work():
            await self.reply(body, action, {"accept": True})

    async def on_review_edit(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        edits = str(action.get("value") or "").strip()
        if edits:
            async with self._work():
                await self.reply(body, action, {"accept": False, "text": edits})

    async def on_export(self, ack: Any, body: dict[str, Any], action: dict[str, Any]) -> None:
        await ack()
        fmt = str(action.get("action_id", "")).partition(":")[2]
        async with self._work():
            await self.upload(_where_of_action(body), str(_value(action).get("run_id")), fmt)

    async def on_map(self, ack: Any, body: dict[str, Any]) -> None:
        await ack()
        async with self._work():
            await self.converse(_where_of_action(body), text="/map", mode="map")

    async def reply(self, body: dict[str, Any], action: dict[str, Any], resume: dict[str, Any]) -> None:
        pause_id = _value(action).get("pause_id")
        await self.converse(_where_of_action(body), resume=resume, pause_id=pause_id)

    # -- the conversation --------------------------------------------------------------------------------

    async def converse(
        self,
        where: Where,
        *,
        text: str | None = None,
        resume: dict[str, Any] | None = None,
        mode: str | None = None,
        pause_id: str | None = None,
    ) -> None:
        if text is not None and not text:  # a bare mention: how to begin, and nothing starts
            await self.client.chat_postMessage(
                channel=where.channel, thread_ts=where.thread_ts, text=HOW_TO_BEGIN
            )
            return
        thread_id = await thread_for_key(self.runtime, where.key)
        renderer = SlackTurn(self, where, thread_id)
        try:
            async for event in turn(
                self.runtime.threads, thread_id, text=text, resume=resume, mode=mode, pause_id=pause_id
            ):
                await renderer.handle(event)
        except _REFUSALS as exc:
            await renderer.post(f":hourglass: {escape(str(exc))}")

    async def upload(self, where: Where, run_id: str, fmt: str) -> None:
        try:
            papers = self.runtime.store.load_aggregated(run_id)
        except StoreError as exc:
            await self.client.chat_postMessage(
                channel=where.channel, thread_ts=where.thread_ts, text=str(exc)
            )
            return
        await self.client.files_upload_v2(
            channel=where.channel,
            thread_ts=where.thread_ts,
            content=export_papers(papers, fmt),
            filename=export_filename(f"run_{run_id}", fmt),
            title=f"Run {run_id} ({len(papers)} papers, {fmt.upper()})",
        )


def _value(action: dict[str, Any]) -> dict[str, Any]:
    try:
        value = json.loads(action.get("value") or "{}")
    except json.JSONDecodeError:
        return {}
    return value if isinstance(value, dict) else {}


def _where_of_message(event: dict[str, Any], body: dict[str, Any]) -> Where:
    return Where(
        team_id=str(event.get("team") or body.get("team_id") or ""),
        channel=str(event["channel"]),
        thread_ts=str(event.get("thread_ts") or event["ts"]),
        user_id=str(event.get("user") or ""),
    )


def _where_of_action(body: dict[str, Any]) -> Where:
    container = body.get("container") or {}
    message = body.get("message") or {}
    return Where(
        team_id=str((body.get("team") or {}).get("id") or (body.get("user") or {}).get("team_id") or ""),
        channel=str(container.get("channel_id") or (body.get("channel") or {}).get("id")),
        thread_ts=str(container.get("thread_ts") or message.get("thread_ts") or container.get("message_ts")),
        user_id=str((body.get("user") or {}).get("id") or ""),
    )


# -- running ----------------------------------------------------------------------------------------------


def build_app(runtime: AdapterRuntime, *, client: AsyncWebClient | None = None) -> tuple[AsyncApp, SlackBot]:
    """The Bolt app with the bot's listeners; `client` defaults to one on the configured Web API URL."""
    settings = runtime.settings
    if settings.slack_bot_token is None:
        raise ValueError("set SCHOLARMAP_SLACK_BOT_TOKEN (the bot token, xoxb-...) to run the Slack bot")
    token = settings.slack_bot_token.get_secret_value()
    client = client or AsyncWebClient(token=token, base_url=settings.slack_api_url.rstrip("/") + "/")
    secret = settings.slack_signing_secret.get_secret_value() if settings.slack_signing_secret else None
    app = AsyncApp(
        client=client,
        signing_secret=secret,
        # Socket Mode messages are not signed; HTTP events always are (run_slack checks the secret)
        request_verification_enabled=secret is not None,
    )
    bot = SlackBot(runtime, client)
    bot.register(app)
    return app, bot


def check_settings(settings: Settings, *, http: bool) -> None:
    """One message naming the setting a mode lacks, before anything starts."""
    if settings.slack_bot_token is None:
        raise ValueError("set SCHOLARMAP_SLACK_BOT_TOKEN (the bot token, xoxb-...) to run the Slack bot")
    if http and settings.slack_signing_secret is None:
        raise ValueError(
            "HTTP events need SCHOLARMAP_SLACK_SIGNING_SECRET (Basic Information of the Slack app)"
        )
    if not http and settings.slack_app_token is None:
        raise ValueError(
            "Socket Mode needs SCHOLARMAP_SLACK_APP_TOKEN (an app-level token, xapp-...), or use --http"
        )


def http_app(settings: Settings, *, llm: LLM | None = None, path: str = "/slack/events") -> Any:
    """A Starlette app serving Slack's Events API and interactivity at `path`."""
    # imported when this adapter runs: the other entry points never load its SDK or web server
    from slack_bolt.adapter.starlette.async_handler import AsyncSlackRequestHandler

    # imported when this adapter runs: the other entry points never load its SDK or web server
    from starlette.applications import Starlette

    # imported when this adapter runs: the other entry points never load its SDK or web server
    from starlette.requests import Request

    # imported when this adapter runs: the other entry points never load its SDK or web server
    from starlette.responses import Response

    # imported when this adapter runs: the other entry points never load its SDK or web server
    from starlette.routing import Route

    handlers: dict[str, AsyncSlackRequestHandler] = {}

    @asynccontextmanager
    async def lifespan(_app: Starlette) -> AsyncIterator[None]:
        async with open_runtime(settings, llm=llm) as runtime:
            app, _bot = build_app(runtime)
            handlers["slack"] = AsyncSlackRequestHandler(app)
            yield

    async def events(request: Request) -> Response:
        return await handlers["slack"].handle(request)

    return Starlette(routes=[Route(path, events, methods=["POST"])], lifespan=lifespan)


def run_slack(settings: Settings, *, http: bool, host: str | None, port: int, llm: LLM | None = None) -> None:
    check_settings(settings, http=http)
    if http:
        # imported when this adapter runs: the other entry points never load its SDK or web server
        import uvicorn

        uvicorn.run(http_app(settings, llm=llm), host=host or settings.host, port=port, log_level="warning")
        return

    async def socket_mode() -> None:
        # imported when this adapter runs: the other entry points never load its SDK or web server
        from slack_bolt.adapter.socket_mode.async_handler import AsyncSocketModeHandler

        assert settings.slack_app_token is not None  # check_settings
        async with open_runtime(settings, llm=llm) as runtime:
            app, _bot = build_app(runtime)
            await AsyncSocketModeHandler(app, settings.slack_app_token.get_secret_value()).start_async()

    asyncio.run(socket_mode())
