"""What a treaty's text says about its own articles: "Article 27 (Exchange of Information)"
names the topic of article 27, "paragraph 8 of Article 11" says article 11 has at least 8
paragraphs."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from indexer.segment.numerals import article_references, paragraph_references, parse_label
from indexer.topics import classify_title


@dataclass(frozen=True)
class References:
    """What the text says about its own articles."""

    topic: dict[int, str]  # article number -> topic named in a parenthesised title
    min_paras: dict[int, int]  # article number -> highest paragraph number cited

    def cites(self, number: int | None) -> bool:
        """Does the text cite article `number` (can `scores.ref_score` of it be other than 0)?"""
        return number is not None and (number in self.topic or bool(self.min_paras.get(number)))


def find_references(texts: Sequence[str]) -> References:
    """Collect "Article 27 (Exchange of Information)" and "paragraph 8 of Article 11"."""
    topic: dict[int, str] = {}
    min_paras: dict[int, int] = {}
    for text in texts:
        # both patterns need an article word ("Art…", "artigo", "artikel") or "第"
        if not ("Art" in text or "第" in text or "artigo" in text or "artikel" in text):
            continue
        for m in article_references(text):
            paren = m.group("paren")
            key = classify_title(paren) if paren else None
            if not key:
                continue  # only a reference with a topic in its parenthesis counts
            label = m.group("label") or m.group("zlabel")
            n = parse_label(label) if label else None
            if n:
                topic.setdefault(n, key)
        for m in paragraph_references(text):
            para = parse_label(m.group("para") or m.group("zpara") or "")
            if not para or para >= 40:
                continue
            art = parse_label(m.group("art") or m.group("zart") or "")
            if art:
                min_paras[art] = max(min_paras.get(art, 0), para)
    return References(topic, min_paras)
