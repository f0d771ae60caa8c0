"""Amending clauses read into operations, in en, pt and sv, as real protocols word them:

- replace: "Article 10 of the Convention shall be deleted and replaced by the following:",
  "Paragraph 2 of Article 11 is replaced by the following paragraph:", "For paragraph 2 of
  Article 10 there shall be substituted …", "O parágrafo 2 do Artigo 11 passa a ter a
  seguinte redação:", "Artikel 10 i avtalet ska upphöra att gälla och ersättas av följande:",
  "Punkt 2 i artikel 11 ska ha följande lydelse:";
- insert: "The following new Article 26A shall be inserted after Article 26:", "A new
  paragraph 7 is added to Article 11:", "É acrescentado à Convenção o seguinte Artigo 28-A:",
  "En ny artikel 26 A ska införas i avtalet med följande lydelse:";
- delete: "Subparagraph (b) of paragraph 2 of Article 12 shall be deleted.", "A alínea c) do
  parágrafo 3 do Artigo 12 é suprimida.", "Punkt 3 c) i artikel 12 ska utgå.";
- words: "In paragraph 2 of Article 12, the words "15 per cent" shall be replaced by the words
  "10 per cent".", "No parágrafo 2 do Artigo 10, a expressão "15 por cento" é substituída por
  "10 por cento".", "I artikel 10 punkt 2 ska orden "15 procent" ersättas med "10 procent".",
  and as an erratum says it: "onde se lê "15 por cento", leia-se "12 por cento"";
- understanding: "With reference to Article 10, it is understood that …" — free text, never
  applied.

`parse_target(text)` reads the first article, paragraph or point a text names;
`operations(lines)` reads every clause of an instrument's lines with the new text each brings
(its quotes taken off), up to the instrument's next article, the next clause or its closing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from functools import cache

from indexer.instruments.model import Operation, Target

_ART_WORD = r"(?:Article|Art\.|Artigo|Artikel|artikeln)"
_ART_NUM = (r"(?P<art>\d{1,3}(?:\s*-?\s*(?-i:[A-Z])(?![\w])|\s*(?:bis|ter|quater)\b)?"
            r"|(?-i:[IVXLC]{1,7})(?:\s*-?\s*(?-i:[A-Z])(?![\w]))?\b)")
_PARA_WORD = r"(?:paragraph|para\.|parágrafo|número|n\.?\s*[ºo°]|punkt(?:en)?|§)"
_PARA_NUM = r"\(?(?P<para>\d{1,2})\)?"
_POINT_WORD = r"(?:sub-?paragraph|point|alínea|letter|letra|led|item|punkt)"
_POINT_NUM = r"(?:\((?P<pt>[a-z]|[ivx]{1,4}|\d{1,2})\)|(?P<pt2>[a-z]|[ivx]{1,4}|\d{1,2})\))"
_OF = r"(?:\s*,?\s*(?:of|do|da|in|i)\s+(?:the\s+|o\s+|a\s+)?)"
#: Words between an article and its paragraph: "Article 10 of the Convention, paragraph 2",
#: "I artikel 11 ska punkt 3", "Artigo 10 da Convenção, parágrafo 2".
_FILLER = (r"(?:\s+(?:of\s+the\s+(?:Convention|Agreement)|i\s+avtalet|da\s+Conven[çc][ãa]o|"
           r"do\s+Acordo|ska|skall))*")


@cache
def _target_patterns() -> tuple[re.Pattern[str], ...]:
    # a point's letter: "(b)", "b)", or a bare "a" before "i artikel", "of Article"
    point_bare = (r"(?:\((?P<pt>[a-z])\)|(?P<pt2>[a-z])\)|(?P<pt3>[a-h])(?=\s+(?:i|of|do|da)\s))")
    return tuple(re.compile(p, re.IGNORECASE) for p in (
        # "subparagraph (b) of paragraph 2 of Article 12", "alínea a) do parágrafo 2 do Artigo 10"
        rf"{_POINT_WORD}\s+{point_bare}{_OF}{_PARA_WORD}\s*{_PARA_NUM}{_OF}{_ART_WORD}\s+{_ART_NUM}",
        # "paragraph 2 (a) of Article 10", "punkt 2 a i artikel 10", "punkt 3 c) i artikel 12"
        rf"{_PARA_WORD}\s*{_PARA_NUM}\s*{point_bare}{_OF}{_ART_WORD}\s+{_ART_NUM}",
        # "paragraph 2 of Article 11", "punkt 2 i artikel 11", "§ 1 i artikel VII"
        rf"{_PARA_WORD}\s*{_PARA_NUM}{_OF}{_ART_WORD}\s+{_ART_NUM}",
        # "Article 10(2)(a)", "Article 10, paragraph 2, subparagraph (a)", "artikel 10 punkt 2 a)"
        rf"{_ART_WORD}\s+{_ART_NUM}\s*\((?P<para>\d{{1,2}})\)\s*(?:\((?P<pt>[a-z])\))?",
        (rf"{_ART_WORD}\s+{_ART_NUM}(?:\s*\([^)]{{1,60}}\))?{_FILLER}\s*,?\s*{_PARA_WORD}\s*"
         rf"{_PARA_NUM}(?:\s*,?\s*(?:{_POINT_WORD}\s+)?{point_bare}(?![\w]))?"),
        # "Article 10", "Artigo 28-A", "artikel 26 A"
        rf"{_ART_WORD}\s+{_ART_NUM}",
    ))


def _article_label(raw: str) -> str | None:
    """"10" -> "10", "26 A" -> "26A", "28-A" -> "28A", "VII" -> "7", "26bis" -> "26bis"."""
    from indexer.segment.numerals import parse_roman

    m = re.fullmatch(r"(?P<n>\d{1,3}|[IVXLC]{1,7})\s*-?\s*(?P<s>[A-Z]|bis|ter|quater)?", raw.strip())
    if not m:
        return None
    n = m["n"]
    if not n.isdigit():
        value = parse_roman(n)
        if not value:
            return None
        n = str(value)
    return f"{int(n)}{m['s'] or ''}"


def _target(m: re.Match[str]) -> Target | None:
    groups = m.groupdict()
    art = _article_label(groups["art"])
    if art is None:
        return None
    point = groups.get("pt") or groups.get("pt2") or groups.get("pt3")
    return Target(art, groups.get("para"), point.lower() if point else None)


@cache
def _partial_patterns() -> tuple[re.Pattern[str], ...]:
    point = r"(?:\((?P<pt>[a-z])\)|(?P<pt2>[a-z])\))"
    return tuple(re.compile(p, re.IGNORECASE) for p in (
        rf"{_POINT_WORD}\s+{point}{_OF}{_PARA_WORD}\s*{_PARA_NUM}",
        rf"{_PARA_WORD}\s*{_PARA_NUM}(?:\s*{point})?",
    ))


def partial_target(text: str, article: str) -> Target | None:
    """The paragraph or point a clause names without its article ("in paragraph 2 the
    words …", "punkt 3 ska utgå"), in `article` (the one its context names)."""
    for pattern in _partial_patterns():
        m = pattern.search(text[:200])
        if m:
            groups = m.groupdict()
            point = groups.get("pt") or groups.get("pt2")
            return Target(article, groups["para"], point.lower() if point else None)
    return None


def targets(text: str) -> list[tuple[int, int, Target]]:
    """Every article, paragraph or point `text` names, as (start, end, target), left to
    right, the longest reading at each place."""
    found: list[tuple[int, int, Target]] = []
    for pattern in _target_patterns():
        for m in pattern.finditer(text):
            t = _target(m)
            if t is not None:
                found.append((m.start(), m.end(), t))
    found.sort(key=lambda x: (x[0], -(x[1] - x[0])))
    out: list[tuple[int, int, Target]] = []
    for item in found:
        if not out or item[0] >= out[-1][1]:
            out.append(item)
    return out


def parse_target(text: str) -> Target | None:
    """The first article, paragraph or point `text` names, or None."""
    found = targets(text)
    return found[0][2] if found else None


_Q_OPEN = "\"“‘'«„”"
_Q_CLOSE = "\"”’'»“"
_QUOTED = r"[\"“‘'«„”](?P<{name}>[^\"“”‘’'«»„]{{1,300}}?)[\"”’'»“]"

#: "ersättas med", "bytas ut mot": the Swedish verbs of words swapped for others.
_SV_SWAP = r"(?:ersättas\s+(?:med|av)|bytas\s+(?:ut\s+)?mot)"
#: Words replaced, deleted or inserted ("the words "15 per cent" shall be replaced by …").
_WORDS = (
    # en: the words "X" shall be replaced by (the words) "Y"
    r"(?:words?|figures?|expressions?|term|phrase|reference\s+to)\s+" + _QUOTED.format(name="old")
    + r"\s*,?\s+(?:shall\s+be|is|are|be)\s+(?:replaced|substituted)\s+(?:by|with)\s+(?:the\s+"
    r"(?:words?|figures?|expressions?|term|phrase)\s+)?" + _QUOTED.format(name="new"),
    # en: for the words "X" there shall be substituted (the words) "Y"
    r"for\s+the\s+(?:words?|figures?)\s+" + _QUOTED.format(name="old") + r"\s*,?\s+(?:there\s+"
    r"shall\s+be\s+substituted|substitute)\s+(?:the\s+(?:words?|figures?)\s+)?"
    + _QUOTED.format(name="new"),
    # pt: a expressão "X" é substituída por "Y"
    r"(?:expressão|expressões|palavras?|termo|número|referência\s+a)\s+" + _QUOTED.format(name="old")
    + r"\s*,?\s+(?:é|são|será|serão|fica|ficam)\s+substituíd[ao]s?\s+(?:por|pel[ao]s?)\s+"
    r"(?:(?:a\s+)?expressão\s+|(?:as\s+)?palavras?\s+)?" + _QUOTED.format(name="new"),
    # sv: ska orden "X" ersättas med "Y"
    r"(?:orden|ordet|uttrycket|uttrycken|siffran|siffrorna|hänvisningen\s+till)\s+"
    + _QUOTED.format(name="old") + r"\s*,?\s+(?:ska|skall)\s+" + _SV_SWAP + r"\s+"
    r"(?:orden\s+|ordet\s+|uttrycket\s+)?" + _QUOTED.format(name="new"),
    r"(?:ska|skall)\s+(?:(?:orden|ordet|uttrycket|siffran)\s+)?" + _QUOTED.format(name="old")
    + r"\s+" + _SV_SWAP + r"\s+(?:orden\s+|ordet\s+|uttrycket\s+)?"
    + _QUOTED.format(name="new"),
    # en (UK): for "X" substitute "Y"
    r"\bfor\s+" + _QUOTED.format(name="old") + r"\s*,?\s+substitute\s+" + _QUOTED.format(name="new"),
    # as an erratum says it: onde se lê "X", leia-se "Y"; where it reads "X", read "Y"; där
    # det står "X" ska det stå "Y"
    r"onde\s+(?:se\s+lê|consta|está\s+escrito)\s+" + _QUOTED.format(name="old")
    + r"\s*,?\s*(?:leia-se|lê-se|passa\s+a\s+constar|deve\s+ler-se)\s+"
    + _QUOTED.format(name="new"),
    r"where\s+it\s+(?:reads|says)\s+" + _QUOTED.format(name="old") + r"\s*,?\s*(?:it\s+shall\s+)?"
    r"read\s+" + _QUOTED.format(name="new"),
    r"(?:i\s+stället\s+för|där\s+det\s+står)\s+" + _QUOTED.format(name="old")
    + r"\s*,?\s*(?:ska|skall)\s+det\s+stå\s+" + _QUOTED.format(name="new"),
)
_WORDS_DELETED = (
    r"(?:words?|figures?|expressions?|term|phrase)\s+" + _QUOTED.format(name="old")
    + r"\s*,?\s+(?:shall\s+be|is|are)\s+(?:deleted|omitted)",
    r"\b(?:omit|delete)\s+(?:the\s+words\s+)?" + _QUOTED.format(name="old"),
    r"(?:expressão|palavras?|termo)\s+" + _QUOTED.format(name="old")
    + r"\s*,?\s+(?:é|são|será|serão)\s+(?:suprimid|eliminad)[ao]s?",
    r"(?:orden|ordet|uttrycket)\s+" + _QUOTED.format(name="old")
    + r"\s*,?\s+(?:ska|skall)\s+(?:utgå|strykas)",
)
_WORDS_INSERTED = (
    r"after\s+the\s+(?:words?|figures?)\s+" + _QUOTED.format(name="old") + r"\s*,?\s+(?:the\s+"
    r"(?:words?|figures?)\s+)?" + _QUOTED.format(name="new") + r"\s+(?:shall\s+be|is|are)\s+"
    r"(?:inserted|added)",
    r"após\s+(?:a\s+expressão|as\s+palavras)\s+" + _QUOTED.format(name="old") + r"\s*,?\s+"
    r"(?:é|são)\s+(?:inserid|acrescentad|aditad)[ao]s?\s+(?:a\s+expressão\s+|as\s+palavras\s+)?"
    + _QUOTED.format(name="new"),
    r"efter\s+(?:orden|ordet)\s+" + _QUOTED.format(name="old") + r"\s*,?\s+(?:ska|skall)\s+"
    r"(?:införas|läggas\s+till)\s+(?:orden\s+)?" + _QUOTED.format(name="new"),
    r"\bafter\s+" + _QUOTED.format(name="old") + r"\s*,?\s+insert\s+" + _QUOTED.format(name="new"),
)
_INSERT = (
    r"(?:shall\s+be|is\s+(?:hereby\s+)?|are\s+(?:hereby\s+)?|be\s+)(?:inserted|added)"
    r"|(?:é|são|será|serão|fica|ficam)\s+(?:acrescentad|aditad|inserid|incluíd)[ao]s?"
    r"|acrescenta-se|acrescente-se|insere-se|insira-se|adita-se|adite-se"
    r"|(?:amended|supplemented)\s+by\s+(?:adding|inserting)|\bby\s+adding\s+the\s+following"
    r"|(?:ska|skall)\s+(?:införas|läggas\s+till|tillfogas)|\binförs\b|läggs\s+till"
    r"|\b(?:till)?fogas\b"
)
_REPLACE = (
    r"(?:shall\s+be|is\s+(?:hereby\s+)?|are\s+(?:hereby\s+)?|be\s+)(?:deleted\s+and\s+|omitted"
    r"\s+and\s+)?(?:replaced|substituted)\s+(?:by|with)"
    r"|(?:shall\s+be|is\s+(?:hereby\s+)?|be\s+)amended\s+(?:to\s+read|and\s+shall\s+read)"
    r"|shall\s+read\s+as\s+follows|(?:shall\s+be|is)\s+deleted\s+and\s+the\s+following"
    r"|there\s+shall\s+be\s+substituted|(?:shall|will)\s+henceforth\s+read"
    r"|(?:é|será|fica)\s+(?:suprimid[oa]\s+e\s+)?substituíd[oa]\s+pel[oa]"
    r"|passa(?:m)?\s+a\s+(?:ter|vigorar\s+com)\s+a\s+seguinte\s+reda(?:c?ç|cç)ão"
    r"|(?:é|será|fica)\s+alterad[oa]\s+(?:para|como\s+segue|da\s+seguinte)"
    r"|(?:ska|skall)\s+(?:upphöra\s+att\s+gälla\s+och\s+)?ersättas\s+(?:av|med)"
    r"|(?:ska|skall)\s+(?:ändras\s+och\s+)?(?:ha|erhålla)\s+följande\s+lydelse"
    r"|(?:erhåller|får)\s+följande\s+lydelse|\bersätts\s+(?:av|med)|\bersättas\s+(?:av|med)"
)
_DELETE = (
    r"(?:shall\s+be|is\s+(?:hereby\s+)?|are\s+(?:hereby\s+)?|be\s+)(?:deleted|omitted|repealed)"
    r"(?!\s+and)|shall\s+cease\s+to\s+have\s+effect"
    r"|(?:é|são|será|serão|fica|ficam)\s+(?:suprimid|eliminad|revogad)[ao]s?(?!\s+e\s+subst)"
    r"|(?:ska|skall)\s+(?:utgå|strykas|upphävas|upphöra\s+att\s+gälla)(?!\s+och\s+ersätt)"
    r"|\bupphävs\b"
)
#: How far after the unit it names a clause's verb may stand (characters): a clause is
#: short ("Article 10 (Dividends) of the Convention shall be deleted and replaced by the
#: following:"), a provision that merely names an article and, much later, says "replaced"
#: is no clause.
_VERB_REACH = 160
#: A line that opens amendments of one article, each of its own ("Article 10 is amended as
#: follows:", "I artikel 10 görs följande ändringar:", "O Artigo 10 é alterado da seguinte
#: forma:"): the article of the clauses after it that name only a paragraph.
_CONTEXT = (r"(?:is|shall\s+be|are)\s+(?:hereby\s+)?amended\s+(?:as\s+follows|in\s+the\s+"
            r"following\s+(?:way|manner))\s*:?\s*$|görs\s+följande\s+ändringar|ändras\s+på\s+"
            r"följande\s+sätt|(?:é|será)\s+alterad[oa]\s+(?:da\s+seguinte\s+(?:forma|maneira)|"
            r"como\s+segue)\s*:?\s*$|passa\s+a\s+ter\s+as\s+seguintes\s+alterações")
#: A clause that brings a paragraph or point, whose number its new text gives ("the
#: following paragraph shall be added", "följande nya punkt", "o seguinte parágrafo").
_BRINGS_PARAGRAPH = (r"\b(?:new\s+|following\s+(?:new\s+)?)?(?:paragraph|sub-?paragraph|punkt|"
                     r"stycke|paragraf|parágrafo|alínea|número)\b")
#: A clause that is a condition, not a change: "may at the request of Norway be replaced".
_CONDITIONAL = (r"\bmay\b[^.]{0,60}\b(?:request|notif)|\bkan\b[^.]{0,60}\bbegäran|\bpoderá\b"
                r"[^.]{0,60}\bpedido")
_UNDERSTANDING = (r"\b(?:it\s+is\s+(?:understood|agreed)|understand(?:ing)?\s+that|"
                  r"det\s+är\s+underförstått|(?:är|var)\s+överens\s+om\s+att|fica\s+entendido|"
                  r"entende-se|fica\s+acordado)")
_POSITION = r"\b(?:after|following|efter|após|depois\s+d[oa])\s+"
_NEW_WORD = r"\b(?:new|ny|nytt|nya|novo|nova|following|följande|seguinte)\s+"


@cache
def _re(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _words_op(text: str, line: int, target: Target | None) -> Operation | None:
    for pattern in _WORDS:
        m = _re(pattern).search(text)
        if m:
            return Operation("words", target, text, old_words=m["old"], new_words=m["new"],
                             line=line)
    for pattern in _WORDS_DELETED:
        m = _re(pattern).search(text)
        if m:
            return Operation("words", target, text, old_words=m["old"], new_words=None,
                             line=line)
    for pattern in _WORDS_INSERTED:
        m = _re(pattern).search(text)
        if m:
            return Operation("words", target, text, old_words=m["old"],
                             new_words=f"{m['old']} {m['new']}", line=line)
    return None


def _verb(pattern: str, text: str, found: list[tuple[int, int, Target]]) -> bool:
    """Whether `pattern` (a clause's verb) stands within reach of a unit `text` names: after
    it ("Article 10 shall be replaced"), or before it as Portuguese puts it ("É acrescentado
    à Convenção o seguinte Artigo 29-A", "Fica suprimido o parágrafo 4 do Artigo 11")."""
    m = _re(pattern).search(text)
    return m is not None and any(0 <= m.start() - end <= _VERB_REACH
                                 or 0 <= start - m.end() <= _VERB_REACH // 2
                                 for start, end, _t in found)


def read_clause(text: str, line: int = 0, context: str | None = None) -> Operation | None:
    """The operation one clause states (no new text yet), or None when `text` is no amending
    clause. A clause must name an article and say, right after, what becomes of it; with
    `context` (the article a line before opened amendments of), one that names only a
    paragraph or point is of that article."""
    found = targets(text)
    if not found and context is not None:
        partial = partial_target(text, context)
        if partial is not None:
            m = _re(_PARA_WORD).search(text)
            found = [(m.start(), m.end(), partial)] if m else []
    if not found:
        return None
    if _re(_CONDITIONAL).search(text[:300]) and _verb(rf"{_REPLACE}|{_DELETE}|{_INSERT}|"
                                                      r"ändras|upphävas|amended", text, found):
        return Operation("unparsed", found[0][2], text, line=line)
    words = _words_op(text[:600], line, found[0][2])
    if words is not None:
        return words
    if _verb(_INSERT, text, found):
        return _insert(text, found, line)
    if _verb(_REPLACE, text, found):
        return Operation("replace", found[0][2], text, line=line)
    if _verb(_DELETE, text, found):
        return Operation("delete", found[0][2], text, line=line)
    if _re(_UNDERSTANDING).search(text[:400]):
        return Operation("understanding", found[0][2], text, line=line)
    return None


def _insert(text: str, found: list[tuple[int, int, Target]], line: int) -> Operation:
    """An insertion: the new unit ("new Article 26A", "paragraph 7 … added to Article 10")
    and where it goes ("after Article 26")."""
    after = None
    new = None
    for start, end, t in found:
        before = text[max(0, start - 25):start]
        if _re(_POSITION + r"(?:o\s+|a\s+|the\s+)?$").search(before):
            after = t
        elif new is None or _re(_NEW_WORD + r"$").search(before):
            new = t
    if new is None:
        new = after
    if new is not None and new.paragraph is None and new.article == (after.article if after
                                                                     else None):
        new = None  # "inserted after Article 26": the new unit's number is in its text
    # "a new paragraph 7 shall be added to Article 10": the paragraph of that article
    m = _re(rf"(?:new\s+|ny\s+|novo\s+)?{_PARA_WORD}\s*{_PARA_NUM}[^.]{{0,60}}?\b(?:to|till|"
            rf"ao|à)\s+{_ART_WORD}\s+{_ART_NUM}").search(text)
    if m:
        art = _article_label(m["art"])
        if art:
            new = Target(art, m["para"])
    return Operation("insert", new, text, after=after, line=line)


# --- an instrument's lines --------------------------------------------------------------------

_HEADING = re.compile(rf"^\W{{0,3}}(?:#+\s*)?(?:\*\*)?{_ART_WORD}\s+(?P<n>\d{{1,3}}|[IVXLC]{{1,7}})"
                      r"\s*\.?(?:\*\*)?\s*$", re.IGNORECASE)
_CLOSING = re.compile(r"^\W{0,3}(?:in\s+witness\s+whereof|done\s+(?:at|in|on)|signed\s+at|"
                      r"em\s+testemunho|feito\s+(?:em|a)|till\s+bekräftelse|som\s+skedde|"
                      r"upprättat\s+i)", re.IGNORECASE)
_IN_FORCE = re.compile(r"(?:this|the\s+present)\s+(?:protocol|agreement|exchange)\s+shall\s+"
                       r"(?:enter|come)\s+into\s+force|(?:o\s+)?presente\s+protocolo\s+entrará"
                       r"\s+em\s+vigor|(?:detta|förevarande)\s+protokoll\s+(?:träder|skall\s+"
                       r"träda)\s+i\s+kraft", re.IGNORECASE)


def _heading_number(text: str) -> int | None:
    from indexer.segment.numerals import parse_roman

    m = _HEADING.match(text)
    if not m:
        return None
    n = m["n"]
    return int(n) if n.isdigit() else parse_roman(n)


_END_QUOTE = re.compile(r"[\"”’»]\s*[.;,]?\s*$")
_QUOTED_TERM_END = re.compile(r"\s[\"“][^\"”]{1,40}[\"”]\s*[.;,]?\s*$")


def _unquoted(line: str) -> str:
    """A line of quoted new text without its quote marks."""
    text = line.strip()
    if text[:1] in _Q_OPEN:
        text = text[1:].lstrip()
    m = _END_QUOTE.search(text)
    if m and not _QUOTED_TERM_END.search(text):
        text = text[:m.start()]
    return text.rstrip()


def _closes_quote(line: str) -> bool:
    """Whether a line of quoted text ends its quote (not a quoted term at its end)."""
    text = line.strip()
    return bool(_END_QUOTE.search(text)) and not _QUOTED_TERM_END.search(text)


def operations(lines: Sequence[str]) -> list[Operation]:
    """Every amending clause of an instrument's `lines`, in order, each with the new text it
    brings (module doc)."""
    clauses: list[Operation] = []
    context: str | None = None
    for k, text in enumerate(lines):
        head = _clause_part(text)
        if _re(_CONTEXT).search(head) and (t := parse_target(head)) is not None:
            context = t.article
            continue
        if _heading_number(text) is not None:
            context = None  # the instrument's next article
        op = read_clause(head, k, context)
        if op is not None:
            clauses.append(op)
    own = _own_headings(lines, clauses)
    out = []
    for n, op in enumerate(clauses):
        if op.action not in ("replace", "insert"):
            out.append(op)
            continue
        stop = clauses[n + 1].line if n + 1 < len(clauses) else len(lines)
        new = _new_text(lines, op, stop, own)
        target = op.target
        if op.action == "insert":
            target = _brought(op, new) or target
        out.append(Operation(op.action, target, op.clause, tuple(new), op.after, line=op.line))
    return out


_NEW_LABEL = re.compile(r"^\W{0,2}(?:§\s*)?\(?(?P<n>\d{1,2}|[a-z])\s*[.)]")


def _brought(op: Operation, new: Sequence[str]) -> Target | None:
    """The unit an insertion brings: the article its text heads ("Article 26A"), or, for a
    clause that brings a paragraph or point ("the following paragraph shall be added to
    Article 12"), the one its text's label numbers."""
    target = op.target
    head = _heading_target(new)
    if head is not None and (target is None or target.paragraph is None):
        return head
    if target is None or not new or not _re(_BRINGS_PARAGRAPH).search(op.clause[:200]):
        return None
    m = _NEW_LABEL.match(new[0])
    if m is None:
        return None
    label = m["n"]
    if label.isdigit() and target.paragraph is None:
        return Target(target.article, label)
    if not label.isdigit() and target.paragraph is not None and target.point is None:
        return Target(target.article, target.paragraph, label)
    return None


def _clause_part(text: str) -> str:
    """A line up to its colon: a clause's words, not the new text quoted after them."""
    head, sep, _tail = text.partition(":")
    return head + sep if sep and len(head) > 20 else text


def _own_headings(lines: Sequence[str], clauses: list[Operation]) -> set[int]:
    """The lines that head the instrument's own articles ("ARTICLE II"), in sequence from 1
    (I), and not the heading of an article a clause brings ("Article 10" after "Article 10
    shall be replaced by the following:")."""
    after_clause = {op.line + 1 for op in clauses if op.action in ("replace", "insert")}
    expected = 1
    out: set[int] = set()
    for k, text in enumerate(lines):
        n = _heading_number(text)
        if n is None or text.strip()[:1] in _Q_OPEN:
            continue
        if n == expected and k not in after_clause:
            out.add(k)
            expected += 1
    return out


def _new_text(lines: Sequence[str], op: Operation, stop: int, own: set[int]) -> list[str]:
    """The new text a replace or insert clause brings: after its colon and on the lines
    after it, up to the end of the quote it opens, the instrument's next article, its next
    clause (`stop`) or its closing."""
    first = lines[op.line]
    _head, sep, tail = first.partition(":")
    out: list[str] = []
    pending = [tail.strip()] if sep and tail.strip() else []
    quoted = bool(pending and pending[0][:1] in _Q_OPEN)
    for k in range(op.line + 1, stop):
        text = lines[k]
        if k in own or _CLOSING.match(text) or _IN_FORCE.search(text):
            break
        if not pending and not out:
            quoted = text.strip()[:1] in _Q_OPEN
        pending.append(text)
        if quoted and _closes_quote(text):
            break
    for text in pending:
        clean = _unquoted(text) if quoted else text.strip()
        if clean:
            out.append(clean)
    return out


def _heading_target(new: Sequence[str]) -> Target | None:
    """The article an inserted text heads ("Article 26A", "Artigo 28-A")."""
    for text in new[:2]:
        m = re.match(rf"^\W{{0,3}}{_ART_WORD}\s+{_ART_NUM}", text, re.IGNORECASE)
        if m:
            art = _article_label(m["art"])
            return Target(art) if art else None
    return None
