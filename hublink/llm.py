"""An optional LLM for HubLink: any OpenAI-compatible chat-completions endpoint, over aiohttp.

Configured by environment variables (nothing secret is ever written to a file):

    KGQA_LLM_BASE_URL   e.g. http://127.0.0.1:11434/v1 (Ollama), https://api.openai.com/v1
    KGQA_LLM_MODEL      e.g. qwen2.5:14b, gpt-4o-mini
    KGQA_LLM_API_KEY    optional bearer token
    KGQA_LLM_TIMEOUT_S  seconds per request (default 60)

With an LLM, HubLink works as in the thesis (`utils/answer_generator.py`): the question is split into
components by the LLM, each of the top hubs gets a partial answer from its paths (or "insufficient"),
and a final answer cites the hubs it used as [i]. Without one, the path answers extractively.
"""

from __future__ import annotations

import json
import os
import re
from dataclasses import dataclass

import aiohttp

from gateway.errors import ConfigurationError, EndpointHTTPError, EndpointTimeout, EndpointUnreachable

INSUFFICIENT = "insufficient"

COMPONENTS_PROMPT = (
    "Split the question into the components a knowledge graph search needs: the named entities, "
    "the relations asked about, and any constraints. Answer with one component per line, nothing else."
)
PARTIAL_PROMPT = (
    "You answer a question from facts of one knowledge graph hub ({hub}). The facts are numbered paths "
    "with their triples. Use only these facts. If they do not answer the question, even partly, reply with "
    "the single word 'insufficient'. Otherwise reply with a short partial answer."
)
FINAL_PROMPT = (
    "You combine partial answers, each from one source [i], into one final answer to the question. Cite "
    "the sources you use as [i] after the statements they support. If the partial answers do not answer "
    "the question, reply with the single word 'insufficient'."
)


@dataclass(frozen=True)
class LLMConfig:
    base_url: str
    model: str
    api_key: str | None = None
    timeout_s: float = 60.0

    @classmethod
    def from_env(cls) -> LLMConfig | None:
        """The LLM named by `KGQA_LLM_*` variables, or None when none is configured."""
        base_url = os.environ.get("KGQA_LLM_BASE_URL", "").strip()
        model = os.environ.get("KGQA_LLM_MODEL", "").strip()
        if not base_url and not model:
            return None
        if not base_url or not model:
            raise ConfigurationError("set both KGQA_LLM_BASE_URL and KGQA_LLM_MODEL to use an LLM (or neither)")
        try:
            timeout = float(os.environ.get("KGQA_LLM_TIMEOUT_S", "60"))
        except ValueError as exc:
            raise ConfigurationError(f"KGQA_LLM_TIMEOUT_S is not a number: {exc}") from exc
        return cls(base_url.rstrip("/"), model, os.environ.get("KGQA_LLM_API_KEY") or None, timeout)


class LLMClient:
    """Chat completions against one OpenAI-compatible endpoint."""

    def __init__(self, config: LLMConfig) -> None:
        self.config = config
        self._session: aiohttp.ClientSession | None = None

    def _client(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession()
        return self._session

    async def close(self) -> None:
        if self._session is not None and not self._session.closed:
            await self._session.close()
        self._session = None

    async def chat(self, system: str, user: str, *, max_tokens: int = 512) -> str:
        """The assistant message for one system + user exchange (temperature 0)."""
        headers = {"Content-Type": "application/json"}
        if self.config.api_key:
            headers["Authorization"] = f"Bearer {self.config.api_key}"
        body = {"model": self.config.model, "temperature": 0, "max_tokens": max_tokens,
                "messages": [{"role": "system", "content": system}, {"role": "user", "content": user}]}
        url = f"{self.config.base_url}/chat/completions"
        try:
            async with self._client().post(url, json=body, headers=headers,
                                           timeout=aiohttp.ClientTimeout(total=self.config.timeout_s)) as response:
                text = await response.text()
                if response.status >= 300:
                    raise EndpointHTTPError(f"LLM answered HTTP {response.status}: {text[:500]}",
                                            status=response.status, endpoint=self.config.base_url)
        except TimeoutError as exc:
            raise EndpointTimeout(f"LLM gave no answer within {self.config.timeout_s:g} s",
                                  endpoint=self.config.base_url) from exc
        except aiohttp.ClientError as exc:
            raise EndpointUnreachable(f"cannot reach the LLM at {url}: {exc}", endpoint=self.config.base_url) from exc
        try:
            data = json.loads(text)
            content = data["choices"][0]["message"]["content"]
        except (json.JSONDecodeError, KeyError, IndexError, TypeError) as exc:
            raise EndpointHTTPError(f"LLM answer is not a chat completion: {text[:300]}", status=response.status,
                                    endpoint=self.config.base_url) from exc
        return str(content or "").strip()

    async def question_components(self, question: str) -> list[str]:
        reply = await self.chat(COMPONENTS_PROMPT, question, max_tokens=200)
        lines = [re.sub(r"^\s*(?:[-*•]|\d+[.)])\s*", "", line).strip().strip('"') for line in reply.splitlines()]
        return [line for line in lines if line]

    async def partial_answer(self, question: str, hub_label: str, paths: list[tuple[str, list[str]]]) -> str | None:
        """A partial answer from one hub's paths, or None when the LLM finds them insufficient."""
        facts = "\n".join(f"({i}) {text}; triples: {'; '.join(triples)}" for i, (text, triples) in enumerate(paths, 1))
        reply = await self.chat(PARTIAL_PROMPT.format(hub=hub_label), f"Question: {question}\n\nFacts:\n{facts}")
        return None if not reply or INSUFFICIENT in reply.lower()[:40] else reply

    async def final_answer(self, question: str, partials: list[str]) -> str | None:
        numbered = "\n".join(f"[{i}] {text}" for i, text in enumerate(partials, 1))
        reply = await self.chat(FINAL_PROMPT, f"Question: {question}\n\nPartial answers:\n{numbered}")
        return None if not reply or INSUFFICIENT in reply.lower()[:40] else reply
