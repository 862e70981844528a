"""The LLM port: structured JSON completion into a pydantic model, and streamed text.

Three implementations share one interface:
- `OpenAICompatibleLLM`: any OpenAI-compatible endpoint (OpenAI, DeepSeek, Qwen, vLLM, Ollama ...).
- `ScriptedLLM`: canned replies keyed by prompt name, recording every call (tests and evaluations).
- `RulesLLM`: no model at all; every call is "unavailable", so domain code takes its deterministic
  fallback, and says so (`Produced.RULES`).

Domain modules call `complete_or_fallback(...)`, which returns the value together with who produced it,
so the user always sees whether an answer came from a model or from the rules.
"""

from __future__ import annotations

import json
import logging
import re
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterable, Mapping
from dataclasses import dataclass, field
from typing import Annotated, Any, Generic, TypeVar

from pydantic import BaseModel, BeforeValidator, ValidationError

from agent.errors import ServiceError
from agent.models import Produced
from agent.prompts import PromptTemplate, load_prompt
from agent.settings import Settings

log = logging.getLogger(__name__)

T = TypeVar("T", bound=BaseModel)

JSON_INSTRUCTION = "\n\nReply with one JSON object only (no prose, no code fences) that validates against this JSON Schema:\n"


def _text_list(value: Any) -> list[str]:
    if value is None:
        return []
    values = value if isinstance(value, list) else [value]
    return [str(v) for v in values if str(v).strip()]


# A list of strings in a model's reply, read leniently: null is [], a lone string is [it], blanks are dropped.
TextList = Annotated[list[str], BeforeValidator(_text_list)]

RETRY_INSTRUCTION = (
    "Your previous reply could not be used: {error}\nReply again with the corrected JSON object only."
)


class LLMError(ServiceError):
    """Base class of LLM failures."""


class LLMUnavailable(LLMError):
    """No model is configured, or the endpoint could not be reached or refused us."""


class InvalidLLMOutput(LLMError):
    """The model's reply was not valid JSON for the schema, twice."""


@dataclass
class LLMCall:
    """One request as the model saw it; the scripted fake records these."""

    prompt: str
    values: dict[str, Any]
    system: str
    user: str


V = TypeVar("V")


@dataclass
class Completion(Generic[V]):
    value: V
    produced_by: Produced
    note: str | None = None


def _template(prompt: PromptTemplate | str, values: Mapping[str, Any]) -> PromptTemplate:
    return prompt if isinstance(prompt, PromptTemplate) else load_prompt(prompt, set(values))


_FENCE = re.compile(r"^\s*```(?:json)?\s*(.*?)\s*```\s*$", re.DOTALL)


def parse_structured(text: str, schema: type[T]) -> T:
    """Parse a model reply into `schema`; tolerates code fences and prose around one JSON object."""
    if match := _FENCE.match(text):
        text = match.group(1)
    text = text.strip()
    if not text.startswith("{"):
        start, end = text.find("{"), text.rfind("}")
        if start == -1 or end <= start:
            raise ValueError("the reply contains no JSON object")
        text = text[start : end + 1]
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ValueError(f"invalid JSON: {exc}") from exc
    try:
        return schema.model_validate(data)
    except ValidationError as exc:
        raise ValueError(f"JSON does not match the schema: {exc.errors(include_url=False)[:5]}") from exc


class LLM(ABC):
    kind: Produced
    model: str = ""

    @abstractmethod
    async def structured(self, prompt: PromptTemplate | str, values: Mapping[str, Any], schema: type[T]) -> T:
        """Complete the prompt into `schema`; one retry on invalid output, then `InvalidLLMOutput`."""

    @abstractmethod
    def stream(self, prompt: PromptTemplate | str, values: Mapping[str, Any]) -> AsyncIterator[str]:
        """Stream the reply's text."""

    async def complete_or_fallback(
        self,
        prompt: PromptTemplate | str,
        values: Mapping[str, Any],
        schema: type[T],
        fallback: Callable[[], T],
    ) -> Completion[T]:
        """The model's answer, or the rules' answer when there is no usable model (with the reason)."""
        try:
            return Completion(await self.structured(prompt, values, schema), self.kind)
        except LLMUnavailable as exc:
            note = f"rules fallback: {exc}"
        except InvalidLLMOutput as exc:
            note = f"rules fallback after invalid model output: {exc}"
        log.warning("%s", note)
        return Completion(fallback(), Produced.RULES, note)

    @property
    def available(self) -> bool:
        return self.kind is not Produced.RULES


class RulesLLM(LLM):
    """No model configured: every call is unavailable, so callers use their deterministic fallbacks."""

    kind = Produced.RULES
    model = "rules"

    def __init__(self, reason: str = "no LLM is configured") -> None:
        self.reason = reason

    async def structured(self, prompt: PromptTemplate | str, values: Mapping[str, Any], schema: type[T]) -> T:
        raise LLMUnavailable(self.reason)

    async def stream(self, prompt: PromptTemplate | str, values: Mapping[str, Any]) -> AsyncIterator[str]:
        raise LLMUnavailable(self.reason)
        yield ""  # pragma: no cover - makes this an async generator


Reply = str | Mapping[str, Any] | BaseModel | Callable[[LLMCall], Any]


@dataclass
class ScriptedLLM(LLM):
    """Canned replies keyed by prompt name; a list is consumed one reply per call (the last repeats).

    A reply may be a string (sent as the raw model text, so invalid JSON can be scripted), a dict or
    model (sent as JSON), or a callable of the `LLMCall` returning one of those. A prompt with no
    script is unavailable, exactly like a missing model.
    """

    replies: dict[str, Reply | list[Reply]] = field(default_factory=dict)
    calls: list[LLMCall] = field(default_factory=list)
    kind: Produced = Produced.SCRIPTED
    model: str = "scripted"

    def _next_text(self, template: PromptTemplate, values: Mapping[str, Any]) -> str:
        system, user = template.render(**values)
        call = LLMCall(template.name, dict(values), system, user)
        self.calls.append(call)
        if template.name not in self.replies:
            raise LLMUnavailable(f"no scripted reply for prompt '{template.name}'")
        script = self.replies[template.name]
        if isinstance(script, list):
            reply = script.pop(0) if len(script) > 1 else script[0]
        else:
            reply = script
        if callable(reply) and not isinstance(reply, BaseModel):
            reply = reply(call)
        if isinstance(reply, BaseModel):
            return reply.model_dump_json()
        if isinstance(reply, Mapping):
            return json.dumps(reply, ensure_ascii=False)
        return str(reply)

    async def structured(self, prompt: PromptTemplate | str, values: Mapping[str, Any], schema: type[T]) -> T:
        template = _template(prompt, values)
        error = ""
        for _attempt in range(2):
            try:
                return parse_structured(self._next_text(template, values), schema)
            except ValueError as exc:
                error = str(exc)
        raise InvalidLLMOutput(f"prompt '{template.name}': {error}")

    async def stream(self, prompt: PromptTemplate | str, values: Mapping[str, Any]) -> AsyncIterator[str]:
        text = self._next_text(_template(prompt, values), values)
        for piece in re.findall(r"\S+\s*|\s+", text):
            yield piece


class OpenAICompatibleLLM(LLM):
    """Any endpoint that speaks the OpenAI chat-completions API."""

    kind = Produced.LLM

    def __init__(
        self,
        *,
        api_key: str,
        model: str,
        base_url: str | None = None,
        temperature: float = 0.1,
        timeout: float = 60.0,
        client: Any = None,
    ) -> None:
        # the OpenAI SDK is imported only when an LLM endpoint is configured
        import openai

        self.model = model
        self.temperature = temperature
        self._openai = openai
        self.client = client or openai.AsyncOpenAI(
            api_key=api_key, base_url=base_url, timeout=timeout, max_retries=2
        )

    def _messages(self, template: PromptTemplate, values: Mapping[str, Any], schema: type[BaseModel] | None):
        system, user = template.render(**values)
        if schema is not None:
            system += JSON_INSTRUCTION + json.dumps(schema.model_json_schema(), ensure_ascii=False)
        return [{"role": "system", "content": system}, {"role": "user", "content": user}]

    def _translate(self, exc: Exception) -> LLMError:
        openai = self._openai
        if isinstance(exc, openai.APIConnectionError | openai.APITimeoutError):
            return LLMUnavailable(f"the LLM endpoint could not be reached ({type(exc).__name__})")
        if isinstance(exc, openai.AuthenticationError | openai.PermissionDeniedError):
            return LLMUnavailable("the LLM endpoint refused the API key (check OPENAI_API_KEY)")
        if isinstance(exc, openai.APIStatusError):
            return LLMUnavailable(f"the LLM endpoint answered HTTP {exc.status_code}")
        return LLMUnavailable(f"the LLM call failed: {type(exc).__name__}")

    async def structured(self, prompt: PromptTemplate | str, values: Mapping[str, Any], schema: type[T]) -> T:
        template = _template(prompt, values)
        messages = self._messages(template, values, schema)
        error = ""
        for _attempt in range(2):
            try:
                response = await self.client.chat.completions.create(
                    model=self.model,
                    messages=messages,
                    temperature=self.temperature,
                    response_format={"type": "json_object"},
                )
            except self._openai.OpenAIError as exc:
                raise self._translate(exc) from exc
            text = (response.choices[0].message.content or "") if response.choices else ""
            try:
                return parse_structured(text, schema)
            except ValueError as exc:
                error = str(exc)
                messages = [
                    *messages,
                    {"role": "assistant", "content": text},
                    {"role": "user", "content": RETRY_INSTRUCTION.format(error=error)},
                ]
        raise InvalidLLMOutput(f"prompt '{template.name}': {error}")

    async def stream(self, prompt: PromptTemplate | str, values: Mapping[str, Any]) -> AsyncIterator[str]:
        template = _template(prompt, values)
        try:
            response = await self.client.chat.completions.create(
                model=self.model,
                messages=self._messages(template, values, None),
                temperature=self.temperature,
                stream=True,
            )
            async for chunk in response:
                if chunk.choices and (delta := chunk.choices[0].delta.content):
                    yield delta
        except self._openai.OpenAIError as exc:
            raise self._translate(exc) from exc


def build_llm(settings: Settings) -> LLM:
    """The LLM the settings ask for: `openai`, `rules`, or `auto` (a model when a key is configured)."""
    if settings.llm == "rules" or (settings.llm == "auto" and not settings.llm_configured):
        return RulesLLM()
    if not settings.llm_configured:
        return RulesLLM("SCHOLARMAP_LLM=openai but OPENAI_API_KEY is not set")
    return OpenAICompatibleLLM(
        api_key=settings.openai_api_key.get_secret_value() if settings.openai_api_key else "not-needed",
        model=settings.llm_model,
        base_url=settings.llm_base_url,
        temperature=settings.llm_temperature,
        timeout=settings.llm_timeout,
    )


def chunks_of(text: str) -> Iterable[str]:
    """Split text into word-sized pieces, for fallbacks that stream a text they already have."""
    return re.findall(r"\S+\s*|\s+", text)
