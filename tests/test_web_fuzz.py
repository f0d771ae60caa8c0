"""No 5xx on any route with any query string: hypothesis draws a route of the app's URL map,
fills its variables and query parameters (the names the pages read, the names `url_for`
reserves, random ones) with real values or random text: control characters, %-escapes, huge
values. scripts/fuzz_web.py is the long run of the same."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from web_strategies import request_urls

from search.web import create_app

# the routes only: the app is not asked anything here
URLS = request_urls(create_app("/nonexistent"))


@pytest.fixture(scope="module")
def client(ingested):
    return create_app(ingested).test_client()


@settings(max_examples=300, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(url=URLS)
# found by fuzzing (issue 16): url_for arguments in the query string, CR/LF in a path, nesting
@example(url="/t/br-pe-2006/art_10__para_2?treaty=x")
@example(url="/t/br-pe-2006/art_10__para_2?_external=1&_scheme=javascript")
@example(url="/search?q=dividends&endpoint=x")
@example(url="/search?q=dividends&_method=POST")
@example(url="/t/br-pe-2006/art_3__%0d%0aX")
@example(url="/search?q=" + "%28" * 400)
def test_no_route_answers_5xx(client, url):
    resp = client.get(url)
    assert resp.status_code < 500, (url[:300], resp.status_code, resp.data[:300])
