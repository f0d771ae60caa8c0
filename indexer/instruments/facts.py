"""A treaty's facts, each with where it came from: its signature (date and place), entry
into force, effect, termination, the treaty it replaces, the instruments that amend it, its
authentic languages and the one that prevails — read from its text (the closing formula,
the final articles, the statute around a treaty that a law enacts) and from the manifest.

`write_facts(db)` (re)derives the store's `facts` table at the end of an ingest (but for the
treaties whose files are all unchanged: theirs are copied), from the units, the instruments
and the documents' manifest metadata: one row per fact with its value, its source ("text" or
"manifest"), the file and source line it was read from and the words that say it. A fact
read as a rule ("on the thirtieth day after the later of the notifications") is kept as
those words: the text gives no date.
"""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable, Collection, Sequence
from functools import cache

from indexer.rates.conditions import clip

SCHEMA = """
CREATE TABLE IF NOT EXISTS facts (
    treaty TEXT NOT NULL, name TEXT NOT NULL, value TEXT NOT NULL, lang TEXT,
    source TEXT NOT NULL, file TEXT, line INTEGER, quote TEXT, seq INTEGER NOT NULL
);
"""
#: The facts in the order a page lists them.
NAMES = ("signed", "place", "in_force", "effective", "termination", "terminated", "replaces",
         "replaced_by", "amended_by", "authentic", "prevails", "statute_in_force")
#: How long a fact's words may be (characters).
WORDS = 300

_IN_FORCE = (r"(?:shall|will)\s+(?:enter|come)\s+into\s+force|entered\s+into\s+force|entrará\s+em"
             r"\s+vigor|entrou\s+em\s+vigor|(?:träder|trädde|skall\s+träda|ska\s+träda)\s+i\s+kraft"
             r"|生效|treedt\s+in\s+werking")
_EFFECT = (r"shall\s+have\s+effect|shall\s+(?:be\s+)?appl(?:y|icable)|aplicar-se-ão|produzirão"
           r"\s+efeitos?|serão\s+aplicáveis|(?:ska|skall)\s+(?:avtalet\s+)?(?:äga\s+)?tillämp"
           r"|tillämpas|适用于")
_TERMINATION = (r"remain\s+in\s+force|may\s+terminate|terminate\s+(?:the|this)|notice\s+of\s+"
                r"termination|denunciar|denúncia|permanecerá\s+em\s+vigor|uppsäg(?:a|er|es)|säga\s+upp|"
                r"(?:förbliv(?:a|er)?|förbli|kvarstå)\s+i\s+kraft|终止")
_REPLACES = (r"shall\s+(?:terminate|cease\s+to\s+have\s+effect)|ceases?\s+to\s+have\s+effect"
             r"|(?:skall|ska)\s+upphöra\s+att\s+gälla|upphör\s+att\s+(?:gälla|tillämpas)"
             r"|deixará\s+de\s+(?:ter\s+efeito|vigorar)|terminated\s+and\s+replaced")
_AUTHENTIC = (r"authentic|equally\s+(?:valid|binding|identical)|vitsord|aut[êe]ntic|igualmente"
              r"\s+válid|作准|avfattade?\s+på|faith")
#: The languages a closing formula says the treaty was done in ("in duplicate in the Swedish,
#: the Portuguese and the English languages", "på portugisiska, svenska och engelska
#: språken", "nas línguas sueca, portuguêsa e inglêsa"): its authentic texts, where no
#: sentence says more.
_DONE_IN = r"\blanguages\b|språken|l[íi]nguas|idiomas|文写成|文字写成"
_PREVAILS = (r"(?P<a>\w+)\s+text\s+shall\s+prevail|skall\s+den\s+(?P<b>\w+)\s+texten\s+(?:äga\s+"
             r"företräde|gälla)|prevalecerá\s+o\s+texto\s+(?:em\s+(?:língua\s+)?)?(?P<c>\w+)"
             r"|以(?P<d>\w{1,4})文本为准")
_STATUTE = r"(?:denna|den\s+nya)\s+lag\s+träder\s+i\s+kraft[^.]{0,80}"


@cache
def _language_names() -> dict[str, str]:
    """A language's name or adjective in en, pt, sv, zh (lower case) -> its ISO 639-1
    code: English names from the ISO catalogue, the others' forms for common languages."""
    import pycountry

    out = {lang.name.lower(): lang.alpha_2 for lang in pycountry.languages
           if hasattr(lang, "alpha_2")}
    out.update({"netherlands": "nl", "dutch": "nl", "chinese": "zh", "greek": "el"})
    for code, names in {
        "en": "inglesa inglês engelska 英文 英语", "pt": "portuguesa português portugisiska 葡萄牙文",
        "sv": "sueca sueco svenska 瑞典文",
        "es": "espanhola espanhol spanska 西班牙文 castellano castelhano",
        "fr": "francesa francês franska 法文", "de": "alemã alemão tyska 德文",
        "nl": "neerlandesa holandesa nederländska holländska 荷兰文",
        "zh": "chinesa chinês kinesiska 中文",
        "ja": "japonesa japonês japanska 日文", "ru": "russa russo ryska 俄文",
        "ar": "árabe arabiska 阿拉伯文", "fi": "finlandesa finska 芬兰文",
        "da": "dinamarquesa danska 丹麦文", "no": "norueguesa norska 挪威文",
        "ka": "georgiana georgiska", "hu": "húngara ungerska", "hi": "hindi",
    }.items():
        for name in names.split():
            out[name] = code
    return out


def _fold(word: str) -> str:
    """Lower case without accents ("Portuguêsa" -> "portuguesa")."""
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", word.lower())
                   if not unicodedata.combining(c))


@cache
def _folded_names() -> dict[str, str]:
    return {_fold(k): v for k, v in _language_names().items()}


def languages_named(text: str) -> list[str]:
    """The ISO 639-1 codes of the languages `text` names, in order (accents and older
    spellings aside: "portuguêsa")."""
    names = _folded_names()
    out = []
    for word in re.findall(r"[^\W\d_]+", text):
        code = names.get(_fold(word))
        if code and code not in out and (len(word) > 3 or word.lower() in ("hindi",)):
            out.append(code)
    for word, code in (("英文", "en"), ("葡萄牙文", "pt"), ("中文", "zh"), ("瑞典文", "sv")):
        if word in text and code not in out:
            out.append(code)
    return out


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.;。；])\s+|\n", text) if s.strip()]


def _line(row: sqlite3.Row, words: str) -> int | None:
    """The source line of `words` in a unit: its first line plus the lines of its printed
    text before them."""
    raw = row["raw"] or ""
    probe = " ".join(words.split()[:4])
    at = -1
    for n in (len(probe), 16, 8):
        if n <= 0:
            continue
        at = " ".join(raw.split("\n")).find(probe[:n])
        if at >= 0:
            break
    if at < 0 or row["start_line"] is None:
        return row["start_line"]
    return row["start_line"] + raw[:at].count("\n")


class _Facts:
    """The facts of one treaty as they are found, first source wins per name (the
    manifest's before the text's)."""

    def __init__(self, treaty: str) -> None:
        self.treaty = treaty
        self.rows: list[tuple] = []
        self.have: set[str] = set()

    def add(self, name: str, value: str, source: str, lang: str | None = None,
            file: str | None = None, line: int | None = None, quote: str = "",
            many: bool = False) -> None:
        if not value or (name in self.have and not many):
            return
        self.have.add(name)
        self.rows.append((self.treaty, name, value, lang, source, file, line,
                          clip(quote, WORDS) if quote else "", len(self.rows)))


def _manifest(db: sqlite3.Connection, treaty: str, out: _Facts) -> None:
    """What the manifest declares; the signature and place read from the closing formula
    where it does not (`indexer.sources.metadata`), with the line that says them."""
    for file, meta in db.execute("SELECT file, meta FROM documents WHERE treaty=? ORDER BY file",
                                 (treaty,)):
        meta = json.loads(meta or "{}")
        for name, value in meta.get("facts") or ():
            out.add(name, value, "manifest", file=file, many=name == "amended_by")
        if meta.get("instrument"):
            continue
        guessed = meta.get("guessed") or ()
        for name in ("signed", "place"):
            value = meta.get(name) or ""
            if name not in guessed:
                out.add(name, value, "manifest", file=file)
            elif value:
                row, words = _closing_with(db, treaty, file, value)
                out.add(name, value, "text", row["lang"] if row else None, file,
                        _line(row, words) if row else None, words)


def _closing_with(db: sqlite3.Connection, treaty: str, file: str, value: str
                  ) -> tuple[sqlite3.Row | None, str]:
    """The closing formula of `file` that says `value` (a place, or a date as its year),
    and its sentence that does."""
    probe = value[:4] if re.fullmatch(r"\d{4}-\d\d-\d\d", value) else value
    for r in db.execute("SELECT * FROM units WHERE treaty=? AND file=? AND kind='closing' "
                        "ORDER BY seq", (treaty, file)):
        for sentence in _sentences(r["text"]):
            if probe in sentence:
                return r, sentence
    return None, ""


def _instruments(db: sqlite3.Connection, treaty: str, out: _Facts) -> None:
    """Signature from the base instrument's closing; the later instruments that amend."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE name='instruments'").fetchone() is None:
        return
    base = db.execute("SELECT * FROM instruments WHERE treaty=? AND base=1 ORDER BY seq LIMIT 1",
                      (treaty,)).fetchone()
    if base is not None and base["signed"]:  # (a text with no manifest metadata)
        out.add("signed", base["signed"], "text", base["lang"], base["file"],
                _closing_line(db, base), base["signed_line"])
    seen = set()
    for r in db.execute(
            "SELECT * FROM instruments i WHERE treaty=? AND base=0 AND EXISTS (SELECT 1 FROM "
            "amendments a WHERE a.treaty=i.treaty AND a.instrument=i.id) ORDER BY "
            "COALESCE(signed, '9999'), seq", (treaty,)):
        if r["id"] in seen:
            continue
        seen.add(r["id"])
        when = f" of {r['signed']}" if r["signed"] else ""
        effect = f", in effect from {r['effective'] or r['in_force']}" if (
            r["effective"] or r["in_force"]) else ""
        out.add("amended_by", f"{r['kind'].replace('-', ' ')}{when}{effect}", "text", r["lang"],
                r["file"], r["start_line"], r["title"] or r["signed_line"], many=True)


def _closing_line(db: sqlite3.Connection, base: sqlite3.Row) -> int | None:
    row = db.execute("SELECT raw, start_line FROM units WHERE treaty=? AND lang=? AND file=? "
                     "AND kind='closing' ORDER BY seq LIMIT 1",
                     (base["treaty"], base["lang"], base["file"])).fetchone()
    return _line(row, base["signed_line"]) if row is not None else base["start_line"]


def _final_articles(db: sqlite3.Connection, treaty: str, out: _Facts) -> None:
    """Entry into force, effect, termination, the treaty replaced: from the articles on
    those topics (their paragraphs), in the treaty's languages in order."""
    from indexer.sources.dates import find_date

    tops = {(r["lang"], r["eid"]): r["topic"] for r in db.execute(
        "SELECT lang, eid, topic FROM units WHERE treaty=? AND depth=0 AND kind='article' AND "
        "topic IN ('entry-into-force', 'termination')", (treaty,))}
    rows = [r for lang, eid in tops for r in db.execute(
        "SELECT * FROM units WHERE treaty=? AND lang=? AND top=? ORDER BY seq",
        (treaty, lang, eid))]
    parents = {r["parent"] for r in rows}
    # its paragraphs (an article without any: itself), each with its article's topic
    rows = [r for r in rows if r["depth"] == 1 or (r["depth"] == 0 and r["eid"] not in parents)]
    found: dict[str, list[tuple]] = {}
    for r in rows:
        for s in _sentences(r["text"]):
            for name, pattern in (("in_force", _IN_FORCE), ("effective", _EFFECT),
                                  ("termination", _TERMINATION), ("replaces", _REPLACES)):
                if not re.search(pattern, s, re.IGNORECASE):
                    continue
                if name == "replaces" and find_date(s) is None:
                    continue
                if name == "in_force" and tops[(r["lang"], r["top"])] != "entry-into-force":
                    continue
                # effect: the paragraph (its points say from when); the others, the sentence
                words = r["text"] if name == "effective" else s
                if name == "effective" and _not_effect(words):
                    continue
                found.setdefault(name, []).append((_rank(name, s, words), r, s, words))
    for name, items in found.items():
        _rank_of, r, s, words = min(items, key=lambda x: x[0])
        value = clip(re.sub(r"^\W*\d{1,2}\s*[.)]\s*", "", " ".join(words.split())), WORDS)
        out.add(name, value, "text", r["lang"], r["file"], _line(r, s), words)


#: A paragraph that makes an exception ("Notwithstanding paragraph 1, the provisions of
#: Article 23 shall have effect …"): the rule is in another.
_EXCEPTION = r"^\W*(?:\d{1,2}\s*[.)]\s*)?(?:notwithstanding|utan\s+hinder|não\s+obstante|sem\s+prejuízo)"


#: Words that end a treaty's effect, the earlier one's a new one replaces ("the 1962
#: agreement … ska upphöra att tillämpas", "shall cease to have effect").
_ENDS = (r"upph(?:öra|ör)\s+att\s+(?:gälla|tillämpas|ha\s+verkan)|cease\s+to\s+(?:have\s+effect|"
         r"apply)|deixará\s+de\s+(?:ter\s+efeito|vigorar|aplicar)")


def _not_effect(paragraph: str) -> bool:
    """Whether a paragraph that speaks of effect is about the end of a treaty (this one's
    termination, or the earlier treaty's that it replaces), not when this one takes effect."""
    return any(re.search(p, paragraph, re.IGNORECASE) for p in (_TERMINATION, _REPLACES, _ENDS))


def _rank(name: str, sentence: str, words: str) -> int:
    """How well `words` state fact `name` (lower is better): for the effect, a paragraph of
    its own before one that also says when the treaty enters into force, and either before
    an exception to the rule."""
    if name != "effective":
        return 0
    both = bool(re.search(_IN_FORCE, sentence, re.IGNORECASE))
    return int(both) + 2 * bool(re.match(_EXCEPTION, words, re.IGNORECASE))


def _testimonium(db: sqlite3.Connection, treaty: str, out: _Facts) -> None:
    """Authentic languages and the one that prevails: the closing formula ("in the English
    and Portuguese languages, both texts being equally authentic"), the statute around the
    treaty ("Avtalet är avfattat på svenska och engelska"); the statute's own entry into
    force."""
    rows = db.execute("SELECT * FROM units WHERE treaty=? AND depth=0 AND kind IN "
                      "('closing', 'other', 'preamble', 'title') ORDER BY lang, seq",
                      (treaty,)).fetchall()
    later = _later_units(db, treaty)
    for r in rows:
        if (r["lang"], r["eid"]) in later:
            continue  # a later instrument's closing says its own languages
        for s in _sentences(r["text"]):
            said = re.search(_AUTHENTIC, s, re.IGNORECASE) or (
                r["kind"] == "closing" and re.search(_DONE_IN, s, re.IGNORECASE))
            if "authentic" not in out.have and said:
                langs = languages_named(s)
                if len(langs) >= 1:
                    out.add("authentic", ",".join(langs), "text", r["lang"], r["file"],
                            _line(r, s), s)
            m = re.search(_PREVAILS, s, re.IGNORECASE)
            if m and "prevails" not in out.have:
                langs = languages_named(next(g for g in m.groups() if g))
                if langs:
                    out.add("prevails", langs[0], "text", r["lang"], r["file"], _line(r, s), s)
            m = re.search(_STATUTE, s, re.IGNORECASE)
            if m and "statute_in_force" not in out.have:
                out.add("statute_in_force", clip(m.group(0), WORDS), "text", r["lang"],
                        r["file"], _line(r, s), s)


def _later_units(db: sqlite3.Connection, treaty: str) -> set[tuple[str, str]]:
    """(lang, eid) of the top-level units that hold a later instrument's text (only)."""
    if db.execute("SELECT 1 FROM sqlite_master WHERE name='instruments'").fetchone() is None:
        return set()
    base = {(r["lang"], e) for r in db.execute(
        "SELECT lang, eids FROM instruments WHERE treaty=? AND base=1", (treaty,))
        for e in json.loads(r["eids"] or "[]")}
    return {(r["lang"], e) for r in db.execute(
        "SELECT lang, eids FROM instruments WHERE treaty=? AND base=0", (treaty,))
        for e in json.loads(r["eids"] or "[]")} - base


def treaty_facts(db: sqlite3.Connection, treaty: str) -> list[tuple]:
    """The fact rows of one treaty (module doc)."""
    out = _Facts(treaty)
    _manifest(db, treaty, out)
    _instruments(db, treaty, out)
    _final_articles(db, treaty, out)
    _testimonium(db, treaty, out)
    order = {n: k for k, n in enumerate(NAMES)}
    rows = sorted(out.rows, key=lambda r: (order.get(r[1], 99), r[8]))
    return [(*r[:8], k) for k, r in enumerate(rows)]


#: How far past a unit's count of lines the words of a fact are looked for (source lines).
_LOOK = 400
#: The lines of a source file by its name (None where they cannot be read).
SourceLines = Callable[[str], "Sequence[str] | None"]


def located(line: int | None, quote: str, lines: Sequence[str]) -> int | None:
    """The source line where `quote` begins, looked for from `line` on: a unit's text keeps
    its printed lines but not the blank ones between its paragraphs, so the line counted in
    it (`_line`) may fall short of the one in the file. `line` itself when the words are not
    found as printed (a word repaired or joined across a hyphen)."""
    words = re.findall(r"\w+", quote)[:5]
    if line is None or not words:
        return line
    lo = max(0, line - 1)
    window = "\n".join(lines[lo:lo + _LOOK])
    m = re.search(r"\W+".join(map(re.escape, words)), window)
    return line if m is None else lo + 1 + window.count("\n", 0, m.start())


def _relined(row: tuple, source: SourceLines, files: dict[str, Sequence[str] | None]) -> tuple:
    """A fact row with its line found in its source file (`located`)."""
    file, line, quote = row[5], row[6], row[7]
    if row[4] != "text" or not file or line is None:
        return row
    if file not in files:
        files[file] = source(file)
    lines = files[file]
    return row if not lines else (*row[:6], located(line, quote, lines), *row[7:])


def write_facts(db: sqlite3.Connection, source: SourceLines | None = None,
                kept: Collection[str] = frozenset()) -> int:
    """(Re)derive the facts table of the store `db`, but for the treaties `kept` (their facts
    copied from the store before, with the units and instruments they are read from); the
    number of facts derived. `source` gives a source file's lines (as the ingest decoded it),
    to cite the very line of each fact."""
    db.executescript(SCHEMA)
    treaties = [t for (t,) in db.execute("SELECT id FROM treaties ORDER BY id") if t not in kept]
    if kept:
        db.executemany("DELETE FROM facts WHERE treaty = ?", [(t,) for t in treaties])
    else:
        db.execute("DELETE FROM facts")
    db.row_factory = sqlite3.Row
    files: dict[str, Sequence[str] | None] = {}  # (the files of this derivation, read once)
    try:
        n = 0
        for treaty in treaties:
            rows = treaty_facts(db, treaty)
            if source is not None:
                rows = [_relined(r, source, files) for r in rows]
            db.executemany("INSERT INTO facts VALUES (?,?,?,?,?,?,?,?,?)", rows)
            n += len(rows)
    finally:
        db.row_factory = None
    return n
