"""What every request and response of the web app passes through: an address with a control
character is refused (400), every response gets the security headers, and links that keep
the current page's parameters are built from an allow-list of them (a parameter a user adds,
`?_external=1` or `?endpoint=x`, never reaches `url_for`)."""

from __future__ import annotations

import unicodedata
from collections.abc import Mapping
from urllib.parse import urlencode

from flask import Response, request, url_for
from werkzeug.datastructures import MultiDict

from indexer.errors import QueryError

# The pages load only their own script and style sheet (static/app.js, static/style.css):
# nothing inline, no other origin, never framed.
CSP = ("default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
       "font-src 'self'; connect-src 'self'; form-action 'self'; base-uri 'none'; "
       "frame-ancestors 'none'")
HEADERS = {
    "Content-Security-Policy": CSP,
    "X-Content-Type-Options": "nosniff",
    "X-Frame-Options": "DENY",
    "Referrer-Policy": "same-origin",
}

_SEARCH = ("q", "treaty", "party", "lang", "topic", "kind", "article", "page", "size",
           "as_typed")
# endpoint -> the query parameters a link to it may carry over from the current request
LINK_PARAMS: dict[str, tuple[str, ...]] = {
    "views.search_page": _SEARCH,
    "views.api_search": _SEARCH,
    "views.article": ("lang", "view", "as"),
    "views.topic": ("lang", "page"),
}


def _control(text: str) -> str | None:
    """The first control character of `text` (as U+XXXX), or None."""
    for ch in text:
        if unicodedata.category(ch) == "Cc":
            return f"U+{ord(ch):04X}"
    return None


def refuse_control_characters() -> None:
    """Before each request: a control character (CR, LF, NUL, ...) in the path or in a
    query parameter is bad input (QueryError: 400), never passed on to a page or a header."""
    found = _control(request.path)
    if found:
        raise QueryError(f"the address has a control character ({found}) in its path")
    for key, values in request.args.lists():
        found = _control(key) or next((c for c in map(_control, values) if c), None)
        if found:
            name = key if not _control(key) else "?"
            raise QueryError(f"parameter '{name[:20]}' has a control character ({found})")


def add_headers(response: Response) -> Response:
    """After each request: the security headers (a page may not replace them)."""
    for name, value in HEADERS.items():
        response.headers[name] = value
    return response


def link(endpoint: str, view_args: Mapping[str, str], args: MultiDict,
         changes: Mapping[str, object] | None = None) -> str:
    """A relative link to `endpoint` keeping those of `args` that LINK_PARAMS allows for it
    (in their order, every value), with `changes` applied (None or "" removes a key)."""
    allowed = LINK_PARAMS.get(endpoint, ())
    kept: dict[str, list[str]] = {k: args.getlist(k) for k in args if k in allowed}
    for key, value in (changes or {}).items():
        if value is None or value == "":
            kept.pop(key, None)
        else:
            kept[key] = [str(value)]
    query = urlencode([(k, v) for k, values in kept.items() for v in values])
    return url_for(endpoint, **view_args) + ("?" + query if query else "")
