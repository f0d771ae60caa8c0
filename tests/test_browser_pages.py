"""Every kind of page in headless Chromium (as tests/test_browser.py drives it): axe-core's
accessibility rules (axe-playwright-python ships its script) on a desktop and a phone, and
the print stylesheet: the side-by-side columns kept, the controls dropped."""

from __future__ import annotations

import re

import pytest

# (test_browser skips, outside CI, where chromium or playwright is missing: so does this)
import tests.test_browser  # noqa: F401  (its skip: chromium and playwright are there)

axe_module = pytest.importorskip("axe_playwright_python.sync_playwright",
                                 reason="axe-playwright-python is not installed "
                                 "(pip install -e '.[test]')")

#: One of each kind of page and of each state it shows (a correction, shorthand read, a
#: Chinese query; the repair view; an ambiguous citation; a 404; the concordance and its
#: error), at a desktop's width.
PAGES = ["/", "/search?q=%E8%82%A1%E6%81%AF&lang=zh", "/search?q=dividents",
         "/search?q=PE+definition", "/t/br-se-1965/art_7", "/t/br-se-1965/art_7?view=diff",
         "/t/br-cn-1991/art_10", "/topic/dividends", "/topic", "/t/br-co-2022", "/rates",
         "/cite?q=Brazil+Art.+10(2)", "/t/xx-yy-1900", "/terms?q=beneficial+owner",
         "/terms?q=xyzzy"]
#: The pages a phone lays out otherwise (one column, filters behind a button), each kind once.
PHONE_PAGES = {"/", "/search?q=dividents", "/t/br-se-1965/art_7", "/topic/dividends",
               "/t/br-co-2022", "/rates", "/terms?q=beneficial+owner",
               "/cite?q=Brazil+Art.+10(2)"}
VIEWPORTS = {"desktop": {"width": 1400, "height": 900}, "phone": {"width": 390, "height": 844}}


@pytest.fixture(scope="module")
def axe():
    return axe_module.Axe()


def _violations(page, axe) -> str:
    """axe-core's violations on the page as it is now ("" when none); its script is put in
    the page first when it is not there yet."""
    if not page.evaluate("typeof window.axe !== 'undefined'"):
        page.evaluate(axe.axe_script)
    result = axe_module.AxeResults(page.evaluate(
        "axe.run({resultTypes: ['violations']}).then(r => r)"))
    return result.generate_snapshot() if result.violations_count else ""


def test_pages_pass_axe_core(browser, base_url, axe):
    """Every page at a desktop's width; those a phone lays out otherwise also at a phone's
    (the same page, resized)."""
    page = browser.new_page(viewport=VIEWPORTS["desktop"])
    page.set_default_timeout(10_000)
    found = {}
    for url in PAGES:
        page.goto(base_url + url)
        found[url, "desktop"] = _violations(page, axe)
        if url in PHONE_PAGES:
            page.set_viewport_size(VIEWPORTS["phone"])
            found[url, "phone"] = _violations(page, axe)
            page.set_viewport_size(VIEWPORTS["desktop"])
    page.close()
    assert {k: v for k, v in found.items() if v} == {}
    assert len(found) == len(PAGES) + len(PHONE_PAGES)


def test_the_terms_page_on_a_phone(browser, base_url):
    page = browser.new_page(viewport=VIEWPORTS["phone"])
    page.goto(base_url + "/terms?q=beneficial+owner&to=pt&to=zh")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    assert page.locator("table.kwic mark").first.inner_text() == "beneficial owner"
    page.close()


def _pdf_pages(pdf: bytes) -> int:
    return len(re.findall(rb"/Type\s*/Page[^s]", pdf))


def test_print_keeps_the_columns_and_drops_the_controls(browser, base_url):
    # the width of an A4 page less a browser's 1 cm print margins, as a print dialog lays out
    page = browser.new_page(viewport={"width": 718, "height": 1000})
    page.goto(base_url + "/t/br-se-1965/art_7")
    page.emulate_media(media="print")
    for selector in ("header.site", "form.controls", "nav.prevnext", "footer.site",
                     ".downloads"):
        assert page.evaluate(f"getComputedStyle(document.querySelector('{selector}')).display"
                             ) == "none", selector
    # three versions side by side: each row's cells start at one height, left to right
    boxes = page.evaluate("[...document.querySelectorAll('tr#art_7__para_2 td')]"
                          ".map(e => { const r = e.getBoundingClientRect(); "
                          "return [r.left, r.top]; })")
    assert len(boxes) == 3 and len({top for _left, top in boxes}) == 1
    assert boxes == sorted(boxes)
    # article 7 in three languages fits two A4 pages (stacked one under another: three)
    margins = {side: "1cm" for side in ("top", "bottom", "left", "right")}
    assert _pdf_pages(page.pdf(format="A4", margin=margins)) == 2
    assert "Cite as br-se-1965 Art. 7" in page.inner_text("p.meta")
    page.close()
