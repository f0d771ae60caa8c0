"""Guessing title, parties, date and place of signature and the treaty id from a text.

The real texts are read under neutral names (the file name gives nothing away); what they
should give comes from the corpora's SOURCES.md: a file is named after its parties' codes,
sorted, and the year of signature of the base treaty; a multilateral one has a short name.
"""

from __future__ import annotations

import datetime
import re
import shutil
from pathlib import Path

import pycountry
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from indexer.models import DocMeta
from indexer.pipeline.document import process
from indexer.sources import countries, metadata, parties
from indexer.sources.dates import find_date
from indexer.sources.read import read_file

SHARED = Path(__file__).resolve().parent.parent.parent / "shared"


def _lines(path: Path) -> list[str]:
    return [x for x in path.read_text(encoding="utf-8").splitlines() if x.strip()]


# --- the bundled corpus --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("file", "parties", "signed", "place"),
    [
        ("brazil-peru-2006.en.txt", ("BR", "PE"), "2006-02-17", "Lima"),
        ("brazil-colombia-2022.pt.txt", ("BR", "CO"), "2022-08-05", "Brasília"),
        ("china-brazil-1991.zh.txt", ("BR", "CN"), "1991-08-05", "北京"),
    ],
)
def test_guess_from_real_texts(corpus_dir: Path, file, parties, signed, place) -> None:
    meta = metadata.guess(DocMeta(file=file, treaty=""), _lines(corpus_dir / file))
    assert meta.parties == parties
    assert meta.signed == signed
    assert meta.place == place
    # a file named after its parties' names and the year gets their codes as its id
    assert meta.treaty == "-".join(p.lower() for p in parties) + "-" + signed[:4]
    assert {"parties", "signed", "place", "treaty"} <= set(meta.guessed)


def test_title_lines_are_joined_and_unmarked(corpus_dir: Path) -> None:
    lines = _lines(corpus_dir / "brazil-colombia-2022.pt.txt")
    title, after = metadata.document_title(lines)
    assert title.startswith("CONVENÇÃO ENTRE A REPÚBLICA FEDERATIVA DO BRASIL")
    assert title.endswith("E DA ELISÃO FISCAIS")  # three source lines, one title
    assert lines[after] == "A República Federativa do Brasil"  # the preamble follows
    # a text without a title line has none (not its preamble's first words)
    assert metadata.document_title(_lines(corpus_dir / "brazil-peru-2006.en.txt")) == (None, 0)


def test_declared_fields_are_kept(corpus_dir: Path) -> None:
    meta = DocMeta(file="x.txt", treaty="br-pe-2006", parties=("BR", "PE"), signed="2006-02-17",
                   place="Lima")
    out = metadata.guess(meta, _lines(corpus_dir / "brazil-colombia-2022.pt.txt"))
    assert (out.treaty, out.parties, out.signed, out.place) == (
        "br-pe-2006", ("BR", "PE"), "2006-02-17", "Lima")
    assert out.guessed == ("title",)  # the only field left empty


# --- real texts the project was not written on, under neutral names -----------------------

# (file, place of signature as its closing formula writes it)
_SAMPLE = [
    ("corpus-wild/sv/kr-se-1981.txt", "Seoul"),  # "Republiken Korea och Konungariket Sverige"
    ("corpus-wild/sv/mk-se-1998.txt", "Stockholm"),  # "REPUBLIKEN\nMAKEDONIEN", title in lines
    ("corpus-wild/sv/se-yu-1980.txt", "Stockholm"),  # a former state
    ("corpus-wild/sv/at-se-1959.txt", "Stockholm"),  # the statute names 1959 and 1970
    ("corpus-wild/sv/ch-se-1965.txt", "Stockholm"),  # "Vilket skedde", later protocols
    ("corpus-wild/sv/kz-se-1997.txt", "Moskva"),  # genitive "Kazakstans"
    ("corpus-wild/sv/ky-se-2009.txt", "Paris"),  # a territory, "CAYMANÖARNAS"
    ("corpus-wild/sv/bd-se-1982.txt", "Dacca"),
    ("corpus-wild/sv/coe-oecd-mutual-assistance-1988.txt", "Strasbourg"),  # undated closing
    ("corpus-wild/en/cs-nl-1974.txt", "Prague"),  # "Czechoslovak Socialist Republic"
    ("corpus-wild/en/nl-tr-1986.txt", "Ankara"),  # "Republic of Turkey", "twentyseventh"
    ("corpus-wild/en/an-no-1989.txt", "Willemstad"),  # "in respect of", "in Duplicate at"
    ("corpus-wild/en/bm-nl-2009.txt", "London"),  # a party named in parentheses is none
    ("corpus-wild/en/bd-nl-1993.txt", "Dhaka"),  # "this thirteenth day of July 1993"
    ("corpus-wild/en/nl-zm-1977.txt", "Lusaka"),  # "this day of 19 Dec. 1977"
    ("corpus-wild/en/road-vehicles-goods-1956.txt", "Geneva"),  # the year in words
    ("corpus-wild/en/gr-nl-1981.txt", "Athens"),
    ("corpus-extra/en/nl-hk-2010.txt", "Hong Kong"),  # "... Region of the People's Republic"
    ("corpus-extra/en/nl-hu-1986.txt", "The Hague"),  # "Hungarian People's Republic"
    ("corpus-extra/en/se-us-1994.txt", "Stockholm"),  # the date on the line after
    ("corpus-extra/sv/nordic-1996.txt", "Helsingfors"),  # six parties: multilateral
]
_INSTRUMENTS = re.compile(r"^(?:\S+\s+){0,4}(?:convention|agreement|avtal|konvention)\b",
                          re.IGNORECASE)


def _from_file_name(path: str) -> tuple[tuple[str, ...], str]:
    """(parties, year) a corpus file's name gives: "at-se-1959" is AT and SE in 1959; a
    multilateral short name ("road-vehicles-goods-1956") gives no parties."""
    stem = Path(path).stem
    year = re.search(r"\d{4}", stem).group(0)
    codes = stem[: stem.index(year)].strip("-").split("-")
    return (tuple(sorted(c.upper() for c in codes)) if all(len(c) == 2 for c in codes)
            else ()), year


def _words(text: str) -> list[str]:
    return re.findall(r"[^\W_]+", text.lower())


@pytest.fixture(scope="module")
def neutral(tmp_path_factory) -> dict[str, DocMeta]:
    """The sample's metadata as the pipeline guesses it, each file read as "docNN.txt"."""
    if not SHARED.is_dir():
        pytest.skip("shared/ is not beside the project")
    folder = tmp_path_factory.mktemp("neutral")
    out = {}
    for i, (rel, _place) in enumerate(_SAMPLE):
        path = folder / f"doc{i:02d}.txt"
        shutil.copy(SHARED / rel, path)
        doc, _removed = process(read_file(path), DocMeta(file=path.name, treaty=""))
        out[rel] = doc.meta
    return out


@pytest.mark.parametrize(("rel", "place"), _SAMPLE)
def test_real_texts_under_neutral_names(neutral: dict[str, DocMeta], rel: str,
                                        place: str) -> None:
    meta = neutral[rel]
    want_parties, year = _from_file_name(rel)
    assert meta.parties == want_parties
    assert meta.signed and meta.signed[:4] == year
    assert meta.place == place
    # the title: one clean line of the document's own title, never a statute's section
    assert _INSTRUMENTS.match(meta.title), meta.title
    assert not re.search(r"[#*<>§\n]", meta.title)
    source = " ".join(_words((SHARED / rel).read_text(encoding="utf-8")))
    assert " ".join(_words(meta.title)) in source
    # the id: parties and year, or the neutral name, never a made-up year
    assert meta.treaty == ("-".join(p.lower() for p in want_parties) + f"-{year}"
                           if want_parties else f"{Path(meta.file).stem}-{year}")
    assert {"signed", "place", "title", "treaty"} | ({"parties"} if want_parties else set()) \
        <= set(meta.guessed)


def test_a_file_named_as_a_treaty_id_keeps_it() -> None:
    """The file name's id wins over one built from the text (a consolidated treaty whose
    closing a later protocol's date could shadow, a corpus that names files its own way)."""
    text = ["Convention between the Kingdom of Sweden and the Republic of Austria",
            "DONE at Vienna, this 6th day of April 1970."]
    for name, want in [("sv/at-se-1959.txt", "at-se-1959"), ("nl-cn-2013.en.txt", "nl-cn-2013"),
                       ("coe-oecd-mutual-assistance-1988.txt", "coe-oecd-mutual-assistance-1988"),
                       ("austria-sweden-1959.txt", "at-se-1959"), ("doc.txt", "at-se-1970"),
                       ("Austria Sweden.txt", "at-se-1970")]:
        assert metadata.guess(DocMeta(file=name, treaty=""), text).treaty == want, name


def test_an_id_is_never_a_made_up_year() -> None:
    meta = metadata.guess(DocMeta(file="notes/Some Notes.txt", treaty=""),
                          ["Convention on nothing in particular", "Article 1"])
    assert meta.treaty == "some-notes"
    assert (meta.parties, meta.signed, meta.guessed) == ((), None, ("title", "treaty"))
    assert metadata.treaty_id(("PE", "BR"), 2006, "x") == "br-pe-2006"
    assert metadata.treaty_id((), "1996-09-23", "Nordic convention") == "nordic-convention-1996"
    assert metadata.treaty_id((), None, "mystery") == "mystery"


# --- parties: every country of the catalogs, state forms, former and renamed states -------

def _catalog_names(locales: tuple[str, ...]) -> dict[str, list[str]]:
    """Code -> the names the catalogs of `locales` give it and no other country (a catalog
    slip gives one country's official name to another), without inverted or annotated
    forms ("Korea, Republic of", "Sint Maarten (Dutch part)")."""
    owners: dict[str, set[str]] = {}
    for locale in locales:
        translate = countries._translators()[locale].gettext
        for c in pycountry.countries:
            for attr in ("name", "official_name", "common_name"):
                name = getattr(c, attr, None)
                if name and "," not in name and "(" not in name:
                    owners.setdefault(translate(name), set()).add(c.alpha_2)
    out: dict[str, list[str]] = {}
    for name, codes in sorted(owners.items()):
        if len(codes) == 1 and "," not in name:
            out.setdefault(next(iter(codes)), []).append(name)
    return out


_EN_NAMES, _SV_NAMES, _PT_NAMES = (_catalog_names(x) for x in (("en",), ("sv",), ("pt", "pt_BR")))
_CODES = sorted(c.alpha_2 for c in pycountry.countries if c.alpha_2 not in ("SE", "BR"))


@pytest.mark.parametrize("code", _CODES)
def test_parties_of_any_country_in_en_sv_pt(code: str) -> None:
    """Every ISO 3166 country by each of its catalog names, in a title as each language
    writes it (the Swedish one in the genitive)."""
    for name in _EN_NAMES.get(code, []):
        title = f"Convention between the Kingdom of Sweden and {name} for the avoidance of"
        assert parties.find_parties([title]) == tuple(sorted(("SE", code))), title
    for name in _SV_NAMES.get(code, []):
        title = f"Avtal mellan Konungariket Sveriges regering och {name}s regering för"
        assert parties.find_parties([title]) == tuple(sorted(("SE", code))), title
    for name in _PT_NAMES.get(code, []):
        title = f"Convenção entre a República Federativa do Brasil e {name} para evitar"
        assert parties.find_parties([title]) == tuple(sorted(("BR", code))), title


@pytest.mark.parametrize(
    ("text", "want"),
    [
        # a base two countries share, told apart by the form before it
        ("Avtal mellan Republiken Korea och Konungariket Sverige", ("KR", "SE")),
        ("between the Republic of Korea and the Democratic People's Republic of Korea",
         ("KP", "KR")),
        # former states, by their ISO 3166-3 codes
        ("between the Kingdom of the Netherlands and the Czechoslovak Socialist Republic",
         ("CS", "NL")),
        ("mellan Konungariket Sverige och den Socialistiska Federala Republiken Jugoslavien",
         ("SE", "YU")),
        ("between the German Democratic Republic and the Republic of Austria", ("AT", "DD")),
        ("between the Kingdom of Thailand and the Socialist Republic of the Union of Burma",
         ("BU", "TH")),
        ("the Union of Soviet Socialist Republics and the Kingdom of Sweden", ("SE", "SU")),
        # names today's catalogs no longer spell so, after a state form or as an adjective
        ("between the Kingdom of the Netherlands and the Republic of Turkey", ("NL", "TR")),
        ("AVTAL MELLAN KONUNGARIKET SVERIGE OCH REPUBLIKEN MAKEDONIEN FÖR", ("MK", "SE")),
        ("between the Kingdom of Norway and the Republic of Macedonia for", ("MK", "NO")),
        ("between the Kingdom of Sweden and the Republic of Cape Verde for", ("CV", "SE")),
        ("the Government of the Hungarian People's Republic and the Government of Sweden",
         ("HU", "SE")),
        ("mellan Konungariket Sveriges regering och Ungerska folkrepublikens regering",
         ("HU", "SE")),
        ("Avtal mellan Konungariket Sverige och Schweiziska Edsförbundet", ("CH", "SE")),
        # who the party is: asides, qualifiers, "in respect of"
        (("between the Kingdom of the Netherlands and Bermuda (as authorised by the Government "
         "of the United Kingdom of Great Britain and Northern Ireland) for"), ("BM", "NL")),
        (("between the Kingdom of the Netherlands and the Hong Kong Special Administrative "
         "Region of the People's Republic of China for"), ("HK", "NL")),
        ("between the Kingdom of the Netherlands in respect of Aruba and the Kingdom of Norway",
         ("AW", "NO")),
        (("The Government of the Federative Republic of Brazil\nand\nthe Government of the "
         "Republic of Peru,\nDesiring to conclude"), ("BR", "PE")),
        ("中华人民共和国政府和瑞典王国政府关于对所得避免双重征税和防止偷漏税的协定", ("CN", "SE")),
        # several parties: a multilateral instrument, whose parties are not guessed
        (("Danmarks regering, Färöarnas landsstyre, Finlands regering, Islands regering, "
         "Norges regering och Sveriges regering, som"), ()),
    ],
)
def test_parties_in_titles_and_preambles(text: str, want: tuple[str, ...]) -> None:
    assert parties.find_parties([text]) == want


def test_no_parties_without_names() -> None:
    assert parties.find_parties([("Convention on mutual administrative assistance in tax "
                                 "matters"), ("The member States of the Council of Europe and "
                                 "the member countries of the OECD, signatories")]) is None


# --- dates and places of closing formulas ---------------------------------------------------

_EN_MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
              "September", "October", "November", "December"]
_SV_MONTHS = ["januari", "februari", "mars", "april", "maj", "juni", "juli", "augusti",
              "september", "oktober", "november", "december"]
_PT_MONTHS = ["janeiro", "fevereiro", "março", "abril", "maio", "junho", "julho", "agosto",
              "setembro", "outubro", "novembro", "dezembro"]
_EN_UNITS = ["", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
             "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
             "eighteen", "nineteen"]
_EN_TENS = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty",
            "ninety"]
_EN_ORDINALS = {"one": "first", "two": "second", "three": "third", "five": "fifth",
                "eight": "eighth", "nine": "ninth", "twelve": "twelfth", "twenty": "twentieth",
                "thirty": "thirtieth"}
_PT_UNITS = ["", "um", "dois", "três", "quatro", "cinco", "seis", "sete", "oito", "nove", "dez",
             "onze", "doze", "treze", "catorze", "quinze", "dezesseis", "dezessete", "dezoito",
             "dezenove"]
_PT_TENS = ["", "", "vinte", "trinta", "quarenta", "cinquenta", "sessenta", "setenta",
            "oitenta", "noventa"]
_PT_HUNDREDS = ["", "cento", "duzentos", "trezentos", "quatrocentos", "quinhentos",
                "seiscentos", "setecentos", "oitocentos", "novecentos"]
_ZH = "〇一二三四五六七八九"


def _en(n: int) -> str:
    if n < 20:
        return _EN_UNITS[n]
    return _EN_TENS[n // 10] + ("-" + _EN_UNITS[n % 10] if n % 10 else "")


def _en_ordinal(n: int) -> str:
    words = _en(n).split("-")
    last = words[-1]
    words[-1] = _EN_ORDINALS.get(last) or (last[:-1] + "ieth" if last.endswith("y")
                                           else last + "th")
    return "-".join(words)


def _en_year(y: int) -> str:
    head = "one thousand nine hundred" if y < 2000 else "two thousand"
    rest = y % 100 if y < 2000 else y - 2000
    return f"{head} and {_en(rest)}" if rest else head


def _pt(n: int) -> str:
    if n < 20:
        return _PT_UNITS[n]
    return _PT_TENS[n // 10] + (" e " + _PT_UNITS[n % 10] if n % 10 else "")


def _pt_year(y: int) -> str:
    thousands = "mil" if y < 2000 else "dois mil"
    hundreds, rest = (y % 1000) // 100, y % 100
    parts = [p for p in (_PT_HUNDREDS[hundreds], _pt(rest) if rest else "") if p]
    return thousands + "".join(" e " + p if i == len(parts) - 1 else " " + p
                               for i, p in enumerate(parts))


def _suffix(d: int) -> str:
    return "th" if 10 <= d % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(d % 10, "th")


def _zh(n: int) -> str:
    tens, units = divmod(n, 10)
    return ((_ZH[tens] if tens > 1 else "") + "十" if tens else "") + (_ZH[units] if units else "")


_FORMS = [
    lambda d, p: f"Done at {p}, this {d.day}{_suffix(d.day)} day of {_EN_MONTHS[d.month - 1]} "
                 f"{d.year}, in duplicate in the English language.",
    lambda d, p: f"DONE in duplicate at {p} this {_en_ordinal(d.day)} day of "
                 f"{_EN_MONTHS[d.month - 1]}, {d.year}".upper(),
    lambda d, p: f"Done in two originals at {p} on {_EN_MONTHS[d.month - 1]} {d.day}, {d.year}.",
    lambda d, p: f"DONE at {p}, this {d.day}<sup>{_suffix(d.day)}</sup> day of "
                 f"{_EN_MONTHS[d.month - 1]} {d.year}",
    lambda d, p: f"Done at {p}, this {_en_ordinal(d.day)} day of {_EN_MONTHS[d.month - 1]} "
                 f"{_en_year(d.year)}, in a single copy.",
    lambda d, p: f"Done at {p} on {d.day} {_EN_MONTHS[d.month - 1][:3]}. {d.year}",
    lambda d, p: f"Som skedde i {p} den {d.day} {_SV_MONTHS[d.month - 1]} {d.year} i två "
                 f"exemplar på engelska språket.",
    lambda d, p: f"Som skedde i två exemplar i {p} den {d.day} {_SV_MONTHS[d.month - 1]} "
                 f"{d.year}.",
    lambda d, p: f"Feito em {p}, aos {d.day} dias do mês de {_PT_MONTHS[d.month - 1]} de "
                 f"{d.year}, em dois exemplares originais.",
    lambda d, p: f"FEITO em duplicata em {p}, em {d.day} de {_PT_MONTHS[d.month - 1]} de "
                 f"{d.year}, nos idiomas português e inglês.",
    lambda d, p: f"Feito em {p}, aos {_pt(d.day)} dias do mês de {_PT_MONTHS[d.month - 1]} do "
                 f"ano de {_pt_year(d.year)}.",
]
_PLACES = ["Stockholm", "The Hague", "Addis Ababa", "Rio de Janeiro", "New Delhi", "Brasília",
           "Dar es Salaam", "Kuala Lumpur", "London", "Lima"]


@settings(max_examples=300, deadline=None)
@given(st.dates(datetime.date(1900, 1, 1), datetime.date(2099, 12, 31)),
       st.integers(0, len(_FORMS) - 1), st.sampled_from(_PLACES))
def test_closing_formulas_give_date_and_place(date: datetime.date, form: int,
                                              place: str) -> None:
    text = _FORMS[form](date, place)
    assert metadata.find_date(text) == date.isoformat(), text
    assert metadata.find_place(text).lower() == place.lower(), text


@settings(max_examples=200, deadline=None)
@given(st.dates(datetime.date(1900, 1, 1), datetime.date(2099, 12, 31)), st.booleans())
def test_chinese_closing_formulas(date: datetime.date, numerals: bool) -> None:
    if numerals:
        when = "".join(_ZH[int(c)] for c in str(date.year)) + \
            f"年{_zh(date.month)}月{_zh(date.day)}日"
    else:
        when = f"{date.year}年{date.month}月{date.day}日"
    text = f"本协定于{when}在北京签订，一式两份"
    assert find_date(text) == date.isoformat(), text
    assert metadata.find_place(text) == "北京"


@pytest.mark.parametrize(
    ("text", "iso"),
    [
        ("signed in the city of Lima, on February 17th, 2006, in two", "2006-02-17"),
        ("Done at The Hague this 5th day of June, 1986", "1986-06-05"),
        ("DONE at Tallinn this 14-th day of March 1997, in duplicate", "1997-03-14"),
        ("DONE at Athens, this day of 16 July 1981, in two originals", "1981-07-16"),
        ("DONE at Ankara this twentyseventh day of March 1986", "1986-03-27"),
        ("no date here", None),
        ("10 out of 2000 persons", None),  # a word that abbreviates a month is no month alone
        ("31 February 2000", None),  # not in the calendar
    ],
)
def test_find_date(text: str, iso: str | None) -> None:
    assert metadata.find_date(text) == iso


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("DONE in Duplicate at Willemstad this 13th day of November 1989", "Willemstad"),
        ("Done in two originals, in the English language, at Oslo on 3 May 1990", "Oslo"),
        ("SOM SKEDDE I STOCKHOLM DEN 7 MAJ 1981 I TVÅ EXEMPLAR", "Stockholm"),
        (("EM TESTEMUNHO DO QUE, os abaixo-assinados firmaram esta Convenção. FEITO em "
         "duplicata em Brasília, em 5 de agosto de 2022"), "Brasília"),
        ("Feito na cidade do Rio de Janeiro, aos 17 dias do mês de setembro de 1965",
         "Rio de Janeiro"),
    ],
)
def test_find_place_is_a_place(text: str, place: str) -> None:
    assert metadata.find_place(text) == place


def test_the_base_treaty_signature_comes_before_a_protocol() -> None:
    closings = [
        ("IN WITNESS WHEREOF the undersigned have signed this Protocol. DONE at Vienna, this "
        "6th day of April 1970."),
        ("IN WITNESS WHEREOF the undersigned have signed this Convention. DONE at Stockholm, "
        "this 14th day of May 1959."),
    ]
    assert "DONE at Stockholm" in metadata.closing_text([], closings)
    assert metadata.guess(DocMeta(file="doc.txt", treaty=""), [], None, closings).signed == \
        "1959-05-14"


def test_former_states_are_codes_with_names() -> None:
    """The codes the parties of a former state get (ISO 3166-3) are codes a citation may use,
    named as the catalogs name them."""
    assert all(countries.is_alpha2(c) for c in ("CS", "yu", "AN", "SE"))
    assert not countries.is_alpha2("XX")
    assert countries.country_name("CS", "sv") == "Tjeckoslovakien"
    assert countries.country_name("YU") == "Yugoslavia"
    assert countries.lookup("Tjeckoslovakien") == countries.lookup("Czechoslovakia") == "CS"
