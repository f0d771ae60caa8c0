"""`treaty search`: ranked full-text search of the corpus, one hit per article.

One `SearchSession` holds the open index (`indexer.index.Searcher`, whichever engine built it)
and a read-only connection to the store; a caller that runs many queries (the web app) keeps
one open, so repeated queries never re-open the index. `search` runs one query in a session
of its own.

The query is parsed and compiled exactly as `Searcher.search` does (`indexer.index.query_syntax`); every
matching paragraph is fetched once, without snippets, and grouped by (treaty, language,
article). Groups are ranked by their best paragraph's BM25F score (title and topic fields
weighted, see `indexer.index.query_syntax.BOOSTS`) plus a quarter of their next two; snippets are made
only for the groups returned.

A plain-words query that has fewer matching articles than asked for (a paraphrase such as
"tax on pensions", a word the corpus lacks) is completed by a relaxed search that needs only
most of its words anywhere in an article, ranked below every article that has them all, by
how many words they match, then their score times the share of the query's rarity (idf)
that they match. Countries a query names ("dividends Peru") narrow a search of its other
words to their treaties, ranked first (`named`). A query no article matches in full is
searched as corrected ("did you mean") when the correction matches: "showing" is then the
query searched, "query" the query as typed (``correct=False``, ``--as-typed``: never).
A plain-words query matching fewer than ten articles is searched again with each word's
translations from the index's term table (`translate`); the articles it adds follow those
with the words as written and are marked ``"translated": true``. Practitioners' shorthand
("PE definition", "MAP", "tie-breaker rule", "183-day rule", `shorthand`) is searched as the
words it stands for (in the language asked for), the article it names first: ``read_as``
lists what was read, ``searched`` the query searched (both empty with ``--as-typed``).

    session      SearchSession, search: the steps of one search, in order
    options      the options checked and turned into engine filters
    grouping     paragraph hits grouped by article; the citation of a hit
    paging       a page of groups ranked from the top hits only
    relaxed      articles that match most of a plain-words query
    suggestions  "did you mean"
    shorthand    practitioners' abbreviations and rule names (shorthand.toml: data)
    named        countries named in a query, as party filters
    translate    the words of a query with their translations (the index's term table)
    versions     the language versions of an article as one hit
    snippets     the text around the matches
    aligned      the hit paragraphs' counterparts in the other languages
    trees        the compiled query, the OR of its words

The result is the JSON contract of ``treaty search --json``::

    {"query": "...", "query_lang": "en" | None, "total": 12, "suggestions": ["..."],
     "read_as": [{"typed": "PE", "as": "permanent establishment"}], "searched": "..." | None,
     "corrected": "..." | None,
     "showing": "..." | None, "engine": "whoosh", "plain": false,
     "hits": [{"treaty": "br-pe-2006", "lang": "en", "kind": "article", "number": 10,
               "eid": "art_10", "title": "Dividends", "citation": "br-pe-2006 Art. 10(2)",
               "score": 12.3, "snippets": ["... <b>beneficial owner</b> ..."],
               "paragraphs": ["art_10__para_2"], "relaxed": false, "translated": false,
               "languages": ["en"], "versions": {"en": {"paragraphs": [...], "score": 12.3}},
               "aligned": {"pt": [{"eid": ..., "text": ..., "of": ..., "method": ...,
                                   "score": ...}]}}]}

(``aligned`` only when asked for; ``query_lang`` is the query's language as the index's
vocabulary tells it, `versions.query_language`, None when no language has its words.) Since issue 18 a hit is an *article*, not one language
version of it: ``languages`` lists the versions that matched, best first, and ``versions``
their paragraphs and scores; ``lang``, ``citation``, ``snippets`` and ``paragraphs`` are
those of the version shown: the one in the language asked for (``--lang``) or the query's
language (`versions.query_language`) when it matched, else the best. ``total`` counts
articles (versions of one article once among the versions ranked for the page; beyond
those, each further version counts as an article).
"""

from __future__ import annotations

from search.results.grouping import citation
from search.results.options import MAX_LIMIT, MAX_QUERY, topic_key
from search.results.session import SearchSession, search
from search.results.snippets import snippet

__all__ = ["MAX_LIMIT", "MAX_QUERY", "SearchSession", "citation", "search", "snippet",
           "topic_key"]
