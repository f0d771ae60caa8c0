"""The treaty as in force in headless Chromium (issue 29), on the bundled treaties with the
protocols written for the issue (tests/cases/instruments/): the treaty page's facts (each
with its source line) and instruments, an amended article and its original (`?as=original`),
and the rates page at a date, at a desktop's and a phone's width, each page passing
axe-core's rules and not wider than the phone."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest

# (test_browser skips, outside CI, where chromium or playwright is missing: so does this)
from tests.test_browser import expect, refusals, shot

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "scripts"))
from instrument_corpus import build

axe_module = pytest.importorskip("axe_playwright_python.sync_playwright",
                                 reason="axe-playwright-python is not installed "
                                 "(pip install -e '.[test]')")
VIEWPORTS = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def amended_url(tmp_path_factory):
    """The app serving the bundled treaties with their protocols applied."""
    from indexer.pipeline import ingest
    from search.web import create_app
    from search.web.server import make_server

    tmp = tmp_path_factory.mktemp("amended-web")
    data = tmp / "data"
    ingest(build(tmp / "corpus"), data, workers=1)
    server = make_server(create_app(data), "127.0.0.1", 0, threads=4)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.port}"
    server.close()
    thread.join(10)


def _checked(page, axe, width: int) -> None:
    """No axe-core violation, and nothing wider than the window."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe.axe_script)
    result = axe_module.AxeResults(page.evaluate(
        "axe.run({resultTypes: ['violations']}).then(r => r)"))
    assert result.violations_count == 0, result.generate_snapshot()
    assert page.evaluate("document.documentElement.scrollWidth") <= width + 1


@pytest.mark.parametrize("size", sorted(VIEWPORTS))
def test_treaty_article_original_and_rates_pages(browser, amended_url, shots, size):
    axe = axe_module.Axe()
    view = VIEWPORTS[size]
    page = browser.new_page(viewport=view)
    page.set_default_timeout(10_000)
    refused = refusals(page)
    # the treaty page: its facts, each with where it came from, and its instruments
    page.goto(amended_url + "/t/br-pe-2006")
    facts = page.locator("dl.facts")
    expect(facts).to_be_visible()
    expect(facts).to_contain_text("Entry into force")
    expect(facts).to_contain_text("brazil-peru-2006.en.txt line")
    expect(facts).to_contain_text("Español")  # an authentic language the interface lacks
    instruments = page.locator("ul.instruments")
    expect(instruments).to_contain_text("Protocol signed 2019-03-12")
    expect(instruments.get_by_role("link", name="Art. 11(2)")).to_be_visible()  # no eId
    _checked(page, axe, view["width"])
    shot(page, shots, f"treaty-facts-{size}")
    # an amended article says so and links its original, which reads as first signed
    page.goto(amended_url + "/t/br-pe-2006/art_10")
    expect(page.locator(".asof.amended")).to_contain_text("As amended by the protocol of "
                                                          "2019-03-12")
    _checked(page, axe, view["width"])
    shot(page, shots, f"article-amended-{size}")
    page.locator(".asof.amended").get_by_role("link", name="Read the original").click()
    expect(page).to_have_url(f"{amended_url}/t/br-pe-2006/art_10?as=original")
    expect(page.locator(".asof")).to_contain_text("The text as first signed")
    expect(page.locator("main")).to_contain_text("20 percent of the voting rights")
    _checked(page, axe, view["width"])
    shot(page, shots, f"article-original-{size}")
    # the rates today (the protocol's) and at a date before it took effect
    page.goto(amended_url + "/rates?party=PE")
    expect(page.locator("table.rates")).to_contain_text("5%")
    _checked(page, axe, view["width"])
    shot(page, shots, f"rates-amended-{size}")
    page.goto(amended_url + "/rates?party=PE&as_of=2010-01-01")
    expect(page.locator("#as_of")).to_have_value("2010-01-01")
    expect(page.locator("table.rates")).to_contain_text("10%")
    expect(page.locator(".lead")).to_contain_text("on 2010-01-01")
    page.close()
    assert refused == []
