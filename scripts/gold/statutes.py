"""Draft segmentation gold for Swedish statute pages (rkrattsbaser SFS fulltext).

An independent, deliberately simple parse used to DRAFT the gold files of
tests/cases/segments/ (see GOLD-SPEC of issue 15).  The drafts are then checked by
reading the source and corrected by hand; the corrections live in each gold file's
"notes", not here.  This script imports nothing from the project.

    python scripts/gold/statutes.py OUT_DIR CORPUS_ROOT/sv/kz-se-1997.txt ...
    python scripts/gold/statutes.py --review OUT_DIR FILE ...   # also list doubtful spots

Each FILE must lie under a corpus folder named corpus-wild or corpus-extra; the draft
is written to OUT_DIR/<corpus>/<subdir>/<stem>.json.
"""
import json
import os
import re
import sys

HEADING = re.compile(
    r"^[ \t]*(?:#+[ \t]*)?(?P<word>Artikel|ARTIKEL|Article|ARTICLE|Arikel|Art\.)[ \t]+"
    r"(?P<num>\d+|[IVXLC]+)"
    r"(?P<suf>[ \t]*[-–][ \t]*[A-Za-z]\b|[A-Z]\b|[ \t]+[A-Za-z]\b|[ \t]+(?:bis|ter)\b)?"
    r"(?P<rest>[ \t]*(?:[.:–-][ \t]*\S.*|[A-ZÅÄÖ].*|[.:]?))$"
)
STOPS = [
    ("chapter", re.compile(r"^(?:#+\s*)?(?:KAPITEL|Kapitel|CHAPTER|Chapter|AVSNITT|Avsnitt|C H A P T E R)\b")),
    ("closing", re.compile(r"^(?:Till bekräftelse|TILL BEKRÄFTELSE|In witness|IN WITNESS|In Witness|"
                           r"Som skedde|SOM SKEDDE|Done at|DONE at|Done in|DONE in|Upprättat|Utfärdat)")),
    ("protocol", re.compile(r"^(?:Protokoll|PROTOKOLL|Protocol|PROTOCOL|Tilläggsprotokoll)\b.{0,90}$")),
    ("annex", re.compile(r"^(?:Bilaga|BILAGA|Annex|ANNEX)\b.{0,60}$")),
    ("letters", re.compile(r"^(?:Skriftväxling|Noteväxling|Notväxling|Brevväxling|Exchange of [Nn]otes|"
                           r"Exchange of [Ll]etters|EXCHANGE OF)\b.{0,80}$")),
    ("statute", re.compile(r"^(?:\d+ § |Enligt riksdagens beslut|På regeringens vägnar|Övergångsbestämmelser"
                           r"|(?:Lag|Förordning) \(\d{4}:\d+\)\.?$)")),
    ("missing", re.compile(r"^Här saknas")),
]
MARKERS = [
    ("sect", re.compile(r"^§\s*(\d+)\b")),
    ("paren", re.compile(r"^\((\d+)\)")),
    ("mom", re.compile(r"^(\d+)\s*mom\.")),
    ("dot", re.compile(r"^(\d+)\.(?!\d)")),
    ("close", re.compile(r"^(\d+)\)")),
    ("dash", re.compile(r"^(\d+)\s*[-–]\s")),
]
WORDS = {
    "sv": ["och", "att", "som", "är", "för", "på", "skall", "ska", "eller", "av", "till", "med", "inte", "det", "denna", "detta", "har", "icke"],
    "en": ["the", "of", "and", "to", "shall", "be", "or", "by", "which", "that", "is", "any", "this", "with", "from", "not"],
    "de": ["der", "die", "und", "des", "ist", "von", "zu", "oder", "auf", "werden", "nicht", "im", "dem", "das", "sind"],
    "fr": ["le", "les", "et", "du", "est", "qui", "dans", "par", "aux", "une", "sont", "des", "la", "sur"],
    "es": ["el", "los", "las", "y", "del", "que", "por", "con", "una", "se", "al", "lo"],
}
INSTRUMENT = re.compile(r"^(?:Avtal|AVTAL|Konvention|KONVENTION|Överenskommelse|Convention|CONVENTION|"
                        r"Agreement|AGREEMENT)\b")
ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50, "C": 100}


def roman(text):
    total = 0
    for i, ch in enumerate(text):
        value = ROMAN[ch]
        following = ROMAN[text[i + 1]] if i + 1 < len(text) else 0
        total += -value if value < following else value
    return total


def read_lines(path):
    with open(path, "rb") as handle:
        text = handle.read().decode("utf-8")
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def language(lines):
    tokens = re.findall(r"[a-zäöüåéè]+", " ".join(lines).lower())
    scores = {lang: sum(tokens.count(w) for w in words) for lang, words in WORDS.items()}
    return max(scores, key=scores.get)


def headings(lines):
    """Candidate article headings: (line index, label, number, text after the number)."""
    found = []
    for i, line in enumerate(lines):
        m = HEADING.match(line)
        if not m or (i and lines[i - 1].strip() and not HEADING.match(lines[i - 1])):
            continue
        num = m.group("num")
        number = int(num) if num.isdigit() else roman(num)
        suffix = re.sub(r"\s*([-–])\s*", r"\1", re.sub(r"\s+", " ", m.group("suf") or ""))
        label = num + suffix.rstrip()
        found.append((i, label, number, m.group("rest").strip(" .:–-\t")))
    return found


def runs(lines, heads):
    """Split headings into runs: same language, numbers rising from a restart at 1."""
    result, review = [], []
    for k, (i, label, number, rest) in enumerate(heads):
        stop = heads[k + 1][0] if k + 1 < len(heads) else len(lines)
        text = [t for t in lines[i:first_stop(lines, i + 1, min(stop, i + 80))[0]] if t.strip()]
        lang = language(text[:15])
        last = result[-1] if result else None
        if last and last["lang"] == lang and last["heads"][-1][2] <= number <= last["heads"][-1][2] + 3:
            last["heads"].append((i, label, number, rest))
        elif number == 1 or not last or last["lang"] != lang:
            result.append({"lang": lang, "heads": [(i, label, number, rest)]})
        else:
            review.append(f"line {i + 1}: out-of-sequence heading {lines[i].strip()!r} ignored")
    return result, review


def first_stop(lines, lo, hi):
    for j in range(lo, hi):
        text = lines[j].strip()
        for kind, rx in STOPS:
            if rx.match(text) and (kind != "protocol" or not lines[j - 1].strip()):
                return j, kind
    return hi, None


def title_of(lines, i, rest):
    """Title and index of the first body line after the heading (and its title)."""
    j = i + 1
    while j < len(lines) and not lines[j].strip():
        j += 1
    if rest:
        return rest, j
    block = []
    while j + len(block) < len(lines) and lines[j + len(block)].strip():
        block.append(lines[j + len(block)].strip())
    joined = " ".join(block)
    if (block and len(joined) <= 120 and joined[0].isupper() and not joined.endswith((".", ",", ";", ":"))
            and not any(rx.match(joined) for _, rx in MARKERS) and not HEADING.match(block[0])):
        j += len(block)
        while j < len(lines) and not lines[j].strip():
            j += 1
        more = lines[j].strip() if j < len(lines) else ""
        if (more and more[0].islower() and len(more) < 60 and not more.endswith((".", ",", ";", ":"))
                and not re.match(r"^[a-z]{1,3}\)", more) and (j + 1 >= len(lines) or not lines[j + 1].strip())):
            joined += " " + more
            j += 1
            while j < len(lines) and not lines[j].strip():
                j += 1
        return joined.replace("#", "").strip(), j
    return None, j


def paragraphs(lines, lo, hi):
    """Count top-level numbered paragraphs in lines[lo:hi]; second value: doubt or None."""
    style, count, intro, nested = None, 0, [], 0
    for j in range(lo, hi):
        raw = lines[j]
        text = raw.strip()
        if not text:
            continue
        hit = next(((kind, int(m.group(1))) for kind, rx in MARKERS if (m := rx.match(text))), None)
        tab = raw.startswith("\t")
        if style is None:
            if hit and hit[1] == 1:
                style, count = (hit[0], tab), 1
                if intro and intro[-1].endswith(":") and hit[0] != "dot":
                    return 1, f"line {j + 1}: numbered items after an intro ending in ':' (points?)"
                if any(re.match(r"^\(?[a-z]\)", t) for t in intro):
                    return 1, f"line {j + 1}: numbered items under lettered points (points?)"
            else:
                intro.append(text)
        elif hit and (hit[0], tab) == style:
            if (hit[1] == 1 or nested and hit[1] == nested + 1) and not lines[j - 1].strip():
                nested = hit[1]  # a list restarting at 1 inside a paragraph: points
            elif hit[1] == count + 1:
                if lines[j - 1].strip() and not lines[j - 1].strip().endswith((".", ":", ";")):
                    return count, f"line {j + 1}: paragraph marker right after a text line (wrap?)"
                count, nested = count + 1, 0
    return max(count, 1), None


def article(lines, head, bound):
    i, label, number, rest = head
    title, body = title_of(lines, i, rest)
    stop, kind = first_stop(lines, body, bound)
    end = stop - 1
    while end > i and not lines[end].strip():
        end -= 1
    count, doubt = paragraphs(lines, body, end + 1)
    art = {"label": label, "number": number, "title": title, "start": i + 1, "end": end + 1,
           "paragraphs": count, "first": lines[i].strip(), "last": lines[end].strip()[-60:]}
    return art, kind, stop, doubt


def instrument(lines, first):
    for j in range(first - 1, -1, -1):
        if INSTRUMENT.match(lines[j].strip()) and not lines[j - 1].strip():
            return lines[j].strip()
    return None


def version(lines, run, bound):
    heads, review, arts = run["heads"], [], []
    for k, head in enumerate(heads):
        nxt = heads[k + 1][0] if k + 1 < len(heads) else bound
        art, kind, stop, doubt = article(lines, head, nxt)
        arts.append(art)
        if kind:
            review.append(f"art {art['label']}: stops at line {stop + 1} ({kind}): {lines[stop].strip()[:60]!r}")
        if doubt:
            review.append(f"art {art['label']}: {doubt}")
        if art["paragraphs"] == 1 or art["paragraphs"] > 7 or art["title"] is None or art["label"] != str(art["number"]):
            review.append(f"art {art['label']}: check (paragraphs={art['paragraphs']}, title={art['title']!r})")
    return {"lang": run["lang"], "instrument": instrument(lines, heads[0][0]), "articles": arts}, review


AD_ITEM = re.compile(r"^(?:(?:\d+|[IVX]+)\.\s*(?:[a-z]\)\s*)?)?"
                     r"(?:Till|Ad|Beträffande|Avseende|With reference to|In respect of|Re|Concerning|"
                     r"With respect to|In relation to)\s+(?:artikel|artiklarna|article|articles|art\.)\s*(\d+)", re.IGNORECASE)
NUM_ITEM = re.compile(r"^(\d+|[IVX]+)\s*[.)]\s*([a-z]\)\s)?")
REFERS = re.compile(r"\b(?:artikel|artiklarna|article|articles|art\.)\s*(\d+)", re.IGNORECASE)


def protocol_items(lines, lo, hi):
    """Items of the first protocol heading found in lines[lo:hi] (numbered or 'Ad Article N')."""
    head = next((j for j in range(lo, hi) if STOPS[2][1].match(lines[j].strip())
                 and not lines[j - 1].strip()), None)
    if head is None:
        return []
    stop = next((j for j in range(head + 1, hi) if STOPS[1][1].match(lines[j].strip())), hi)
    starts = [j for j in range(head + 1, stop) if AD_ITEM.match(lines[j].strip()) and not lines[j - 1].strip()]
    if not starts:
        expected, starts, style = 1, [], None
        for j in range(head + 1, stop):
            m = NUM_ITEM.match(lines[j].strip())
            if m and not lines[j - 1].strip():
                num = int(m.group(1)) if m.group(1).isdigit() else roman(m.group(1))
                style = style if starts else m.group(1).isdigit()
                if num == expected and m.group(1).isdigit() == style:
                    starts.append(j)
                    expected += 1
    items = []
    for k, j in enumerate(starts):
        end = (starts[k + 1] if k + 1 < len(starts) else stop) - 1
        while not lines[end].strip():
            end -= 1
        text = lines[j].strip()
        num = NUM_ITEM.match(text + " ")
        label = (num.group(1) + (" " + num.group(2).strip() if num.group(2) else "") if num
                 else re.sub(r"^(\S+(?:\s+\S+){0,3}?)\s*[:.,].*$", r"\1", text)[:40])
        ref = REFERS.search(text if len(text) < 60 else "")
        if ref and re.search(r"artiklarna|articles", ref.group(0), re.IGNORECASE):
            ref = None  # an item about several articles
        items.append({"label": label, "refers_to": int(ref.group(1)) if ref else None,
                      "start": j + 1, "end": end + 1})
    return items


def parse(lines):
    """Versions (sv, en main treaties) and review remarks for one file's lines."""
    all_runs, review = runs(lines, headings(lines))
    versions = []
    for lang in ("sv", "en"):
        mine = [r for r in all_runs if r["lang"] == lang]
        if not mine:
            continue
        main = max(reversed(mine), key=lambda r: len(r["heads"]))
        for r in mine:
            if r is not main:
                review.append(f"{lang}: other run of {len(r['heads'])} headings at line {r['heads'][0][0] + 1}")
        after = [r["heads"][0][0] for r in all_runs if r["heads"][0][0] > main["heads"][-1][0]]
        bound = min(after, default=len(lines))
        ver, notes = version(lines, main, bound)
        items = protocol_items(lines, ver["articles"][-1]["end"], bound)
        if items:
            ver["protocol_items"] = items
        versions.append((main["heads"][0][0], ver))
        review += [f"{lang} " + n for n in notes]
    return [v for _, v in sorted(versions, key=lambda x: x[0])], review


def split_of(path):
    folder, name = os.path.split(path)
    names = sorted(n for n in os.listdir(folder) if n.endswith(".txt"))
    return "tune" if names.index(name) % 2 == 0 else "measure"


def draft(path, out_dir, show_review):
    parts = os.path.abspath(path).split(os.sep)
    corpus = next(p for p in parts if p.startswith("corpus-"))[len("corpus-"):]
    sub, name = parts[-2], parts[-1]
    lines = read_lines(path)
    versions, review = parse(lines)
    gold = {"file": f"{sub}/{name}", "corpus": corpus, "split": split_of(path),
            "notes": ["draft by scripts/gold/statutes.py"], "versions": versions}
    target = os.path.join(out_dir, corpus, sub, name[:-4] + ".json")
    os.makedirs(os.path.dirname(target), exist_ok=True)
    with open(target, "w", encoding="utf-8") as handle:
        json.dump(gold, handle, indent=2, ensure_ascii=False)
        handle.write("\n")
    summary = ", ".join(f"{v['lang']} {len(v['articles'])}" for v in versions)
    print(f"{target}: {summary}")
    if show_review:
        for remark in review:
            print("   ", remark)


def main(argv):
    show = "--review" in argv
    args = [a for a in argv if a != "--review"]
    if len(args) < 2:
        print(__doc__.strip())
        return 2
    for path in args[1:]:
        draft(path, args[0], show)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
