"""/rates in headless Chromium, as tests/test_browser.py drives the other pages: the matrix,
a cell's link to its paragraph, the party filter, the CSV download, and the phone layout."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

# (test_browser skips, outside CI, where chromium or playwright is missing: so does this)
from tests.test_browser import expect, refusals, shot


def test_rates_matrix_filter_download(browser, base_url, shots):
    page = browser.new_page(viewport={"width": 1400, "height": 900}, accept_downloads=True)
    page.set_default_timeout(10_000)
    refused = refusals(page)
    page.goto(base_url + "/")
    page.get_by_role("link", name="Rates").click()
    expect(page.locator("h1")).to_have_text("Withholding rates")
    table = page.get_by_role("table")
    expect(table.get_by_role("columnheader", name="Dividends")).to_be_visible()
    shot(page, shots, "rates")
    # the party filter (app.js submits the form on a change)
    page.get_by_label("Party").select_option("PE")
    page.wait_for_url(re.compile(rf"{re.escape(base_url)}/rates\?party=PE(&.*)?$"))
    expect(page.get_by_role("rowheader")).to_have_count(1)
    # the CSV download
    with page.expect_download() as info:
        page.get_by_role("link", name="Download CSV").click()
    rows = list(csv.DictReader(io.StringIO(Path(info.value.path()).read_text("utf-8"))))
    assert {r["treaty"] for r in rows} == {"Brazil–Peru (2006)"}
    # a cell links to its paragraph, which the article page shows
    page.get_by_role("link", name="15% Dividends, Brazil–Peru (2006) Art. 10(2)(b)").click()
    expect(page).to_have_url(f"{base_url}/t/br-pe-2006/art_10#art_10__para_2__point_b")
    expect(page.locator("[id='art_10__para_2__point_b']").first).to_be_visible()
    page.close()
    assert refused == []


def test_rates_on_a_phone(browser, base_url, shots):
    page = browser.new_page(viewport={"width": 390, "height": 844}, device_scale_factor=2)
    refused = refusals(page)
    page.goto(base_url + "/rates")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390 + 1
    expect(page.locator("table.rates td").first).to_be_visible()
    shot(page, shots, "rates-phone")
    page.goto(base_url + "/topic/dividends")
    expect(page.locator(".rates-box")).to_be_visible()
    page.close()
    assert refused == []
