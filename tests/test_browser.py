"""End to end in headless Chromium: search → a hit → the article in three aligned columns →
the citation box → a topic page. Drives Debian's chromium (/usr/bin/chromium) with Playwright;
no browser is downloaded. Saves a screenshot of each page into a temporary folder, or into
$TREATY_SCREENSHOTS when set (`TREATY_SCREENSHOTS=docs/screenshots` refreshes the pictures of
docs/web.md; a test run never writes into tracked files otherwise).

Skipped only outside CI when chromium (or playwright) is not installed; in CI (CI=true) it
must run.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest

from tests.conftest import CHROMIUM

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")

if not IN_CI:
    if not Path(CHROMIUM).exists():
        pytest.skip(f"{CHROMIUM} is not installed (apt-get install chromium fonts-wqy-microhei); "
                    "CI installs it", allow_module_level=True)
    pytest.importorskip("playwright.sync_api", reason="playwright is not installed "
                        "(pip install -e '.[test]')")

from playwright.sync_api import expect


def refusals(page) -> list[str]:
    """The Content-Security-Policy refusals the page reports (as console errors), kept as
    they come; the list is checked at the end of a test."""
    found: list[str] = []
    page.on("console", lambda m: found.append(m.text) if (
        m.type == "error" and "Content Security Policy" in m.text) else None)
    return found


def shot(page, folder: Path, name: str) -> None:
    page.screenshot(path=str(folder / f"{name}.png"))


def test_search_article_cite_topic(browser, base_url, shots):
    page = browser.new_page(viewport={"width": 1400, "height": 900})
    page.set_default_timeout(10_000)
    refused = refusals(page)

    # search from the home page; the keyboard shortcut "/" focuses the box
    page.goto(base_url + "/")
    expect(page.locator("h1")).to_have_text("Tax treaties")
    page.keyboard.press("/")
    assert page.evaluate("document.activeElement.id") == "q"
    page.keyboard.type("royalty")
    page.keyboard.press("Enter")
    expect(page.locator(".hit").first).to_be_visible()
    assert "articles" in page.locator(".summary").inner_text()
    page.locator(".facets a", has_text="br-se-1965").first.click()
    expect(page).to_have_url(f"{base_url}/search?q=royalty&treaty=br-se-1965")
    expect(page.locator(".snippet b").first).to_be_visible()
    shot(page, shots, "search")

    # a hit: the article, three language versions side by side, rows aligned
    page.locator('a.hit-link[href*="/t/br-se-1965/art_7"]').first.click()
    expect(page).to_have_url(re.compile(re.escape(
        f"{base_url}/t/br-se-1965/art_7?hl=royalty#art_7__para_")))
    expect(page.locator("mark.hl").first).to_be_visible()  # the query's terms highlighted
    heads = page.locator("table.aligned tr.lead td[lang]")
    assert [heads.nth(i).get_attribute("lang") for i in range(heads.count())] == ["sv", "en", "pt"]
    row = page.locator("tr#art_7__para_2 td")
    assert row.count() == 3
    assert "royalty" in row.nth(0).inner_text().lower()
    assert "In this Article" in row.nth(1).inner_text()
    assert "Neste Artigo" in row.nth(2).inner_text()
    shot(page, shots, "article")

    # progressive JS: unticking a language reloads with the other two
    page.locator('form.controls input[name="lang"][value="pt"]').uncheck()
    expect(page).to_have_url(f"{base_url}/t/br-se-1965/art_7?lang=sv&lang=en&view=text")
    assert page.locator("table.aligned tr.lead td[lang]").count() == 2
    page.locator('form.controls input[name="view"][value="diff"]').check()
    expect(page.locator("del.ocr").first).to_be_attached()

    # the citation box, in Chinese
    page.locator("#cite").fill("中国巴西协定第十条第二款")
    page.locator("#cite").press("Enter")
    expect(page).to_have_url(f"{base_url}/t/br-cn-1991/art_10#art_10__para_2")
    cell = page.locator("tr#art_10__para_2 td[lang=zh]")
    expect(cell).to_contain_text("股息")
    assert page.evaluate("document.fonts.check('16px \"WenQuanYi Micro Hei\"')")
    shot(page, shots, "cite")

    # the topic of the article: every treaty's dividends article side by side
    page.locator("h1 a.topic").click()
    expect(page).to_have_url(f"{base_url}/topic/dividends")
    cols = page.locator("table.aligned thead th:not(.rowhead)")
    expect(cols.first).to_be_visible()  # (the address changes before the page is read)
    assert cols.count() >= 5
    assert {"Brazil–China (1991)", "Brazil–Sweden (1965)", "Brazil–Peru (2006)"} <= {
        t.split(" Art.")[0].strip() for t in cols.all_inner_texts()}  # (names, not ids)
    shot(page, shots, "topic")

    # the treaty page
    resp = page.goto(base_url + "/t/br-se-1965")
    assert "script-src 'self'" in resp.headers["content-security-policy"]
    expect(page.locator("#h-other")).to_be_visible()
    shot(page, shots, "treaty")
    page.close()
    assert refused == []  # the pages' own script and style satisfy the CSP


def test_phone_layout(browser, base_url, shots):
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    refused = refusals(page)
    page.goto(base_url + "/t/br-se-1965/art_7")
    width = page.evaluate("document.documentElement.scrollWidth")
    assert width <= 390 + 1  # nothing wider than the screen
    expect(page.locator("tr#art_7__para_1 td").first).to_be_visible()
    shot(page, shots, "article-phone")
    # the treaty page's self-audit: each version's count, its list opened on a tap
    page.goto(base_url + "/t/br-co-2022")
    summary = page.locator("ul.audit summary").first
    expect(summary).to_contain_text("25 findings")
    summary.click()
    expect(page.locator("ul.findings li").first).to_be_visible()
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    shot(page, shots, "treaty-audit-phone")
    page.close()
    assert refused == []


def test_phone_search_results_first_filters_behind_a_button(browser, base_url, shots):
    page = browser.new_page(viewport={"width": 390, "height": 844})
    refused = refusals(page)
    page.goto(base_url + "/search?q=dividends")
    first = page.locator(".hit").first
    expect(first).to_be_visible()
    assert first.bounding_box()["y"] < 844  # a result on the first screen
    facets = page.locator("#facets")
    expect(facets).to_be_hidden()
    page.locator(".filters-button").click()
    expect(facets).to_be_visible()
    assert page.locator(".filters-button").get_attribute("aria-expanded") == "true"
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    shot(page, shots, "search-phone")
    page.close()
    assert refused == []


def test_keyboard_shortcuts_arrows_and_paragraph_permalinks(browser, base_url):
    page = browser.new_page(viewport={"width": 1200, "height": 900})
    refused = refusals(page)
    page.goto(base_url + "/t/br-se-1965/art_7#art_7__para_1")
    page.keyboard.press("j")  # moves on from the paragraph opened
    expect(page).to_have_url(f"{base_url}/t/br-se-1965/art_7#art_7__para_2")
    page.keyboard.press("?")
    expect(page.locator("dialog.shortcuts")).to_be_visible()
    page.keyboard.press("Escape")
    expect(page.locator("dialog.shortcuts")).to_be_hidden()
    # an arrow key on the view radios moves the choice without reloading the page
    page.locator('form.controls input[name="view"][value="text"]').focus()
    page.keyboard.press("ArrowRight")
    page.wait_for_timeout(300)
    assert page.url == f"{base_url}/t/br-se-1965/art_7#art_7__para_2"
    expect(page.locator("form.controls button")).to_be_visible()  # apply with the button
    page.close()
    assert refused == []
