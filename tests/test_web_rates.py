"""The /rates page, /rates.csv, /api/rates and the rates on top of topic and treaty pages."""

from __future__ import annotations

import csv
import io

import pytest


@pytest.fixture(scope="module")
def client(ingested):
    from search.web import create_app

    return create_app(ingested).test_client()


def test_matrix_links_each_rate_to_its_paragraph(client):
    r = client.get("/rates")
    assert r.status_code == 200
    html = r.data.decode()
    assert '<th scope="col">Dividends</th>' in html and "Fees for technical services" in html
    assert 'href="/t/br-pe-2006/art_10#art_10__para_2__point_a"' in html
    assert "10% (by reference)" in html and "0% (exempt)" in html and "branch profits" in html
    assert "company holding directly or indirectly at least 20% of the voting power" in html
    assert "Brazil–Peru (2006)" in html  # names, not codes
    assert '<blockquote lang="en">' in html  # the full quote one click away


def test_conditions_in_the_readers_language(client):
    html = client.get("/rates?lang=sv").data.decode()
    assert '<span class="rate-cond" lang="sv"' in html and "bolag som direkt" in html
    assert client.get("/rates?lang=fr").status_code == 400
    assert client.get("/rates?as_of=2001-02-30").status_code == 400


def test_party_filter_and_csv(client):
    html = client.get("/rates?party=pe").data.decode()
    assert "Brazil–Peru (2006)" in html and "Brazil–China (1991)" not in html
    assert 'href="/rates.csv?party=PE"' in html
    r = client.get("/rates.csv?party=PE")
    assert r.mimetype == "text/csv" and "attachment" in r.headers["Content-Disposition"]
    rows = list(csv.DictReader(io.StringIO(r.data.decode())))
    assert {row["treaty"] for row in rows} == {"Brazil–Peru (2006)"} and len(rows) == 5
    # a party no treaty has is a dead end no more: a 400 naming the parties there are
    unknown = client.get("/rates?party=NO")
    assert unknown.status_code == 400
    assert "no treaty with party &#39;NO&#39;" in unknown.data.decode()
    assert "PE (Peru)" in unknown.data.decode()
    # and a party's name as people type it is understood
    assert "Brazil–Peru (2006)" in client.get("/rates?party=Peru").data.decode()


def test_bad_input_is_400(client):
    assert client.get("/rates?party=1").status_code == 400
    assert client.get("/rates?topic=capital").status_code == 400
    assert client.get("/rates.csv?party=%E7%A8%8E").status_code == 400


def test_api(client):
    data = client.get("/api/rates?topic=interest").get_json()
    assert data["rates"] and {r["topic"] for r in data["rates"]} == {"interest"}


def test_topic_and_treaty_pages_show_their_rates_on_top(client):
    html = client.get("/topic/royalties").data.decode()
    box = html.index('class="rates-box"')
    assert box < html.index("<table")
    assert "Brazil–China (1991) Art. 12(2)(1)" in html and "25%" in html
    assert 'class="rates-box"' not in client.get("/topic/capital").data.decode()
    html = client.get("/t/br-co-2022").data.decode()
    assert html.index('class="rates-box"') < html.index('id="h-outline"')
    assert "Fees for technical services" in html
