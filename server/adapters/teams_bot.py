"""`scholarmap teams`: the conversation in Microsoft Teams, on the Microsoft 365 Agents SDK.

The Agents SDK is the maintained successor of the Bot Framework SDK for Python. One Teams conversation
(a 1:1 chat, a group chat, a channel thread) is one ScholarMap thread, through the chat key
`teams:<conversation id>` kept in the threads table. The bot renders the thread manager's typed events:

- in 1:1 chats, by the Teams streaming protocol (the SDK's `StreamingResponse`): informative updates
  while it understands, expands keywords and searches, the answer's text as it arrives, then one final
  message carrying the citations (and a card when the turn ends on a question);
- in group chats and channels, where Teams does not stream, by plain messages: a progress message
  updated at a bounded rate, then the answer with its numbered sources.

Questions, confirmation, keyword review and a finished Run are Adaptive Cards (`server.adapters.teams_cards`).
`scholarmap teams` serves the Bot Framework messaging endpoint (POST /api/messages) with the SDK's
FastAPI hosting and MSAL authentication.
"""

from __future__ import annotations

import logging
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

from microsoft_agents.activity import Activity, ActivityTypes, Channels
from microsoft_agents.hosting.core import CardFactory, TurnContext
from microsoft_agents.hosting.core.app.streaming import Citation

from agent.llm import LLM
from agent.settings import Settings
from server.adapters.runtime import HOW_TO_BEGIN, AdapterRuntime, open_runtime, thread_for_key, turn
from server.adapters.teams_cards import interrupt_card, resume_of, run_card
from server.streaming import threads as thread_errors
from server.streaming.failures import public_failure
from server.streaming.render import SOURCE_NAMES, render_progress, render_run_ready, render_sources

log = logging.getLogger(__name__)

_REFUSALS: tuple[type[Exception], ...] = tuple(
    getattr(thread_errors, name)
    for name in ("ThreadBusy", "ResumeMismatch", "ThreadNotFound", "StalePause")
    if hasattr(thread_errors, name)
)
NODE_LABELS = {
    "understand": "Reading your description…",
    "keywords": "Finding terms and synonyms…",
    "search": "Searching PubMed, Semantic Scholar and OpenAlex…",
    "ask": "Reading the papers…",
    "map": "Drawing the academic map…",
}
STREAM_KEEPALIVE = 20.0  # seconds without an informative update before a page of progress is sent
LEADS = {
    "clarification": "A few questions before I search:",
    "confirmation": "Here is how I read your description; confirm or correct it:",
    "review": "The search plan; search now or edit it:",
}


class TeamsTurn:
    """Renders one turn's events into the Teams conversation."""

    def __init__(self, bot: TeamsBot, context: TurnContext, thread_id: str) -> None:
        self.bot = bot
        self.context = context
        self.thread_id = thread_id
        activity = context.activity
        conversation_type = activity.conversation.conversation_type if activity.conversation else None
        self.personal = activity.channel_id == Channels.ms_teams and conversation_type == "personal"
        self.stream = context.streaming_response if self.personal else None
        self.text = ""
        self.attached = False
        self.informed = False  # a stream begun with informative updates must end with a final message
        self.last_informed = time.monotonic()
        self.citations: list[dict[str, Any]] = []
        self.progress: dict[str, str] = {}
        self.progress_id: str | None = None
        self.last_progress = 0.0

    async def send(self, text: str, card: dict[str, Any] | None = None) -> str | None:
        activity = Activity(type=ActivityTypes.message, text=text, text_format="markdown")
        if card is not None:
            activity.attachments = [CardFactory.adaptive_card(card)]
        response = await self.context.send_activity(activity)
        return response.id if response else None

    async def handle(self, event: Any) -> None:
        data = event.data
        if event.type == "node" and data.get("status") == "started" and self.stream:
            if label := NODE_LABELS.get(str(data.get("node"))):
                self.stream.queue_informative_update(label)
                self.informed, self.last_informed = True, time.monotonic()
        elif event.type == "search_progress":
            await self.search_progress(data)
        elif event.type == "text":
            self.add_text(str(data.get("delta", "")))
        elif event.type == "citation":
            self.citations.append(data)
        elif event.type == "interrupt":
            card = interrupt_card(data, self.thread_id)
            await self.attach(LEADS.get(str(data.get("kind")), ""), card)
        elif event.type == "run_ready":
            await self.show_progress()  # the final counts, whatever the rate allowed before
            await self.attach(render_run_ready(data), run_card(data, self.thread_id, self.bot.public_url))
        elif event.type == "map_ready":
            self.add_text(f"\n\nThe academic map is ready: {self.bot.link(str(data.get('url')))}")
        elif event.type == "error":
            self.add_text(f"\n\n⚠️ {data.get('message') or 'the conversation failed'}")

    def add_text(self, delta: str) -> None:
        if not delta:
            return
        self.text += delta
        if self.stream:
            self.stream.queue_text_chunk(delta)

    async def attach(self, text: str, card: dict[str, Any]) -> None:
        if self.stream:  # one final message ends a stream: the card rides on it
            self.add_text(("\n\n" if self.text else "") + text)
            self.stream.add_attachment(CardFactory.adaptive_card(card))
            self.attached = True
        else:
            await self.send(text, card)

    async def search_progress(self, data: dict[str, Any]) -> None:
        line = render_progress(data)
        if self.stream:
            # A source finishing is news; a page is sent only to keep the stream alive (Teams drops a
            # stream after 45 s without an update).
            quiet = time.monotonic() - self.last_informed >= STREAM_KEEPALIVE
            if line is None and quiet:
                line = f"{SOURCE_NAMES.get(str(data.get('source')), data.get('source'))}: {data.get('fetched', 0)} records so far"
            if line is not None:
                self.stream.queue_informative_update(line)
                self.informed, self.last_informed = True, time.monotonic()
            return
        if line is None:
            return
        self.progress[str(data.get("source"))] = line
        if self.progress_id is None:
            self.progress_id = await self.send(self._progress_text())
            self.last_progress = time.monotonic()
        elif time.monotonic() - self.last_progress >= self.bot.update_interval:
            await self.show_progress()

    def _progress_text(self) -> str:
        return "Searching…\n\n" + "\n\n".join(self.progress.values())

    async def show_progress(self) -> None:
        if self.progress_id is not None:
            update = Activity(type=ActivityTypes.message, id=self.progress_id, text=self._progress_text())
            await self.context.update_activity(update)
            self.last_progress = time.monotonic()

    async def finish(self) -> None:
        if self.stream:
            if self.citations:  # on the final message only with the AI label (the SDK's rule)
                self.stream.set_citations(_numbered(self.citations))
                self.stream.set_generated_by_ai_label(True)
            if self.informed and not (self.text or self.attached):
                self.add_text("Done.")
            if self.text or self.attached:
                await self.stream.end_stream()
            return
        if self.text.strip():
            sources = "\n\n" + render_sources(self.citations).replace("\n", "\n\n") if self.citations else ""
            await self.send(self.text.strip() + sources)


def _numbered(citations: list[dict[str, Any]]) -> list[Citation]:
    """Citations at the positions of their [n] markers (unused positions are dropped by the SDK)."""
    by_n = {int(c.get("n", 0)): c for c in citations}
    out = []
    for n in range(1, max(by_n, default=0) + 1):
        c = by_n.get(n)
        if c is None:
            out.append(Citation(content="", title=f"source {n}"))
            continue
        url = f"https://doi.org/{c['doi']}" if c.get("doi") else None
        title = str(c.get("title") or c.get("paper_key"))
        year = f" ({c['year']})" if c.get("year") else ""
        out.append(Citation(content=str(c.get("quote") or title), title=f"{title}{year}", url=url))
    return out


class TeamsBot:
    """The agent: `on_turn` is what the SDK's adapter calls for every incoming activity."""

    def __init__(self, runtime: AdapterRuntime) -> None:
        self.runtime = runtime
        self.public_url = runtime.settings.public_url
        self.update_interval = runtime.settings.chat_update_interval

    def link(self, path: str) -> str:
        return f"[{path}]({self.public_url.rstrip('/')}{path})" if self.public_url else path

    async def on_turn(self, context: TurnContext) -> None:
        activity = context.activity
        if activity.type == ActivityTypes.message:
            value = activity.value if isinstance(activity.value, dict) else None
            if value and value.get("action"):
                await self.on_card(context, value)
                return
            text = (activity.remove_recipient_mention() if activity.text else "").strip()
            if not text:  # a bare mention, or only an attachment: how to begin, and nothing starts
                await context.send_activity(HOW_TO_BEGIN)
                return
            await self.converse(context, text=text)
        elif activity.type == ActivityTypes.conversation_update:
            added = [
                m
                for m in activity.members_added or []
                if activity.recipient and m.id != activity.recipient.id
            ]
            if added:
                await context.send_activity(HOW_TO_BEGIN)

    async def on_card(self, context: TurnContext, value: dict[str, Any]) -> None:
        if value.get("action") == "run_map":
            await self.converse(context, text="/map", mode="map")
            return
        resume, problem = resume_of(value)
        if resume is None:
            await context.send_activity(problem or "that card action is not known")
            return
        await self.converse(context, resume=resume, pause_id=value.get("pause_id"))

    async def converse(
        self,
        context: TurnContext,
        *,
        text: str | None = None,
        resume: dict[str, Any] | None = None,
        mode: str | None = None,
        pause_id: str | None = None,
    ) -> None:
        conversation = context.activity.conversation
        key = f"teams:{conversation.id if conversation else 'unknown'}"
        thread_id = await thread_for_key(self.runtime, key)
        renderer = TeamsTurn(self, context, thread_id)
        try:
            async for event in turn(
                self.runtime.threads, thread_id, text=text, resume=resume, mode=mode, pause_id=pause_id
            ):
                await renderer.handle(event)
        except _REFUSALS as exc:
            await context.send_activity(str(exc))
            return
        await renderer.finish()


# -- serving ----------------------------------------------------------------------------------------------


def check_settings(settings: Settings) -> None:
    if not settings.teams_app_id or settings.teams_app_password is None:
        raise ValueError(
            "set SCHOLARMAP_TEAMS_APP_ID and SCHOLARMAP_TEAMS_APP_PASSWORD (the Azure Bot's app id and "
            "client secret) to run the Teams bot"
        )


async def report_turn_error(context: TurnContext, error: Exception) -> None:
    """What the user sees of a turn that failed: the Agents SDK's default handler sends
    "Exception caught : <the exception's text>"; here a named failure keeps its message and anything else
    is the generic sentence with a reference (its traceback in the log)."""
    failure = public_failure(error, log, doing="answering this message", where="Teams turn")
    await context.send_activity(failure.message)


def http_app(settings: Settings, *, llm: LLM | None = None) -> Any:
    """FastAPI app with the messaging endpoint, JWT-checked as the Agents SDK hosting does it."""
    # imported when this adapter runs: the other entry points never load its SDK or web server
    from fastapi import FastAPI, Request, Response

    # imported when this adapter runs: the other entry points never load its SDK or web server
    from microsoft_agents.authentication.msal import MsalConnectionManager

    # imported when this adapter runs: the other entry points never load its SDK or web server
    from microsoft_agents.hosting.core import AgentAuthConfiguration

    # imported when this adapter runs: the other entry points never load its SDK or web server
    from microsoft_agents.hosting.fastapi import CloudAdapter, JwtAuthorizationMiddleware

    assert settings.teams_app_password is not None  # check_settings
    auth = AgentAuthConfiguration(
        client_id=settings.teams_app_id,
        tenant_id=settings.teams_tenant_id,
        client_secret=settings.teams_app_password.get_secret_value(),
    )
    adapter = CloudAdapter(
        connection_manager=MsalConnectionManager(connections_configurations={"SERVICE_CONNECTION": auth})
    )
    adapter.on_turn_error = report_turn_error
    bots: dict[str, TeamsBot] = {}

    @asynccontextmanager
    async def lifespan(_app: FastAPI) -> AsyncIterator[None]:
        async with open_runtime(settings, llm=llm) as runtime:
            bots["teams"] = TeamsBot(runtime)
            yield

    app = FastAPI(lifespan=lifespan)
    app.state.agent_configuration = auth
    app.add_middleware(JwtAuthorizationMiddleware)

    @app.post("/api/messages")
    async def messages(request: Request) -> Response | None:
        return await adapter.process(request, bots["teams"])

    return app


def run_teams(settings: Settings, *, host: str | None, port: int) -> None:
    # imported when this adapter runs: the other entry points never load its SDK or web server
    import uvicorn

    check_settings(settings)
    uvicorn.run(http_app(settings), host=host or settings.host, port=port, log_level="warning")
