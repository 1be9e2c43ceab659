"""What a ruling refers to: cards it names (in any case form), rules it cites, English names it quotes."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass

from ingest.entries import EnglishName
from ingest.glossary import Glossary, fold_name
from ingest.morphology import lemma, lemmas, words

_RULE_NUMBER = r"\d{3}(?:\.\d+[a-z]?)?(?:\s*[–-]\s*[a-z](?![a-z]))?"
_CITATION_RE = re.compile(
    rf"(?:правил[а-яё]*|rules?|см\.|see)\s+(?P<list>{_RULE_NUMBER}(?:\s*(?:,|и|and|or|или)\s*{_RULE_NUMBER})*)",
    re.IGNORECASE,
)
_NUMBER_RE = re.compile(r"(?P<base>\d{3}(?:\.\d+)?)(?P<letter>[a-z])?(?:\s*[–-]\s*(?P<to>[a-z]))?")
_CONNECTORS = r"(?:\s(?:о|с|из|на|в|и|для|под|над|без|от|of|the|and|to|in|from)\s|\s|-)"
_RU_NAME = rf"[А-ЯЁ][а-яё]+(?:{_CONNECTORS}[А-ЯЁ][а-яё]+){{0,4}}"
_EN_NAME = rf"[A-Z][A-Za-z']+(?:{_CONNECTORS}[A-Z][A-Za-z']+){{0,5}}"
_RU_EN_RE = re.compile(rf"(?P<ru>{_RU_NAME})\s*\((?P<en>{_EN_NAME})\)")
_EN_RU_RE = re.compile(rf"(?P<en>{_EN_NAME})\s*\((?P<ru>{_RU_NAME})\)")


def rules_cited(text: str) -> tuple[str, ...]:
    """«см. правило 409.1b», «правила 409.1b и 409.1f–h» → ("409.1b", "409.1f", "409.1g", "409.1h")."""
    found: list[str] = []
    for citation in _CITATION_RE.finditer(text):
        for number in _NUMBER_RE.finditer(citation.group("list")):
            base, letter, to = number.group("base"), number.group("letter"), number.group("to")
            if letter and to:
                found.extend(f"{base}{chr(code)}" for code in range(ord(letter), ord(to) + 1))
            else:
                found.append(f"{base}{letter or ''}")
    return tuple(dict.fromkeys(found))


_GENERIC_LEADS = {"карта", "карты", "карту", "картой", "заклинание", "заклинания", "например", "выпуск", "выпуска",
                  "существо", "чары", "эффект", "если", "когда", "как"}


def _trim_generic(name: str) -> str:
    """«Карта Искусственная Эволюция» → «Искусственная Эволюция»: drop leading common words."""
    parts = name.split()
    while len(parts) > 1 and parts[0].lower() in _GENERIC_LEADS:
        parts = parts[1:]
    return " ".join(parts)


def english_names(text: str) -> tuple[EnglishName, ...]:
    """Names quoted in the other language: «Смирить (Humble)», «Stifle (Удушье)»."""
    pairs = [EnglishName(ru=_trim_generic(m.group("ru")), en=m.group("en")) for m in _RU_EN_RE.finditer(text)]
    pairs += [EnglishName(ru=m.group("ru"), en=m.group("en")) for m in _EN_RU_RE.finditer(text)]
    return tuple(dict.fromkeys(pairs))


@dataclass(frozen=True)
class _Name:
    canonical: str  # English name where known, else as printed
    keys: tuple[frozenset[str], ...]  # acceptable lemmas (Russian) or folded words (English), per word


class CardMentionFinder:
    """Finds card names in running text, whatever their grammatical case («Шок», «Шока», «Шоком»).

    A name matches where each of its words shares a normal form with the text's word at that position,
    and its first word is capitalised in the text (Russian card names are). One-word names must not
    open a sentence, where any word is capitalised; basic land names are never mentions.
    """

    def __init__(self, names: Iterable[tuple[str, str]], glossary: Glossary) -> None:
        self._by_first: dict[str, list[_Name]] = defaultdict(list)
        for printed, canonical in names:
            folded = fold_name(printed)
            if not folded or folded in glossary.basic_lands:
                continue
            tokens = [w for _, _, w in words(printed)]
            if not tokens:
                continue
            keys = tuple(frozenset({lemma(t), *lemmas(t)}) for t in tokens)
            entry = _Name(canonical, keys)
            for first in keys[0]:
                self._by_first[first].append(entry)
        for candidates in self._by_first.values():
            candidates.sort(key=lambda n: -len(n.keys))  # longest name first

    @classmethod
    def from_glossary(cls, glossary: Glossary, extra: Iterable[tuple[str, str]] = ()) -> CardMentionFinder:
        names: list[tuple[str, str]] = []
        for en, ru in glossary.card_pairs():
            names += [(ru, en), (en, en)]
        names.extend(extra)
        return cls(names, glossary)

    def find(self, text: str) -> tuple[str, ...]:
        tokens = words(text)
        token_lemmas = [frozenset(lemmas(w)) for _, _, w in tokens]
        found: list[str] = []
        index = 0
        while index < len(tokens):
            start, _, word = tokens[index]
            match = None
            if word[:1].isupper():
                for first in token_lemmas[index]:
                    for name in self._by_first.get(first, ()):
                        if self._matches(name, token_lemmas, index) and (
                            len(name.keys) > 1
                            or not (_opens_sentence(text, start) or _continues_name(tokens, index))
                        ):
                            match = name
                            break
                    if match:
                        break
            if match:
                found.append(match.canonical)
                index += len(match.keys)
            else:
                index += 1
        return tuple(dict.fromkeys(found))

    @staticmethod
    def _matches(name: _Name, token_lemmas: list[frozenset[str]], index: int) -> bool:
        if index + len(name.keys) > len(token_lemmas):
            return False
        return all(key & token_lemmas[index + offset] for offset, key in enumerate(name.keys))


def _continues_name(tokens: list[tuple[int, int, str]], index: int) -> bool:
    """«Возвышение Мрака»: a one-word match glued to another capitalised word is part of a longer name."""
    return index + 1 < len(tokens) and tokens[index + 1][2][:1].isupper()


def _opens_sentence(text: str, start: int) -> bool:
    before = text[:start].rstrip(" «\"“(")
    return not before or before.endswith((".", "!", "?", ":", "\n", "—", "*"))
