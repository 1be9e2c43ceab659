"""The in-browser search index: shipped as a script (``search-index.js``) so it loads from ``file://``.

Why precompute so much: the browser has no morphology, so the export does it. Every corpus word is
indexed under its lemmas (pymorphy3), and for every lemma the export lists all its inflected forms
(pymorphy3 lexemes), so the browser maps «мироходцам» to «мироходец» with one table lookup. The
bilingual glossary is compiled into term IDs too: a query span matching a glossary term is widened to
every other wording of the same concept (persist → Упорство).

Layout of ``window.KB_SEARCH_INDEX`` (compact arrays, sorted, deterministic)::

    v           format version
    tokens      the token regular expression (``text.TOKEN_SOURCE``), so Python and JS cannot drift
    stops       stop words (dropped from queries unless part of a glossary term)
    docs        [[url, kind, where, text, lang, status, length, twin], ...]   (url site-root relative; twin:
                the doc number of the same entry in the other language's document, -1 if none — the
                browser shows an aligned pair once, as ``kb search`` does)
    terms       term strings, sorted
    post        per term: flat [doc delta, weighted tf, ...]            (context fields weigh ×3)
    forms       per term: space-separated inflected forms that map to it (besides the term itself)
    gloss       per concept: [[match positions, search positions], ...] as term IDs
"""

from __future__ import annotations

import json
from collections import Counter, defaultdict
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache

from ingest.entries import Card, Rule, Ruling
from ingest.morphology import analyzer, fold
from kb import paths
from kb.export import urls
from kb.export.pages import SiteModel
from kb.export.text import STOP_WORDS, TOKEN_SOURCE, Token, is_cyrillic, token_terms, tokenize, word_terms
from kb.search import glossary as search_glossary

FORMAT_VERSION = 2
CONTEXT_WEIGHT = 3


@dataclass
class IndexDoc:
    url: str
    kind: str
    where: str
    text: str
    context: str
    lang: str
    status: str
    id: str = ""
    twin: str = ""  # the ID of its twin in the other language's document (ingest.bilingual), "" if none


def _twin_of(entry: Card | Rule | Ruling) -> str:
    """The aligned entry when it is in another document (an inner pair shares its page, as in ``kb search``)."""
    twin = entry.aligned or ""
    return twin if twin and twin.split("/")[0] != entry.document_id else ""


@lru_cache(maxsize=200_000)
def _lexemes(key: str) -> tuple[tuple[str, tuple[str, ...]], ...]:
    """(lemma, its inflected forms) for every reading of a folded Cyrillic word."""
    out: dict[str, set[str]] = {}
    for parse in analyzer().parse(key):
        normal = fold(parse.normal_form)
        forms = out.setdefault(normal, {key})
        stack = parse.methods_stack
        # Forms of one word share a paradigm (pymorphy3's para_id): compute its lexeme once. The key names
        # the paradigm exactly, so the cache never depends on which form of a word was seen first.
        paradigm = (normal, str(stack[0][2]) if len(stack[0]) > 2 else "", *(type(m[0]).__name__ for m in stack))
        if paradigm not in _PARADIGMS:
            _PARADIGMS[paradigm] = frozenset(fold(form.word) for form in parse.lexeme)
        forms.update(_PARADIGMS[paradigm])
    return tuple((normal, tuple(sorted(forms))) for normal, forms in out.items())


_PARADIGMS: dict[tuple[str, ...], frozenset[str]] = {}


def index_docs(site: SiteModel) -> list[IndexDoc]:
    """What the browser can find: rulings and notes, rule excerpts, cards — with a link to each."""
    docs: list[IndexDoc] = []
    for view in site.rulings.values():
        ruling: Ruling = view.ruling
        section = view.section
        context = " ".join(
            filter(None, [section.mechanic_ru, section.mechanic_en, section.heading, *(c.label for c in view.cards)])
        )
        where = f"{view.document.set_code} · {section.mechanic_ru or section.heading}"
        status = view.verdict.status if view.show_badge else ""  # as on the pages: notes only once linked
        docs.append(IndexDoc(view.permalink, ruling.kind, where, ruling.text, context, ruling.lang, status,
                             ruling.id, _twin_of(ruling)))
    for pair in site.rule_pairs:
        for rule in pair.rules:
            assert isinstance(rule, Rule)
            topic = (pair.section.mechanic_ru or pair.section.heading) if pair.section else ""
            where = " · ".join(filter(None, [pair.document.set_code, topic, f"правило {rule.number}"]))
            context = pair.section.heading if pair.section else ""
            docs.append(IndexDoc(pair.page, "rule", where, f"{rule.number} {rule.text}", context, rule.lang, "",
                                 rule.id, _twin_of(rule)))
    for card_view in site.cards:
        card: Card = card_view.card
        text = "\n".join(filter(None, [card.mana_cost or "", card_view.type_line, *card.rules_text]))
        context = " ".join(filter(None, [card.name, card.name_en]))
        where = f"{card.document_id.upper()} · карта {card.name}"
        docs.append(IndexDoc(card_view.page, "card", where, text, context, card.lang, "", card.id, _twin_of(card)))
    return docs


def _glossary_concepts() -> list[list[tuple[str, str]]]:
    """The search glossary's concepts as lists of (text, lang): the browser applies the same glossary."""
    glossary = search_glossary.load(paths.glossary_dir())
    return [
        [(term.text, term.lang) for term in terms] for _, terms in sorted(glossary.concepts.items()) if len(terms) > 1
    ]


class IndexBuilder:
    """Accumulates terms, postings and word forms; ``payload()`` returns the compact JSON structure."""

    def __init__(self) -> None:
        self.postings: dict[str, dict[int, int]] = defaultdict(dict)
        self.forms: dict[str, set[str]] = defaultdict(set)
        self.seen_words: set[str] = set()
        self.docs: list[list[object]] = []
        self.ids: list[str] = []
        self.twins: list[str] = []

    def _learn_word(self, key: str) -> None:
        """Record the forms through which the browser will recognise this word's terms."""
        if key in self.seen_words:
            return
        self.seen_words.add(key)
        if is_cyrillic(key):
            for normal, forms in _lexemes(key):
                self.forms[normal].update(forms)
        else:
            for term in word_terms(key):
                self.forms[term].add(key)

    def _terms(self, token: Token) -> tuple[str, ...]:
        if token.kind == "word":
            self._learn_word(token.key)
        return token_terms(token)

    def add(self, doc: IndexDoc) -> None:
        number = len(self.docs)
        counts: Counter[str] = Counter()
        length = 0
        for weight, text in ((1, doc.text), (CONTEXT_WEIGHT, doc.context)):
            for token in tokenize(text):
                if token.stop:
                    continue
                length += weight == 1
                for term in self._terms(token):
                    counts[term] += weight
        for term, tf in counts.items():
            self.postings[term][number] = tf
        self.docs.append([doc.url, doc.kind, doc.where, doc.text, doc.lang, doc.status, length])
        self.ids.append(doc.id)
        self.twins.append(doc.twin)

    def add_glossary(self, concepts: Iterable[list[tuple[str, str]]]) -> list[list[list[list[list[str]]]]]:
        """Keep the concepts that can find something here; return them as term positions."""
        kept = []
        for concept in concepts:
            analysed = []
            for text, _lang in concept:
                tokens = tokenize(text)
                match = [list(token_terms(t, for_index=False)) for t in tokens]
                search = [list(token_terms(t, for_index=False)) for t in tokens if not t.stop]
                if match and search:
                    analysed.append((tokens, [match, search]))
            findable = any(all(any(term in self.postings for term in pos) for pos in s[1]) for _, s in analysed)
            if len(analysed) < 2 or not findable:
                continue
            for tokens, _ in analysed:
                for token in tokens:
                    if token.kind == "word":
                        self._learn_word(token.key)
            kept.append([positions for _, positions in analysed])
        return kept

    def payload(self, glossary: list[list[list[list[list[str]]]]]) -> dict[str, object]:
        vocabulary = set(self.postings) | set(self.forms)
        for concept in glossary:
            for wording in concept:
                for positions in wording:
                    for position in positions:
                        vocabulary.update(position)
        terms = sorted(vocabulary)
        term_id = {term: i for i, term in enumerate(terms)}
        post = []
        for term in terms:
            flat: list[int] = []
            previous = 0
            for doc, tf in sorted(self.postings.get(term, {}).items()):
                flat += [doc - previous, tf]
                previous = doc
            post.append(flat)
        forms = [" ".join(sorted(self.forms.get(term, set()) - {term})) for term in terms]
        gloss = [
            [[[[term_id[t] for t in pos] for pos in positions] for positions in wording] for wording in concept]
            for concept in glossary
        ]
        number = {doc_id: n for n, doc_id in enumerate(self.ids) if doc_id}
        docs = [[*row, number.get(twin, -1) if twin else -1] for row, twin in zip(self.docs, self.twins, strict=True)]
        return {
            "v": FORMAT_VERSION,
            "tokens": TOKEN_SOURCE,
            "stops": sorted(STOP_WORDS),
            "docs": docs,
            "terms": terms,
            "post": post,
            "forms": forms,
            "gloss": gloss,
        }


def build_payload(docs: Iterable[IndexDoc], concepts: list[list[tuple[str, str]]] | None = None) -> dict[str, object]:
    builder = IndexBuilder()
    for doc in docs:
        builder.add(doc)
    glossary = builder.add_glossary(_glossary_concepts() if concepts is None else concepts)
    return builder.payload(glossary)


def render_script(payload: dict[str, object]) -> str:
    """The index as a JavaScript file: one assignment, compact JSON, stable key order."""
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    return f"window.KB_SEARCH_INDEX={body};\n"


def build_script(site: SiteModel) -> str:
    return render_script(build_payload(index_docs(site)))


__all__ = ["IndexDoc", "build_payload", "build_script", "index_docs", "render_script", "urls"]
