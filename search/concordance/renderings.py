"""What the counterparts say where the term occurs: the rendering of the term in each pair.

Every run of up to MAX_WORDS words of a counterpart (never across punctuation) is a
candidate. A candidate is scored by how well it goes with the term over all the pairs: the
Dice coefficient of the pairs whose counterpart holds it and the units of the target
language (of the same treaties) that hold it, so that a word that is everywhere, or only in
one pair, scores low and the words that come wherever the term comes score high. Within a
pair, a candidate also gains when the index's bilingual term table translates a word of the
term into a word of it, when it is a cognate of a word of the term, when it stands where
the term stands, and when it is about as long; it loses for each function word at its
edges. Each pair takes its best candidate; the renderings are these, grouped by their words
(inflections alike) and ranked by the number of treaties that use each.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from collections.abc import Sequence
from dataclasses import dataclass, field

from search.concordance.pairs import Pair
from search.concordance.words import Word, runs, words

#: The longest candidate, in words (Chinese words are longer: fewer of them).
MAX_WORDS = {"zh": 3}
DEFAULT_MAX_WORDS = 5
#: A candidate scoring less than this in its pair is no rendering: the pair is unmatched.
MIN_SCORE = 0.08
#: Pairs of a treaty a rendering found in comparable (not parallel) text must recur in.
MIN_SUPPORT = 2
#: The bonuses and penalties of a candidate within a pair.
TRANSLATED = 0.3  # a word of it is a term-table translation of a word of the term
COGNATE = 0.3  # a word of it begins as a word of the term does (accents folded)
COGNATE_LETTERS = 5
EDGE_FUNCTION_WORD = 0.6  # per function word at its start or end
FUNCTION_ZIPF = 6.0  # (as `indexer.index.suggestions.FUNCTION_ZIPF`)
LENGTH_STEP = 0.12  # per word longer or shorter than the term
ZH_LONGER = 0.05  # per word of a Chinese candidate beyond the first
CONTENDER = 0.3  # of the best Dice of a pair: the candidates scored in full
PLACE_SLACK = 12  # words off where the term stands at which a candidate loses PLACE_WEIGHT/2
PLACE_WEIGHT = 0.15

Key = tuple[str, ...]


@dataclass
class Candidate:
    key: Key
    surface: str
    start: int
    end: int
    n: int  # words
    at: float = 0.0  # where it stands among its text's words, 0 (first) to 1 (last)
    size: int = 1  # the words of its text


@dataclass
class Rendering:
    """One rendering and the pairs that render the term so."""

    key: Key
    forms: Counter = field(default_factory=Counter)  # surface form -> pairs
    pairs: list[tuple[Pair, Candidate]] = field(default_factory=list)
    treaties: list[str] = field(default_factory=list)  # those that use it (`uses`)
    score: float = 0.0  # its pairs' scores added up (the last tie-break)

    @property
    def text(self) -> str:
        return self.forms.most_common(1)[0][0]

    @property
    def seen_in(self) -> list[str]:
        """The treaties with a pair rendered so."""
        return sorted({p.target.treaty for p, _c in self.pairs})


def candidates(text: str, lang: str) -> list[Candidate]:
    """Every run of 1 to MAX_WORDS words of `text` that crosses no punctuation."""
    longest = MAX_WORDS.get(lang, DEFAULT_MAX_WORDS)
    ws = words(text, lang)
    size = max(1, len(ws) - 1)
    out = []
    first = 0
    for run in runs(text, ws):
        for i in range(len(run)):
            for n in range(1, min(longest, len(run) - i) + 1):
                part = run[i:i + n]
                out.append(Candidate(tuple(w.term for w in part), text[part[0].start:part[-1].end],
                                     part[0].start, part[-1].end, n,
                                     (first + i + (n - 1) / 2) / size, len(ws)))
        first += len(run)
    return out


def _function_word(word: str, lang: str) -> bool:
    """A word as common as "de", "the", "och" (a single Han character in Chinese)."""
    if lang == "zh":
        return len(word) == 1
    from indexer.index.suggestions import general_zipf

    return word.isalpha() and general_zipf(word.lower(), (lang,)) >= FUNCTION_ZIPF


def _folded(word: str) -> str:
    from indexer.index.analysis import normalise_term

    return normalise_term(word, "en")


def keys(text: str, lang: str) -> set[Key]:
    """The keys of `candidates(text, lang)`, without making the candidates."""
    longest = MAX_WORDS.get(lang, DEFAULT_MAX_WORDS)
    out: set[Key] = set()
    for run in runs(text, words(text, lang)):
        terms = tuple(w.term for w in run)
        for i in range(len(terms)):
            for n in range(1, min(longest, len(terms) - i) + 1):
                out.add(terms[i:i + n])
    return out


class _Scorer:
    """The scores of candidates for one term and one pair of languages: the Dice of each
    candidate over the pairs of its treaty and over all the pairs (weighed by how many pairs the
    treaty has: each treaty may render a term its own way), times what a pair's own evidence
    adds."""

    def __init__(self, pairs: Sequence[Pair], background: dict[str, list[str]], target: str,
                 term_words: Sequence[Word], term_text: str, translations: set[str]) -> None:
        self.target = target
        self.term_n = len(term_words)
        source = pairs[0].source.lang if pairs else ""
        # the words a rendering is expected to have: as many as the term's, but a Chinese
        # word counts two characters (常设机构 is "permanent establishment")
        self.wanted_n = max(1, round(len(term_text.replace(" ", "")) / 2)) \
            if source == "zh" and target != "zh" else self.term_n
        self.translations = translations
        self._function: dict[str, bool] = {}
        self.term_function = all(_function_word(term_text[w.start:w.end], pairs[0].source.lang)
                                 for w in term_words) if pairs else False
        self.stems = {_folded(term_text[w.start:w.end])[:COGNATE_LETTERS]
                      for w in term_words if w.end - w.start >= COGNATE_LETTERS
                      and term_text[w.start:w.end].isalpha()}
        self.per_pair = [candidates(p.target.text, target) for p in pairs]
        held: dict[str, Counter] = defaultdict(Counter)
        n_pairs: Counter = Counter()
        seen: set[tuple[str, str]] = set()  # a target unit counts once, however many pairs
        for pair, cands in zip(pairs, self.per_pair, strict=True):
            unit = (pair.target.treaty, pair.target.eid)
            if unit in seen:
                continue
            seen.add(unit)
            held[pair.target.treaty].update({c.key for c in cands})
            n_pairs[pair.target.treaty] += 1
        wanted = set().union(*held.values()) if held else set()
        df: dict[str, Counter] = defaultdict(Counter)
        for tid, texts in background.items():
            for text in texts:
                df[tid].update(keys(text, target) & wanted)
        total_held = sum(held.values(), Counter())
        total_df = sum(df.values(), Counter())
        n_all = len(seen)
        self.held = held
        self.dice: dict[tuple[str, Key], float] = {}
        for tid, keys_held in held.items():
            for key, a in keys_held.items():
                own = 2 * a / (n_pairs[tid] + max(df[tid][key], a))
                every = 2 * total_held[key] / (n_all + max(total_df[key], total_held[key]))
                weight = n_pairs[tid] / (n_pairs[tid] + 1)  # a treaty of few pairs: less its own
                self.dice[tid, key] = weight * own + (1 - weight) * every
        self._folded: dict[str, str] = {}
        self._term_at: dict = {}

    def contenders(self, cands: list[Candidate], pair: Pair) -> list[Candidate]:
        """The candidates of a pair whose Dice is within CONTENDER of its best: what a
        pair's own evidence multiplies cannot lift the others past it."""
        tid = pair.target.treaty
        best = max((self.dice[tid, c.key] for c in cands), default=0.0)
        return [c for c in cands if self.dice[tid, c.key] >= CONTENDER * best]

    def held_in(self, treaty: str, key: Key) -> int:
        """How many pairs of `treaty` hold the candidate."""
        return self.held[treaty][key]

    def score(self, c: Candidate, pair: Pair) -> float:
        dice = self.dice[pair.target.treaty, c.key]
        if dice < MIN_SCORE / 2:  # (nothing a pair adds lifts it over MIN_SCORE)
            return 0.0
        bonus = 1.0
        if any(t in self.translations for t in c.key):
            bonus += TRANSLATED
        surface = c.surface.split()
        if c.n == 1 and not self.term_function and self._is_function(
                surface[0] if self.target != "zh" else c.key[0]):
            return 0.0  # "de", "i", "which": in every paragraph, never a term's rendering
        if self.stems and any(self._prefix(w) in self.stems for w in surface
                              if len(w) >= COGNATE_LETTERS):
            bonus += COGNATE
        if c.n > 1:
            edges = {surface[0], surface[-1]} if self.target != "zh" else {c.key[0], c.key[-1]}
            for w in edges:
                if self._is_function(w):
                    bonus *= EDGE_FUNCTION_WORD
        # (a Chinese term is often two of the segmenter's words, 特许权 + 使用费: there the
        # longer of two candidates alike wins)
        length = 1.0 + ZH_LONGER * (c.n - 1) if self.target == "zh" else \
            1.0 / (1.0 + LENGTH_STEP * abs(c.n - self.wanted_n))
        return dice * bonus * length * self._place(pair, c)

    def _place(self, pair: Pair, c: Candidate) -> float:
        """How near where the term stands in its unit the candidate stands in the
        counterpart, in words (texts of parallel versions keep their order): 1 where it
        stands, 1/2 at PLACE_SLACK words off, less further."""
        where = self._term_at.get(pair.source)
        if where is None:
            ws = words(pair.source.text, pair.source.lang)
            i = next((k for k, w in enumerate(ws) if w.end > pair.source.start), 0)
            where = self._term_at[pair.source] = (i + (self.term_n - 1) / 2) / max(
                1, len(ws) - 1), len(ws)
        at, size = where
        off = abs(at - c.at) * (size + c.size) / 2
        return 1.0 - PLACE_WEIGHT + PLACE_WEIGHT / (1.0 + (off / PLACE_SLACK) ** 2)

    def _prefix(self, word: str) -> str:
        hit = self._folded.get(word)
        if hit is None:
            hit = self._folded[word] = _folded(word)[:COGNATE_LETTERS]
        return hit

    def _is_function(self, word: str) -> bool:
        hit = self._function.get(word)
        if hit is None:
            hit = self._function[word] = _function_word(word, self.target)
        return hit


def renderings(pairs: Sequence[Pair], background: dict[str, list[str]], target: str,
               term_words: Sequence[Word], term_text: str, translations: set[str]
               ) -> tuple[list[Rendering], list[Pair]]:
    """The renderings of the term in `pairs` (best supported first: by treaties, then pairs)
    and the pairs where none stood out. `background`: per treaty, texts of the target
    language that the candidates' spread is counted in; `translations`: the target terms
    the term table gives for the term's words."""
    scorer = _Scorer(pairs, background, target, term_words, term_text, translations)
    found: dict[Key, Rendering] = {}
    unmatched: list[Pair] = []
    comparable = bool(pairs) and pairs[0].method == "comparable"
    for pair, cands in zip(pairs, scorer.per_pair, strict=True):
        cands = [c for c in cands if not all(t.isdigit() for t in c.key)]  # no bare numbers
        if comparable:  # another treaty's paragraph: a rendering must recur
            cands = [c for c in cands if scorer.held_in(pair.target.treaty, c.key) >= MIN_SUPPORT]
        cands = scorer.contenders(cands, pair)
        scored = [(scorer.score(c, pair), c.n, -c.start, c) for c in cands]
        best = max(scored, key=lambda x: x[:3], default=None)
        if best is None or best[0] < MIN_SCORE:
            unmatched.append(pair)
            continue
        cand = best[3]
        r = found.setdefault(cand.key, Rendering(cand.key))
        r.forms[cand.surface.lower() if target != "zh" else cand.surface] += 1
        r.pairs.append((pair, cand))
        r.score += best[0]
    merged = merge_forms(list(found.values()))
    for r, treaties in zip(merged, uses(merged), strict=True):
        r.treaties = treaties
    ranked = sorted(merged, key=lambda r: (-len(r.treaties), -len(r.pairs), -r.score, r.key))
    return ranked, unmatched


#: A treaty uses a rendering when it renders the term so in this share of its pairs at
#: least (or more often than any other way): a stray pair is not a treaty's usage.
USE_SHARE = 0.25


def uses(found: Sequence[Rendering]) -> list[list[str]]:
    """Per rendering (in the order of `found`), the treaties that use it."""
    per_treaty: dict[str, Counter] = defaultdict(Counter)
    for k, r in enumerate(found):
        for pair, _c in r.pairs:
            per_treaty[pair.target.treaty][k] += 1
    out: list[list[str]] = [[] for _r in found]
    for tid, counts in sorted(per_treaty.items()):
        total = sum(counts.values())
        top = counts.most_common(1)[0][1]
        for k, n in counts.items():
            if n >= USE_SHARE * total or n == top:
                out[k].append(tid)
    return out


#: Two words are forms of one when the shorter is this much of their common beginning
#: (folded): "driftställe" / "driftstället", "royalty" / "royalties", "ränta" / "räntan".
SAME_FORM = 0.8
SAME_FORM_LETTERS = 4


def _same_word(a: str, b: str) -> bool:
    if a == b:
        return True
    a, b = _folded(a), _folded(b)
    common = 0
    for x, y in zip(a, b):
        if x != y:
            break
        common += 1
    return common >= SAME_FORM_LETTERS and common >= SAME_FORM * min(len(a), len(b))


def _same_rendering(a: str, b: str) -> bool:
    wa, wb = a.split(), b.split()
    return len(wa) == len(wb) and all(_same_word(x, y) for x, y in zip(wa, wb, strict=True))


def merge_forms(found: list[Rendering]) -> list[Rendering]:
    """Renderings that are forms of one another (word by word, `_same_word`: inflections
    the stemmer leaves apart) as one, under the key of the most used."""
    out: list[Rendering] = []
    for r in sorted(found, key=lambda r: -len(r.pairs)):
        into = next((o for o in out if _same_rendering(o.text, r.text)), None)
        if into is None:
            out.append(r)
        else:
            into.forms.update(r.forms)
            into.pairs.extend(r.pairs)
            into.score += r.score
    return out


def by_treaty(pairs: Sequence[Pair]) -> dict[str, list[Pair]]:
    out: dict[str, list[Pair]] = defaultdict(list)
    for p in pairs:
        out[p.source.treaty].append(p)
    return out
