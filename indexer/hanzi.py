"""Simplified and Traditional Chinese in the pipeline's own patterns.

The Chinese patterns (article, chapter and paragraph headings, the formulas around a treaty's
articles, page marks) are written once, in Simplified characters; `either_script` makes a
pattern match the Traditional forms as well, character by character, from the one table
`TRADITIONAL` of the characters those patterns are made of. `tests/test_chinese_forms.py`
checks the table against OpenCC's Simplified-to-Traditional conversion, and that every
character of the patterns that conversion changes is in it.

Tables too large for that (the topic keywords) read text folded to Simplified instead:
`simplified` (OpenCC ``t2s``, loaded lazily; also the index's Chinese analyser's).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterator
from functools import cache

#: Simplified character -> its Traditional form(s), for the characters of the Chinese patterns
#: (structure: 条 项 节 页; formulas: 协定 议定书 公约 签订 达成协议 关于; numerals: 两). A
#: character with two forms lists both: 签 is 簽 in 簽訂 and 籤 on its own.
TRADITIONAL: dict[str, str] = {
    "条": "條", "项": "項", "节": "節", "页": "頁", "书": "書", "议": "議", "协": "協",
    "约": "約", "签": "簽籤", "订": "訂", "于": "於", "达": "達", "关": "關", "两": "兩",
}  # fmt: skip


def either_script(pattern: str) -> str:
    """The regex `pattern` (written with Simplified characters) matching their Traditional
    forms as well: each character of `TRADITIONAL` becomes a class of its forms ("条" ->
    "[条條]"), or, inside a class already, adds its forms to it ("[条款]" -> "[条條款]").
    Escaped characters are left as they are."""
    out: list[str] = []
    in_class = escaped = False
    for k, c in enumerate(pattern):
        if escaped:
            escaped = False
            out.append(c)
            continue
        if c == "\\":
            escaped = True
        elif c == "[" and not in_class:
            in_class = True
        elif c == "]" and in_class and not _opens_class(pattern, k):
            in_class = False
        forms = TRADITIONAL.get(c)
        if forms is None or forms == c:
            out.append(c)
        else:
            out.append(c + forms if in_class else f"[{c}{forms}]")
    return "".join(out)


def _opens_class(pattern: str, k: int) -> bool:
    """Is the "]" at `k` the first character of a class ("[]" or "[^]"), so a literal?"""
    before = pattern[:k]
    return before.endswith("[") and not before.endswith("\\[") or before.endswith("[^")


def traditional_forms(chars: str) -> str:
    """`chars` and the Traditional forms of those in `TRADITIONAL` (for character sets)."""
    return chars + "".join(TRADITIONAL[c] for c in chars if TRADITIONAL.get(c, c) != c)


# --- Traditional folded to Simplified ------------------------------------------------------

@cache
def t2s() -> Callable[[str], str]:
    """OpenCC's Traditional-to-Simplified conversion."""
    from opencc import OpenCC  # lazy

    return OpenCC("t2s").convert


@cache
def t2s_markers() -> frozenset[str] | None:
    """One character of every entry of the t2s dictionaries that converts to something else
    (a character that itself converts, if the entry has one): text with none of them holds
    no such entry, so it is its own conversion (most of a Simplified corpus). None when the
    dictionaries are not where the package's t2s configuration names them: then every text
    is converted."""
    try:
        changing = [key for key, value in _t2s_entries() if key != value]
    except (OSError, KeyError, TypeError, ValueError):  # pragma: no cover - another layout
        return None
    singles = {key for key in changing if len(key) == 1}
    return frozenset(next((c for c in key if c in singles), key[0]) for key in changing)


def _t2s_entries() -> Iterator[tuple[str, str]]:
    """(key, value) of every entry of the dictionaries OpenCC's t2s conversion chain reads:
    the package's data files (``config/t2s.json`` names them in ``dictionary/``, each line
    ``key<TAB>value``), read as the converter reads them (a later line of a file replaces an
    earlier one with the same key)."""
    from importlib.resources import files

    root = files("opencc")
    config = json.loads((root / "config" / "t2s.json").read_text("utf-8"))
    for chain in config["conversion_chain"]:
        for name in _dictionary_files(chain["dict"]):
            table: dict[str, str] = {}
            with (root / "dictionary" / name).open(encoding="utf-8") as fh:
                for line in fh:
                    key, value = line.strip().split("\t")
                    table[key] = value
            yield from table.items()


def _dictionary_files(spec: dict) -> Iterator[str]:
    """The dictionary files a conversion step of an OpenCC configuration names, in order."""
    if spec.get("type") == "group":
        for sub in spec["dicts"]:
            yield from _dictionary_files(sub)
    else:
        yield spec["file"]


#: The Han ranges (CJK Extension A, Unified Ideographs, Compatibility Ideographs).
_HAN = re.compile("[\u3400-\u9fff\uf900-\ufaff]")


def simplified(text: str) -> str:
    """`text` with Traditional characters in their Simplified forms (OpenCC ``t2s``); a text
    with no character the conversion changes (`t2s_markers`) is returned as it is."""
    if text.isascii() or _HAN.search(text) is None:
        return text
    marks = t2s_markers()
    if marks is not None and marks.isdisjoint(text):
        return text
    return t2s()(text)
