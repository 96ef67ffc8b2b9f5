"""The orchestrator runs both answer paths side by side and isolates their failures."""

from __future__ import annotations

import asyncio

from gateway.config import EndpointConfig, EndpointRegistry
from gateway.endpoint import Endpoint
from gateway.models import Answer, AnswerStatus, PathResult
from gateway.qa import AskOptions, Gateway


class _Answers:
    name = "kgqan"

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        return PathResult(self.name, answers=[Answer("42", "literal")])

    async def close(self) -> None:
        pass


class _Broken:
    name = "hublink"

    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        raise RuntimeError("index exploded")

    async def close(self) -> None:
        pass


class _Slow(_Broken):
    async def answer(self, question: str, endpoint: Endpoint, options: AskOptions) -> PathResult:
        await asyncio.sleep(30)
        raise AssertionError("unreachable")


def _gateway(**paths: object) -> Gateway:
    registry = EndpointRegistry({"t": EndpointConfig(name="t", url="http://127.0.0.1:1/sparql")})
    gateway = Gateway(registry)
    for name, path in paths.items():
        gateway.register_path(name, path)  # type: ignore[arg-type]
    return gateway


async def test_one_failing_path_does_not_take_the_other_down() -> None:
    gateway = _gateway(kgqan=_Answers(), hublink=_Broken())
    result = await gateway.ask("What is the answer?", "t")
    data = result.to_dict()
    assert data["kgqan"]["answers"] == [{"value": "42", "kind": "literal"}]
    assert data["hublink"]["status"] == "error" and "index exploded" in data["hublink"]["error"]
    await gateway.close()


async def test_a_slow_path_times_out_with_a_clear_error() -> None:
    gateway = _gateway(kgqan=_Answers(), hublink=_Slow())
    result = await gateway.ask("What is the answer?", "t", AskOptions(timeout_s=0.2))
    assert result.paths["kgqan"].status is AnswerStatus.OK
    assert result.paths["hublink"].error_kind == "timeout"
    await gateway.close()


async def test_bad_questions_and_endpoints_are_reported_not_raised() -> None:
    gateway = _gateway(kgqan=_Answers(), hublink=_Answers())
    assert (await gateway.ask("   ", "t")).error_kind == "bad-question"
    assert (await gateway.ask("x" * 5000, "t")).error_kind == "bad-question"
    assert (await gateway.ask("Who?", "nowhere")).error_kind == "unknown-endpoint"
    assert (await gateway.ask("Who?", "t", AskOptions(paths=("magic",)))).error_kind == "bad-request"
    await gateway.close()


def test_unavailable_path_says_so() -> None:
    result = PathResult.unavailable("hublink", "not built")
    assert result.to_dict()["status"] == "not-available"
    assert result.to_dict()["error"] == "not built"
