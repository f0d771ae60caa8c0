"""The query language and the engine-neutral query tree.

``parse`` reads user syntax — words, "phrases", AND/OR/NOT (upper case), ``term~`` /
``term~2`` fuzzy, ``prefix*`` and parentheses; juxtaposed terms are ANDed — into a small tree
of `Word`/`Phrase`/`And`/`Or`/`Not`. Input that is not valid syntax is searched as plain words,
never an error.

``compile_query`` turns that tree into a tree over index fields (`FTerm`, `FPhrase`, `FFuzzy`,
`FPrefix`, `FAnd`, `FOr`, `FNot`, `FAll`, `FNone`), analysing each word with *our* analysers
for each language searched; each engine translates that tree one to one into its own query
objects, so both engines are asked exactly the same question.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from functools import lru_cache

from indexer.errors import QueryError
from indexer.index.analysis import Token, analyse_query_term, normalise_term
from indexer.policy import LANGUAGES, policy

# --- fields --------------------------------------------------------------------------------

#: Suffix of the fields holding text in a language the corpus only keeps.
OTHER = "other"
#: Field-name suffixes of text and title fields: one per analysed language, plus OTHER.
FIELD_LANGS: tuple[str, ...] = (*LANGUAGES, OTHER)
#: Field kinds and their BM25 boosts: the title and the topic names weigh more.
BOOSTS = {"text": 1.0, "title": 2.0, "topic": 1.5}
#: Keyword (filter) fields.
KEYWORD_FIELDS = ("id", "lang", "treaty", "party", "topic", "number", "kind")


def field_lang(lang: str) -> str:
    """The field suffix for a document or query language."""
    return lang if lang in LANGUAGES else OTHER


def text_fields() -> list[str]:
    """Every analysed text field of the schema."""
    names = [f"{kind}_{fl}" for kind in ("text", "title") for fl in FIELD_LANGS]
    return names + [f"topic_{lang}" for lang in LANGUAGES]


def analyser_lang(lang: str) -> str:
    """The language whose analyser reads text of language `lang` (or of the fields of field
    suffix `lang`): "xx", which has no policy (the generic analysis), for one not ours."""
    return lang if field_lang(lang) != OTHER else "xx"


# --- parsed tree -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Word:
    text: str
    fuzzy: int | None = None  # max edit distance; 0 = automatic by length
    prefix: bool = False


@dataclass(frozen=True)
class Phrase:
    text: str


@dataclass(frozen=True)
class And:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Or:
    children: tuple[Node, ...]


@dataclass(frozen=True)
class Not:
    child: Node


Node = Word | Phrase | And | Or | Not


class _SyntaxError(Exception):
    pass


class QueryTooExpensive(QueryError):
    """A query that would cost more work than one search may take (one line: what, and to
    narrow it)."""

    def __init__(self, what: str) -> None:
        super().__init__(f"query too expensive: {what}; narrow it")


#: Most nested groups — parentheses and NOTs — a query may hold (the parser recurses on them).
MAX_DEPTH = 20
#: Most distinct words and phrases in one query.
MAX_WORDS = 64
#: Most distinct fuzzy (``term~``) and prefix (``term*``) words in one query: each expands to
#: many index terms.
MAX_EXPANDING = 8
#: Most index terms one fuzzy or prefix leaf (one word in one field) expands to (the most
#: frequent are kept), and most in one query (more: QueryTooExpensive).
MAX_EXPANSIONS = 64
MAX_TOTAL_EXPANSIONS = 2048
#: Seconds one query's expansion and matching may take (engines that can stop then do).
QUERY_SECONDS = 5.0
#: Most distinct words the query's words and phrases analyse into (a run of Chinese is cut
#: into its words, a hyphenated or dotted word into its parts): what the engines match.
MAX_ANALYSED = 64
#: Longest fuzzy or prefix word (an automaton or a regex is built from it), and longest word
#: of any kind once analysed (no index term is longer).
MAX_EXPANDING_CHARS = 40
MAX_WORD_CHARS = 100


_LEX_RE = re.compile(r'\s*(?:(?P<paren>[()])|"(?P<phrase>[^"]*)"|(?P<quote>")|(?P<word>[^\s()"]+))')
_FUZZY_RE = re.compile(r"^(?P<t>[^~*]+)~(?P<d>[0-2]?)$")
_PREFIX_RE = re.compile(r"^(?P<t>[^~*]+)\*$")
_OPERATORS = ("AND", "OR", "NOT")


def _lex(query: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    query = query.rstrip()
    while pos < len(query):
        m = _LEX_RE.match(query, pos)
        if m is None or m.end() == pos:
            raise _SyntaxError(query[pos:])
        pos = m.end()
        if m.group("paren"):
            out.append((m.group("paren"), m.group("paren")))
        elif m.group("quote"):
            raise _SyntaxError("unclosed quote")
        elif m.group("phrase") is not None:
            out.append(("PHRASE", m.group("phrase")))
        else:
            w = m.group("word")
            out.append((w, w) if w in _OPERATORS else ("WORD", w))
    return out


def _word(text: str) -> Word:
    if m := _FUZZY_RE.match(text):
        return Word(m.group("t"), fuzzy=int(m.group("d") or 0))
    if m := _PREFIX_RE.match(text):
        return Word(m.group("t"), prefix=True)
    if "*" in text or "~" in text:
        raise _SyntaxError(text)
    return Word(text)


class _Parser:
    """query := or ; or := and ("OR" and)* ; and := unary (["AND"] unary)* ;
    unary := "NOT" unary | primary ; primary := "(" or ")" | PHRASE | WORD"""

    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.toks = tokens
        self.i = 0
        self.depth = 0

    def nest(self) -> None:
        """One group (parenthesis, NOT) deeper: bounded, so that no query recurses far."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise QueryTooExpensive(f"groups (parentheses, NOT) nested more than {MAX_DEPTH} deep")

    def peek(self) -> str | None:
        return self.toks[self.i][0] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, str]:
        tok = self.toks[self.i]
        self.i += 1
        return tok

    def parse(self) -> Node:
        node = self.or_()
        if self.peek() is not None:
            raise _SyntaxError(self.peek())
        return node

    def or_(self) -> Node:
        items = [self.and_()]
        while self.peek() == "OR":
            self.take()
            items.append(self.and_())
        items = list(dict.fromkeys(items))  # a OR a is a
        return items[0] if len(items) == 1 else Or(tuple(items))

    def and_(self) -> Node:
        items = [self.unary()]
        while self.peek() not in (None, ")", "OR"):
            if self.peek() == "AND":
                self.take()
            items.append(self.unary())
        items = list(dict.fromkeys(items))  # a AND a is a
        return items[0] if len(items) == 1 else And(tuple(items))

    def unary(self) -> Node:
        if self.peek() == "NOT":
            self.take()
            self.nest()
            node = Not(self.unary())
            self.depth -= 1
            return node
        return self.primary()

    def primary(self) -> Node:
        kind = self.peek()
        if kind is None:
            raise _SyntaxError("end of query")
        _, text = self.take()
        if kind == "(":
            self.nest()
            node = self.or_()
            if self.peek() != ")":
                raise _SyntaxError("unclosed parenthesis")
            self.take()
            self.depth -= 1
            return node
        if kind == "PHRASE":
            return Phrase(text)
        if kind == "WORD":
            return _word(text)
        raise _SyntaxError(text)


def parse_strict(query: str) -> Node | None:
    """Parse `query`; raise ValueError when it is not valid syntax; None when empty."""
    try:
        tokens = _lex(query)
        return _Parser(tokens).parse() if tokens else None
    except _SyntaxError as exc:
        raise ValueError(f"not valid query syntax near {exc.args[0]!r}") from None


def plain_words(query: str) -> Node | None:
    """`query` as plain words, every operator and syntax character ignored (ANDed)."""
    words = list(dict.fromkeys(w for w in re.findall(r'[^\s()"*~]+', query)
                               if w not in _OPERATORS))
    if not words:
        return None
    return Word(words[0]) if len(words) == 1 else And(tuple(Word(w) for w in words))


def parse(query: str) -> tuple[Node | None, bool]:
    """(tree, fell_back): the parsed query, or its plain words when the syntax is invalid.
    QueryTooExpensive: a query over the bounds of one search (`check_cost`)."""
    try:
        tree, plain = parse_strict(query), False
    except ValueError:
        tree, plain = plain_words(query), True
    check_cost(tree)
    return tree, plain


def check_cost(tree: Node | None) -> None:
    """QueryTooExpensive when `tree` holds more distinct words than MAX_WORDS or more distinct
    fuzzy and prefix words than MAX_EXPANDING, a fuzzy or prefix word longer than
    MAX_EXPANDING_CHARS, or words that analyse into more than MAX_ANALYSED distinct words or
    a word longer than MAX_WORD_CHARS (the same bounds for both engines, checked before
    either is asked)."""
    leaves_ = set(_word_leaves(tree))
    if len(leaves_) > MAX_WORDS:
        raise QueryTooExpensive(f"{len(leaves_)} words (at most {MAX_WORDS})")
    expanding = {w for w in leaves_ if isinstance(w, Word) and (w.prefix or w.fuzzy is not None)}
    if len(expanding) > MAX_EXPANDING:
        raise QueryTooExpensive(f"{len(expanding)} fuzzy (~) or prefix (*) words "
                                f"(at most {MAX_EXPANDING})")
    longest = max((len(w.text) for w in expanding), default=0)
    if longest > MAX_EXPANDING_CHARS:
        raise QueryTooExpensive(f"a fuzzy (~) or prefix (*) word of {longest} characters "
                                f"(at most {MAX_EXPANDING_CHARS})")
    _check_analysed(leaves_)


def _check_analysed(leaves_: set[Word | Phrase]) -> None:
    """The analysed-length bounds of `check_cost`: each word or phrase is analysed as the
    engines' fields analyse it (Chinese by the segmenter, any other text generically)."""
    from indexer.index.analysis import has_han

    words: set[str] = set()
    for leaf in leaves_:
        longest = len(leaf.text) if isinstance(leaf, Word) else max(
            map(len, leaf.text.split()), default=0)
        if longest > MAX_WORD_CHARS and not has_han(leaf.text):
            raise QueryTooExpensive(f"a word of over {MAX_WORD_CHARS} characters")
        lang = "zh" if has_han(leaf.text) else "xx"
        for token in analyse_query_term(leaf.text, lang):
            if len(token.term) > MAX_WORD_CHARS:
                raise QueryTooExpensive(f"a word of over {MAX_WORD_CHARS} characters")
            words.add(token.term)
            if len(words) > MAX_ANALYSED:
                raise QueryTooExpensive(f"over {MAX_ANALYSED} distinct words once analysed "
                                        "(a long run of Chinese is many words)")


def _word_leaves(node: Node | None) -> Iterable[Word | Phrase]:
    if isinstance(node, (Word, Phrase)):
        yield node
    elif isinstance(node, (And, Or)):
        for child in node.children:
            yield from _word_leaves(child)
    elif isinstance(node, Not):
        yield from _word_leaves(node.child)


def words_of(node: Node | None, *, negated: bool = False) -> Iterable[tuple[Word, bool]]:
    """Every Word in the tree with whether it sits under a NOT."""
    if isinstance(node, Word):
        yield node, negated
    elif isinstance(node, (And, Or)):
        for child in node.children:
            yield from words_of(child, negated=negated)
    elif isinstance(node, Not):
        yield from words_of(node.child, negated=not negated)


# --- field tree ----------------------------------------------------------------------------


@dataclass(frozen=True)
class FTerm:
    field: str
    term: str
    boost: float = 1.0


@dataclass(frozen=True)
class FPhrase:
    field: str
    terms: tuple[str, ...]
    boost: float = 1.0


@dataclass(frozen=True)
class FFuzzy:
    field: str
    term: str
    distance: int
    boost: float = 1.0


@dataclass(frozen=True)
class FPrefix:
    field: str
    prefix: str
    boost: float = 1.0


@dataclass(frozen=True)
class FAnd:
    children: tuple[FNode, ...]


@dataclass(frozen=True)
class FOr:
    children: tuple[FNode, ...]


@dataclass(frozen=True)
class FNot:
    child: FNode


@dataclass(frozen=True)
class FAll:
    pass


@dataclass(frozen=True)
class FNone:
    pass


FNode = FTerm | FPhrase | FFuzzy | FPrefix | FAnd | FOr | FNot | FAll | FNone
Leaf = FTerm | FPhrase | FFuzzy | FPrefix


def _and(children: Iterable[FNode]) -> FNode:
    kids: list[FNode] = []
    for c in children:
        if isinstance(c, FNone):
            return FNone()
        if isinstance(c, FAll):
            continue
        kids.extend(c.children if isinstance(c, FAnd) else [c])
    if not kids:
        return FAll()
    return kids[0] if len(kids) == 1 else FAnd(tuple(kids))


def _or(children: Iterable[FNode]) -> FNode:
    kids: list[FNode] = []
    for c in children:
        if isinstance(c, FNone):
            continue
        for k in c.children if isinstance(c, FOr) else [c]:
            if k not in kids:
                kids.append(k)
    if not kids:
        return FNone()
    return kids[0] if len(kids) == 1 else FOr(tuple(kids))


def auto_distance(term: str) -> int:
    """Edit distance allowed for a fuzzy term with no explicit distance."""
    return 1 if len(term) <= 4 else 2


def _positions(tokens: Sequence[Token]) -> list[tuple[str, list[str]]]:
    """Group tokens by position: (word, sub-words) — the word is the longest token there."""
    groups: dict[int, list[Token]] = {}
    for t in tokens:
        groups.setdefault(t.pos, []).append(t)
    out = []
    for pos in sorted(groups):
        toks = sorted(groups[pos], key=lambda t: (t.start - t.end, t.start))
        word = toks[0].term
        out.append((word, [t.term for t in toks[1:] if t.term != word]))
    return out


def _leaf_builder(node: Word | Phrase, lang: str) -> Callable[[str, float], FNode] | None:
    """A function (field, boost) -> field node for `node` analysed as language `lang` (None:
    nothing to search)."""
    alang = analyser_lang(lang)
    if isinstance(node, Word) and node.prefix:
        return _prefix_builder(node, alang)
    tokens = analyse_query_term(node.text, alang)
    if not tokens:
        return None
    groups = _positions(tokens)
    if isinstance(node, Word) and node.fuzzy is not None:
        return _fuzzy_builder(node, alang, groups)
    if len(groups) == 1:
        word, subs = groups[0]
        return lambda f, b: _word_node(f, b, word, subs)
    zh = (pol := policy(alang)) is not None and pol.tokenizer == "jieba"
    if zh and isinstance(node, Word):  # an unquoted run of Chinese: all its words, once each
        unique = list(dict.fromkeys((w, tuple(s)) for w, s in groups))
        return lambda f, b: _and(_word_node(f, b, w, list(s)) for w, s in unique)
    words = tuple(g[0] for g in groups)
    return lambda f, b: FPhrase(f, words, b)


def _prefix_builder(node: Word, alang: str) -> Callable[[str, float], FNode] | None:
    """`_leaf_builder` of a prefix word (``taxation*``), analysed by `alang`'s analyser."""
    norm = normalise_term(node.text, alang)
    stemmed = analyse_query_term(norm, alang)
    if len(stemmed) == 1 and norm.startswith(stemmed[0].term):
        norm = stemmed[0].term  # taxation* -> taxat*: the index holds stems
    if not norm or not _has_word_char(norm):
        return None
    return lambda f, b: FPrefix(f, norm, b)


def _fuzzy_builder(node: Word, alang: str, groups: list[tuple[str, list[str]]]
                   ) -> Callable[[str, float], FNode]:
    """`_leaf_builder` of a fuzzy word (``term~``), whose tokens grouped by position are
    `groups`: the word as analysed (when one token) or as folded, within its distance."""
    candidates = [g[0] for g in groups] if len(groups) == 1 else []
    folded = normalise_term(node.text, alang)
    if " " not in folded and folded not in candidates:
        candidates.append(folded)
    return lambda f, b: _or(FFuzzy(f, t, node.fuzzy or auto_distance(t), b) for t in candidates)


def _word_node(f: str, b: float, word: str, subs: list[str]) -> FNode:
    """A word in field `f` with boost `b`; `subs`: its sub-words in the index, if any."""
    if not subs:
        return FTerm(f, word, b)
    # A Chinese word the index may have cut differently: the word, or all its sub-words.
    return _or([FTerm(f, word, b), _and(FTerm(f, s, b) for s in subs)])


def _has_word_char(s: str) -> bool:
    return re.search(r"[^\W_]", s) is not None


def compile_query(node: Node | None, langs: Sequence[str]) -> FNode:
    """The field tree for `node` searched in the languages `langs` (field suffixes from
    FIELD_LANGS): each word is analysed per language and may match that language's text,
    title or topic-name field."""
    if node is None:
        return FNone()
    if isinstance(node, (Word, Phrase)):
        return _compile_leaf(node, tuple(langs))
    if isinstance(node, And):
        return _and(compile_query(c, langs) for c in node.children)
    if isinstance(node, Or):
        return _or(compile_query(c, langs) for c in node.children)
    inner = compile_query(node.child, langs)
    if isinstance(inner, FAll):
        return FNone()
    if isinstance(inner, FNone):
        return FAll()
    return FNot(inner)


@lru_cache(maxsize=2048)
def _compile_leaf(node: Word | Phrase, langs: tuple[str, ...]) -> FNode:
    """A word or phrase analysed in each of `langs` (cached: the analysis of a query word is
    the same in every query; the field nodes are immutable, so they are shared)."""
    alts: list[FNode] = []
    for lang in langs:
        build = _leaf_builder(node, lang)
        if build is None:
            continue
        for kind, boost in BOOSTS.items():
            if kind == "topic" and lang == OTHER:
                continue
            alts.append(build(f"{kind}_{lang}", boost))
    return _or(alts) if alts else FAll()  # a word of punctuation only constrains nothing


def leaves(node: FNode, *, negated: bool = False) -> Iterable[tuple[Leaf, bool]]:
    """Every leaf with whether it sits under a NOT."""
    if isinstance(node, (FAnd, FOr)):
        for c in node.children:
            yield from leaves(c, negated=negated)
    elif isinstance(node, FNot):
        yield from leaves(node.child, negated=not negated)
    elif isinstance(node, (FTerm, FPhrase, FFuzzy, FPrefix)):
        yield node, negated


# --- matching terms (highlighting, suggestions) --------------------------------------------


def levenshtein(a: str, b: str, limit: int | None = None) -> int:
    """Plain Levenshtein distance (no transpositions, as both engines' fuzzy queries); stops
    early and returns limit + 1 once the distance must exceed `limit`."""
    if a == b:
        return 0
    if limit is not None and abs(len(a) - len(b)) > limit:
        return limit + 1
    prev = list(range(len(b) + 1))
    for i, ca in enumerate(a, 1):
        cur = [i]
        for j, cb in enumerate(b, 1):
            cur.append(min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + (ca != cb)))
        if limit is not None and min(cur) > limit:
            return limit + 1
        prev = cur
    return prev[-1]


def term_matcher(tree: FNode, field: str) -> Callable[[str], bool]:
    """A predicate: does an indexed term of `field` match a positive leaf of `tree`?"""
    exact: set[str] = set()
    prefixes: list[str] = []
    fuzzy: list[tuple[str, int]] = []
    for leaf, negated in leaves(tree):
        if negated or leaf.field != field:
            continue
        if isinstance(leaf, FTerm):
            exact.add(leaf.term)
        elif isinstance(leaf, FPhrase):
            exact.update(leaf.terms)
        elif isinstance(leaf, FPrefix):
            prefixes.append(leaf.prefix)
        else:
            fuzzy.append((leaf.term, leaf.distance))

    if not prefixes and not fuzzy:
        return exact.__contains__
    seen: dict[str, bool] = {}  # prefix and fuzzy tests are slow: once per distinct term

    def match(term: str) -> bool:
        hit = seen.get(term)
        if hit is None:
            hit = seen[term] = (
                term in exact
                or any(term.startswith(p) for p in prefixes)
                or any(levenshtein(term, t, d) <= d for t, d in fuzzy)
            )
        return hit

    return match
