"""The web page in headless Chromium (Playwright, the system's /usr/bin/chromium): pick an endpoint,
type a question, see both paths' answers with labels, links, evidence and timings."""

from __future__ import annotations

import shutil
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from serverutil import LabelSearchPath, ServerThread

from gateway.config import EndpointRegistry
from gateway.engines import OxigraphEngine, VirtuosoEngine
from gateway.models import Answer, PathResult
from gateway.server import ServerSettings

pytestmark = pytest.mark.browser
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync", "--no-first-run"]


class RowPath(LabelSearchPath):
    """Label search whose answers carry their label as a second column, as a count carries its group."""

    async def answer(self, question, endpoint, options) -> PathResult:  # type: ignore[no-untyped-def]
        result = await super().answer(question, endpoint, options)
        result.answers = [replace(a, row=(("name", Answer(a.label or a.value, "literal")),)) for a in result.answers]
        return result


@pytest.fixture(scope="module")
def server(virtuoso: VirtuosoEngine, oxigraph: OxigraphEngine) -> Iterator[ServerThread]:
    registry = EndpointRegistry({"default": virtuoso.endpoint("default", "ck25", description="ck25 on Virtuoso"),
                                 "orkg": oxigraph.endpoint("orkg", "orkg", description="ORKG on Oxigraph")})
    thread = ServerThread(registry, ServerSettings(),
                          paths={"kgqan": RowPath(), "hublink": LabelSearchPath()}).start()
    yield thread
    thread.stop()


@pytest.fixture(scope="module")
def page(server: ServerThread) -> Iterator[object]:
    if not Path(CHROMIUM).exists():
        pytest.skip("Chromium is not installed (scripts/install-system.sh installs it)")
    sync_api = pytest.importorskip("playwright.sync_api")
    profile = tempfile.mkdtemp(prefix="kgqa-chromium-")
    with sync_api.sync_playwright() as playwright:
        context = playwright.chromium.launch_persistent_context(
            profile, executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        try:
            yield context.new_page()
        finally:
            context.close()
            shutil.rmtree(profile, ignore_errors=True)


def test_ask_a_question_and_see_both_paths(server: ServerThread, page) -> None:  # type: ignore[no-untyped-def]
    errors: list[str] = []
    page.on("pageerror", lambda error: errors.append(str(error)))
    page.goto(server.url + "/")
    page.wait_for_selector("#endpoint option[value='orkg']", state="attached")
    assert page.locator("#endpoint").input_value() == "default"
    page.select_option("#endpoint", "orkg")
    page.fill("#question", "Which papers use software architecture?")
    page.click("#ask")
    page.wait_for_selector("#path-kgqan ul.answers li")
    kgqan = page.locator("#path-kgqan")
    assert kgqan.locator(".badge").inner_text() == "ok"
    first = kgqan.locator("ul.answers li a").first
    assert first.get_attribute("href").startswith("http")
    assert first.inner_text()  # the label is shown, linked to the IRI
    assert "SELECT" in kgqan.locator("pre.sparql").inner_text()
    assert kgqan.locator("ul.answers li .row-cell").first.inner_text().startswith(" · name: ")  # the row's other cells
    assert page.locator("#path-hublink ul.answers li").count() >= 1
    assert "orkg: answered in" in page.locator("#timings").inner_text()
    assert page.locator("#status").inner_text() == ""
    assert errors == []


def test_errors_are_shown_not_swallowed(server: ServerThread, page) -> None:  # type: ignore[no-untyped-def]
    page.goto(server.url + "/")
    page.wait_for_selector("#endpoint option[value='orkg']", state="attached")
    page.fill("#question", "x" * 1000 + "?")
    page.evaluate("document.getElementById('question').removeAttribute('maxlength')")
    page.fill("#question", "y" * 1200)
    page.click("#ask")
    page.wait_for_selector("#status.error")
    assert "longer than 1000" in page.locator("#status").inner_text()
