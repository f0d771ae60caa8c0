"""The label a line may open with, read without a list of forms: a word or none, a number
(arabic, roman, a letter, number words), brackets and punctuation around it, whatever they
are; then the rest of the line.

`line_labels(text)` gives every reading of a line's start ("i)" is the letter i and roman
one); each `Token` carries its `Form` -- what stays the same from one label of a family to the
next ("Clause", arabic, no bracket, ":") -- and its value. The forms of a document's labels
are grouped into families and their values read as sequences by `families`; nothing here
knows which forms are articles or paragraphs.

Only the first few words of a line are looked at, one by one, so the work is linear in the
line's length whatever it holds.
"""

from __future__ import annotations

import re
import string
import unicodedata
from typing import NamedTuple

from indexer.segment.numbering.words import may_start_number, number_words_value
from indexer.segment.numerals import parse_roman

#: The ordinal marks printed after a number: "Artigo 1º", "1°", "1˚", "1ª".
_ORDINAL_MARKS = "º°˚ª"
#: Markup a line may open with: Markdown heading hashes, emphasis, a bullet-free indent.
_LEAD_MARKUP = re.compile(r"[ \t]*(?:#{1,6}[ \t]*)?(?:(?:\*{1,3}|_{1,3})[ \t]*)?")
#: Emphasis marks at either end of a label's rest ("*Article 5*", "**Dividends**").
_EMPHASIS_ENDS = re.compile(r"^(?:\*{1,3}|_{1,3})|(?:\*{1,3}|_{1,3})$")
#: Punctuation, as a class, not a list of label forms: the brackets that may open a label,
#: and every mark that may stand after its number (a stop, a bracket, a slash, a colon, a
#: dash, an ordinal mark …). Not markup (* _ #), quotation marks, nor the marks that part a
#: sentence's clauses (, ;).
_OPENERS = "([{<«‹"
_CLOSERS = ")]}>»›"
_MARKS = ("".join(sorted(set(string.punctuation) - set("*_#\"',;" + _OPENERS)))
          + "–—‐‒―»›·•" + _ORDINAL_MARKS)
#: Marks that are one form however printed or read: the dashes, and the masculine ordinal
#: sign, which a print sets and a scan reads as a degree sign or a ring ("1º", "1°", "1˚").
_DASHES = str.maketrans({**{c: "-" for c in "–—‐‒―"}, "°": "º", "˚": "º"})
#: One number as printed inside a label token: arabic (with an inserted article's letter
#: glued on, "21A"), roman, one letter, with a bracket before it and marks after it.
_NUMBER_TOKEN = re.compile(
    r"(?P<open>[" + re.escape(_OPENERS) + r"]?)"
    r"(?P<num>\d{1,3}(?:\.\d{1,2})?|[IVXLCDM]{1,7}|[ivxlcdm]{1,7}|[A-Za-z])"
    r"(?P<suffix>(?<=\d)-?[A-Z](?![A-Za-z])|(?<=[IVXLCivxlc])-[A-Z](?![A-Za-z]))?"
    r"(?P<close>[" + re.escape(_MARKS) + r"]{0,3})"
)
#: A number sign between a label's word and its number ("Article No. 5", "ARTICLE No 5",
#: "Artigo n.º 5"): a short abbreviation with its stop or mark, a capital and a letter, or a
#: sign.
_SIGN = re.compile(r"(?:[^\W\d_]{1,3}[.º°]{1,2}|[A-Z][a-z]?(?=[ \t])|[#№])[ \t]*")
#: An inserted article's letter after the number's marks ("Artigo 26.º-A").
_LATE_SUFFIX = re.compile(r"([A-Z])(?![\w])")
_MARK_RUN = re.compile(r"[" + re.escape(_MARKS) + r"]{0,3}")
#: What parts a heading's label from its title (not part of the label's form).
_TITLE_SEPARATORS = ("-", ":")
#: A word before a label's number: letters (an abbreviation's full stop and ordinal mark
#: kept: "Art.", "Art.º").
_WORD = re.compile(r"[^\W\d_]{2,20}(?:\.[º°ª]?)?")
_NUMBER_WORD = re.compile(r"[^\W\d_]+(?:-[^\W\d_]+)?")
# (a letter apart from the number only where nothing but punctuation follows it: "Artikel
# 10 a", not "3 A building site …")
_SUFFIX = re.compile(r"[ \t]?-[ \t]?([A-Z])(?![\w])|[ \t]([A-Za-z])(?=[ \t]*[.:–—-]?[ \t]*$)"
                     r"|[ \t]?(bis|ter|quater)\b")
#: Words in a title that says which article follows ("ARTICLE V", "Article Five").
_LETTER_SPACED = re.compile(r"^(?:[^\W\d_] ){3,}[^\W\d_](?= |$)")


class Form(NamedTuple):
    """What the labels of one family share: the word before the number (lower case, "" for
    none; `after` when it comes after the number: "10 artikel"), the kind of number
    ("arabic", "roman", "ROMAN", "alpha", "ALPHA", "words", "decimal"), the bracket before it
    and the punctuation after it (ordinal mark included, blanks left out), and whether the
    word is printed in capitals ("ARTICLE 7" headings, "Article 7." a reference that a
    wrapped line begins with)."""

    word: str
    kind: str
    open: str
    close: str
    after: bool = False
    capitals: bool = False

    def bare(self) -> bool:
        return not self.word


class Token(NamedTuple):
    """One reading of the label a line opens with."""

    form: Form
    value: int  # the number the label stands for (a letter: its place in the alphabet)
    label: str  # the number as printed ("10", "X", "Five", "21A", "10.1")
    suffix: str  # an inserted article's letter or word ("A", "bis"), else ""
    rest: str  # the line after the label, stripped
    end: int  # where `rest` begins in the line as given
    parent: int | None = None  # a decimal label's first number ("10.1": 10)
    upper: bool = False  # the word (or letter-spaced word) printed in capitals
    weak: bool = False  # on a line a wrapped text runs on to: a label there is less likely
    runs_on: bool = False  # a wrapped text filled the line and runs on: it heads nothing


def line_labels(text: str) -> list[Token]:
    """Every reading of the label `text` opens with (none when it opens with no label)."""
    if _MAY_LABEL.match(text) is None and not _number_in_words(text):
        return []  # (most lines: running text, in one match)
    return _line_labels(text) or _after_specks(text)


#: A mark or two a scan left before a heading's word, then a blank (". ARTIGO 2"), or after
#: its number ("Artikel 1'", "Article 3+").
_SPECKS_BEFORE = re.compile(r"[ \t]*[.,:;'`‘’•·|!?»«~^+]{1,2}[ \t]+(?=[^\W\d_])")
_SPECKS_AFTER = re.compile(r"(?<=\d)[.,:;'`‘’•·|!?»«~^+*]{1,2}[ \t]*$")
#: The longest line a heading with specks around it is looked for on.
_SPECKED_LEN = 30


def _after_specks(text: str) -> list[Token]:
    """The readings of a heading alone on its line (a word and a number, nothing after)
    within the specks a scan left before or after it."""
    if len(text) > _SPECKED_LEN:
        return []
    m = _SPECKS_BEFORE.match(text)
    start = m.end() if m is not None and text[m.end()].isupper() else 0
    after = _SPECKS_AFTER.search(text, start)
    end = after.start() if after is not None else len(text)
    if not start and end == len(text):
        return []
    return [t._replace(end=t.end + start) for t in _line_labels(text[start:end])
            if t.form.word and not t.rest]


def _line_labels(text: str) -> list[Token]:
    """`line_labels` of a line that passed the quick test."""
    m = _LEAD_MARKUP.match(text)
    start = m.end() if m else 0
    unbracketed = _unbracketed(text, start)
    if unbracketed is not text:
        text, start = unbracketed, start + 1
    head = text[start:start + 80]
    if not head or head[0].isspace():
        return []
    spaced = _LETTER_SPACED.match(head)
    if spaced is not None:  # "C H A P T E R II": read as the word it spells
        word = spaced.group(0).replace(" ", "")
        return _word_led(text, start + spaced.end(), word)
    first = head.split(None, 1)[0]
    number = _opening_number(text, start)
    if number is not None:
        return _bare(text, number)
    w = _WORD.match(first)
    if w is not None and w.end() == len(first.rstrip("*_")):  # ("**Article** 5": its markup)
        return _word_led(text, start + w.end(), w.group(0))
    if _sign(first[0]):  # "§ 5", "§5", "¶ 1": a sign for a word
        return _word_led(text, start + 1, first[0])
    return []


#: What a line that opens with a label opens with, whatever the label (a quick test that
#: most lines, running text, fail at once): a bracket, a digit, a roman numeral, a letter
#: and a mark, a word and then a number, a bracket, a roman numeral or a number sign, a
#: letter-spaced word, or a sign of no script. (A number in words: `_number_in_words`.)
_MAY_LABEL = re.compile(
    r"[ \t]*(?:#{1,6}[ \t]*)?(?:(?:\*{1,3}|_{1,3})[ \t]*)?"
    r"(?:[(\[{<«‹\d]"
    r"|[IVXLCDMivxlcdm]{1,7}(?![^\W\d_])"
    r"|[A-Za-z][.):/\]-]"
    r"|[^\W\d_]{2,20}(?:\.[º°ª]?)?(?:\*{1,3}|_{1,3})?(?:[ \t]+(?:\*{1,3}|_{1,3})?)?"
    r"(?:[(\[{<«‹\d#№]|[IVXLCDMivxlcdm]{1,7}(?![^\W\d_])"
    r"|[^\W\d_]{1,3}[.º°]|[A-Z][a-z]?[ \t]|[º°ª])"
    r"|(?:[^\W\d_] ){3}"
    r"|[^\w\s*#\"'])"
)


def _number_in_words(text: str) -> bool:
    """Might a short line open with a word and a number in words ("Article Five")?"""
    if len(text) > _WORDS_LINE:
        return False
    m = _LEAD_MARKUP.match(text)
    words = text[m.end() if m else 0:].split(None, 2)
    return (len(words) >= 2 and words[0][:1].isalpha() and len(words[0]) <= 20
            and may_start_number(words[1].rstrip(string.punctuation + "–—")))


#: The longest line whose heading's number may be written in words.
_WORDS_LINE = 120


def _sign(c: str) -> bool:
    """Is `c` a sign that stands for a word before a number: a symbol or mark of no script
    (§, ¶, №; a currency sign too: a scan reads "§ 1." as "$ 1."), not a letter, a digit, a
    bracket or a mark a number carries?"""
    kind = unicodedata.category(c)
    return kind == "Sc" or (kind in ("So", "Po") and c not in _MARKS and c not in "*#\"'"
                            and c not in _OPENERS)


def _unbracketed(text: str, a: int) -> str:
    """`text` with the brackets blanked that enclose a heading's word and number at the
    line's start (offset `a`, after any markup): "[Article 5]", "[Article 5] / Title" are
    read as "Article 5"; a label's own bracket ("(1) text", "(ii) text") is kept: what it
    encloses has no blank."""
    if len(text) - a < 4 or text[a] not in _OPENERS or not text[a + 1].isalpha():
        return text
    b = text.find(_CLOSERS[_OPENERS.index(text[a])], a + 1)
    if b < 0 or " " not in text[a + 1:b] or text[a] in text[a + 1:b]:
        return text
    return text[:a] + " " + text[a + 1:b] + " " + text[b + 1:]


def _opening_number(text: str, at: int) -> re.Match[str] | None:
    """The number token the line opens with: digits, or a roman number or letter with its
    bracket or punctuation ("IV.", "(a)", "b)"), not a word ("In", "CONVENTION")."""
    m = _NUMBER_TOKEN.match(text, at)
    if m is None or not m.group("num") or not _ends_token(text, m.end()):
        return None
    if (m.group("num")[0].isdigit() or m.group("open") or m.group("close")
            or _titled_numeral(_rest(text, m.end()))  # "XIV", "XIV (Title)"
            or _close_after(text, m.end())[0]):  # or before a dash: "XIV — Title"
        return m
    return None


def _titled_numeral(rest: str) -> bool:
    """May a roman numeral without punctuation head a line followed by `rest`: nothing, or a
    title in brackets or quotation marks ("XIV", "XIV (Dividends)", 'XIV "Dividends"'; not
    "I think")?"""
    return not rest or _encloses(rest[0])


def _encloses(c: str) -> bool:
    """Does `c` open an enclosed text: a bracket or a quotation mark, of any script?"""
    return c in "\"'" or unicodedata.category(c) in ("Ps", "Pi")


def _word_led(text: str, at: int, word: str) -> list[Token]:
    """Readings of a label that is `word` then a number, the number from offset `at`
    (markup between them skipped: "### Article ### 1", a heading joined from two lines)."""
    i = _skip_blanks(text, at)
    while i < len(text) and text[i] in "#*_":
        i = _skip_blanks(text, i + 1)
    if i >= len(text) or not _may_number(text, i):
        return []
    upper = word.isupper()
    key = word.lower()
    m = _NUMBER_TOKEN.match(text, i)
    if m is not None and m.group("num") and _ends_token(text, m.end()):
        out = _readings(text, m, key, upper)
        if out:
            return out
    # a number sign between the word and the number: "Article No. 5", "Artigo n.º V"
    sign = _SIGN.match(text, i)
    if sign is not None and (n := _NUMBER_TOKEN.match(text, sign.end())) is not None and (
            n.group("num")[:1].isdigit() or len(n.group("num")) > 1 or n.group("num") in "IVX"
    ) and _ends_token(text, n.end()):
        out = _readings(text, n, f"{key} {sign.group(0).strip().lower()}", upper)
        if out:
            return out
    # a number in words: "Article Five", "ARTIGO PRIMEIRO", "Article twenty-one"
    return _words_reading(text, i, key, upper)


_ROMAN_LETTERS = frozenset("IVXLCDMivxlcdm")


def _may_number(text: str, i: int) -> bool:
    """May a number (or its sign) begin at offset `i`, after a word: a digit, a bracket, a
    roman numeral, a short sign ("No."), a number word? (Most lines go on with a word.)"""
    c = text[i]
    if c.isdigit() or c in _OPENERS or not c.isalpha():
        return True
    word = _NUMBER_WORD.match(text, i)
    w = word.group(0) if word is not None else c
    return (all(ch in _ROMAN_LETTERS for ch in w) or len(w) <= 3 or may_start_number(w))


def _words_reading(text: str, i: int, key: str, upper: bool) -> list[Token]:
    """A number written in up to three words from offset `i` ("twenty one", "vinte e um")."""
    first = _NUMBER_WORD.match(text, i)
    if first is None or not may_start_number(first.group(0)):
        return []  # (most lines: "Article 5 of the Convention …", "This Agreement …")
    words: list[tuple[str, int]] = []
    j = i
    for _ in range(3):
        m = _NUMBER_WORD.match(text, j)
        if m is None:
            break
        words.append((m.group(0), m.end()))
        j = _skip_blanks(text, m.end())
    best = None
    for k in range(len(words), 0, -1):
        phrase = text[i:words[k - 1][1]]
        value = number_words_value(phrase)
        if value:
            best = (phrase, value, words[k - 1][1])
            break
    if best is None:
        return []
    phrase, value, end = best
    glued = _MARK_RUN.match(text, end)  # "One.-", "Five:"
    close, end = glued.group(0).translate(_DASHES), glued.end()
    if not close:
        close, end = _close_after(text, end)
    rest_at = _skip_blanks(text, end)
    form_close = "" if key and (close in _TITLE_SEPARATORS or not glued.group(0)) else close
    return [Token(Form(key, "words", "", form_close, capitals=upper), value, phrase, "",
                  _rest(text, rest_at), rest_at,
                  upper=upper)]


def _bare(text: str, m: re.Match[str]) -> list[Token]:
    """Readings of a label that opens with its number, `m` ("1.", "(a)", "[3]", "IV.",
    "10 artikel")."""
    out = _readings(text, m, "", False)
    # a number then its word: "10 artikel", "10. ARTIKLA", "10 artikel – Title",
    # "10 artikel (Title)" (a word with text after it, "1 The term …", is no heading)
    after = _skip_blanks(text, m.end())
    w = _WORD.match(text, after)
    if w is not None and m.group("num").isdigit() and not m.group("open"):
        close, end = _close_after(text, w.end())
        if w.group(0).endswith(".") and not close:  # "10 artikel. Title": its stop
            close = "."
        rest_at = _skip_blanks(text, end)
        rest = _rest(text, rest_at)
        if not rest or close or _encloses(rest[0]):
            form = Form(w.group(0).lower().rstrip("."), "arabic", "", close, after=True,
                        capitals=w.group(0).isupper())
            suffix = (m.group("suffix") or "").lstrip("-")
            out.append(Token(form, int(m.group("num")), m.group("num") + suffix, suffix, rest,
                             rest_at, upper=w.group(0).isupper()))
    return out


def _readings(text: str, m: re.Match[str], word: str, upper: bool) -> list[Token]:
    """The readings of number token `m` after `word` ("" for a bare label)."""
    num, open_ = m.group("num"), m.group("open")
    close = (m.group("close") or "").translate(_DASHES)
    if open_ and not any(c in close for c in _CLOSERS):
        return []  # "(1" without its bracket closed: not a label
    end = m.end()
    suffix = (m.group("suffix") or "").lstrip("-")
    if not suffix and close.endswith("-") and (s := _LATE_SUFFIX.match(text, end)) is not None:
        # "26.º-A": the letter after the marks, and the marks after it ("26º-A.")
        more = _MARK_RUN.match(text, s.end())
        suffix, close, end = s.group(1), close[:-1] + more.group(0).translate(_DASHES), more.end()
    glued = close  # the marks glued to the number ("5.", "5º"), not one apart ("5 – Title")
    if not close:
        close, end, suffix = _suffix_and_close(text, end, suffix)
    rest_at = _skip_blanks(text, end)
    rest = _rest(text, rest_at)
    if not close and not word and not _bare_ok(num, rest):
        return []
    out = []
    for kind, value, parent in _number_kinds(num):
        if kind in ("alpha", "ALPHA") and word:
            continue  # "Article A": no
        if kind in ("alpha", "ALPHA", "roman", "ROMAN") and not word and not close and (
                not _titled_numeral(rest) or kind in ("alpha", "ALPHA")):
            continue  # "I think", "a text": a letter is a label only with its bracket or stop
            # (a roman numeral alone on its line is one: "XIV")
        # (after a word, a mark apart from the number, or a dash or colon, only parts the
        # label from its title: "Article 5 – Dividends", "[Article 5] / Dividends" and
        # "Article 13" alone are of one family)
        form_close = "" if word and (close in _TITLE_SEPARATORS or not glued) else close
        out.append(Token(Form(word, kind, open_, form_close, capitals=upper and len(word) > 1),
                         value, num + suffix, suffix, rest, rest_at, parent, upper))
    return out


def _suffix_and_close(text: str, end: int, suffix: str) -> tuple[str, int, str]:
    """After a number printed without punctuation: an inserted article's suffix ("26 A",
    "5 bis", "26-A") and a lone punctuation mark ("5 -", "5 –")."""
    if not suffix:
        m = _SUFFIX.match(text, end)
        if m is not None and m.group(m.lastindex or 0):
            suffix, end = m.group(m.lastindex or 0).upper(), m.end()
    close, end = _close_after(text, end)
    return close, end, suffix


def _close_after(text: str, end: int) -> tuple[str, int]:
    """A lone punctuation mark after blanks ("Article 5 – Title", "1 - text", "1 )")."""
    i = _skip_blanks(text, end)
    if i < len(text) and text[i] in _MARKS and (i + 1 == len(text) or text[i + 1].isspace()
                                                or text[i + 1] in "*_"):
        return text[i].translate(_DASHES), i + 1
    return "", end


def _bare_ok(num: str, rest: str) -> bool:
    """May a bare number without punctuation open a line as a label ("1 The term …", "10"
    alone, "1 a) For …")? Not before a lower-case word ("15 per cent …" wrapped onto a line)."""
    if not num.replace(".", "").isdigit():
        return _titled_numeral(rest)  # a roman numeral alone on its line, or before a title
    return not rest or not rest[0].islower() or rest[1:2] in (")", ".")


def _number_kinds(num: str) -> list[tuple[str, int, int | None]]:
    """Each (kind, value, parent) the printed number `num` can be."""
    if "." in num:
        a, b = num.split(".")
        return [("decimal", int(b), int(a))] if int(b) else []
    if num.isdigit():
        return [("arabic", int(num), None)] if int(num) else []
    out = []
    if len(num) == 1:
        out.append(("alpha" if num.islower() else "ALPHA", ord(num.lower()) - 96, None))
    r = parse_roman(num) if (num.isupper() or num.islower()) else None
    if r is not None and r < 400:
        out.append(("roman" if num.islower() else "ROMAN", r, None))
    return out


def _ends_token(text: str, end: int) -> bool:
    """Does a label token end at `end`: the line's end, a blank, or a letter glued after its
    punctuation ("1.The", "2.a)")?"""
    if end >= len(text):
        return True
    c = text[end]
    return c.isspace() or c in "*_" or (not text[end - 1].isalnum() and (c.isalpha() or c in "\"“'«("))


def _skip_blanks(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t":
        i += 1
    return i


def _rest(text: str, at: int) -> str:
    """The line from `at`, stripped, without closing emphasis marks."""
    s = text[at:].strip()
    if s and (s[0] in "*_" or s[-1] in "*_"):
        s = _EMPHASIS_ENDS.sub("", s).strip()
    return s


def words_number(text: str) -> Token | None:
    """A line that is a number in words and nothing but marks and markup ("One.-", "FIVE"):
    read as a bare label, as a heading's number under its word ("ARTICLE" / "FIVE")."""
    m = _LEAD_MARKUP.match(text)
    start = m.end() if m else 0
    tokens = _words_reading(text, start, "", False)
    if tokens and not tokens[0].rest:
        return tokens[0]
    return None
