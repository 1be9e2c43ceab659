"""The in-browser index: the CLI's analysis precomputed, glossary compiled, shards small, regex shared."""

from __future__ import annotations

import gzip
import json
import re
from pathlib import Path

from kb.export import search_index
from kb.export.search_index import read_shard, shard_hash
from kb.search import analysis, relevance

BUDGET = 1024 * 1024  # home page plus the search script and its meta shard, gzip-compressed


def _search(exported: Path) -> Path:
    return exported / "static" / "search"


def _meta(exported: Path) -> dict:
    meta: dict = read_shard(_search(exported), "meta")
    return meta


def _form_terms(exported: Path, form: str) -> list[str]:
    shard = read_shard(_search(exported), f"f/{shard_hash(form) % _meta(exported)['shards']['f']}")
    return list(shard.get(form, []))


def test_inflected_forms_map_to_the_cli_lemmas(exported: Path) -> None:
    for form, lemma in (("мироходцам", "мироходец"), ("мироходцы", "мироходец"), ("жетонами", "жетон")):
        assert lemma in _form_terms(exported, form)
        assert _form_terms(exported, form) == list(analysis.word_terms(form))  # exactly what kb search uses


def test_glossary_links_english_persist_to_russian_persist(exported: Path) -> None:
    meta = _meta(exported)
    shard = read_shard(_search(exported), f"g/{shard_hash('persist') % meta['shards']['g']}")
    concepts = [shard["concepts"][c] for c, _ in shard["first"]["persist"]]
    assert any([["упорство"]] in [w[3] for w in c["w"]] for c in concepts)


def test_token_regex_is_the_analyzers(exported: Path) -> None:
    """The browser's regex (JavaScript syntax) splits text exactly as kb.search.analysis does."""
    assert _meta(exported)["tokens"] == search_index.TOKEN_SOURCE
    js = re.compile(search_index.TOKEN_SOURCE)
    texts = [q.query for q in relevance.load_dev_set()] + ["{2/B} -1/-1 702.36d +1 -4 мироходцам Ojutai’s X/X"]
    for text in texts:
        ours = [(m.start(), m.end(), search_index.TOKEN_KINDS[m.lastindex - 1]) for m in js.finditer(text)]
        assert ours == [(t.start, t.end, t.kind) for t in analysis.tokenize(text)], text


def test_postings_round_trip() -> None:
    values = [0, 1, 31, 32, 1023, 1024, 10**6, 7]
    assert search_index.decode_varint(search_index._varint(values)) == values


def test_shards_stay_small(exported: Path) -> None:
    sizes = {p.relative_to(_search(exported)).as_posix(): p.stat().st_size for p in _search(exported).rglob("*.js")}
    assert {name.split("/")[0] for name in sizes} >= {"meta.js", "t", "f", "g", "l", "d"}
    small = {n: s for n, s in sizes.items() if not n.startswith("p/")}
    assert max(small.values()) < 64 * 1024, max(small.items(), key=lambda kv: kv[1])


def test_home_page_plus_search_fits_the_budget(exported: Path) -> None:
    files = ["index.html", "search.html", "static/site.css", "static/search.js", "static/search/meta.js"]
    size = sum(len(gzip.compress((exported / f).read_bytes(), 9)) for f in files)
    assert size < BUDGET, size


def test_every_document_page_row_is_json(exported: Path) -> None:
    meta = _meta(exported)
    rows = [row for n in range(-(-meta["n"] // meta["shards"]["page"]))
            for row in read_shard(_search(exported), f"d/{n}")]
    assert len(rows) == meta["n"]
    assert all(row[0] and row[1] in ("ruling", "note", "rule", "card") for row in rows)
    json.dumps(rows)


def test_a_posting_list_encoded_as_it_grows_decodes_to_its_postings() -> None:
    """``_Postings`` (delta-coded while documents are added) read back as ``search.js`` reads it, every case of
    the coding: a first document 0, large deltas, tf 1, 2, 3 and more, length bytes of one and two digits."""
    postings = [(0, 1, 7), (3, 2, 45), (4, 3, 200), (2200, 1, 0), (2200 + 46**3, 5, 255), (10**7, 100, 12),
                (10**7 + 14, 2, 30)]
    grown = search_index._Postings()
    for posting in postings:
        grown.add_scored(*posting)
    assert search_index.decode_postings(grown.text()) == postings
    assert grown.count == len(postings)
    context = search_index._Postings()
    for doc in (0, 5, 5000, 10**6):
        context.add(doc)
    assert search_index.decode_postings(context.text(), scored=False) == [(0,), (5,), (5000,), (10**6,)]
    assert context.text() == search_index._varint([0, 5, 4995, 10**6 - 5000])


def test_common_postings_take_two_characters() -> None:
    """A long list's usual posting (small delta, tf 1 or 2, a short field) is two digits, not three."""
    grown = search_index._Postings()
    for doc in range(1, 1001):
        grown.add_scored(doc * 5, 1 + doc % 2, 30)
    assert len(grown.text()) == 2 * 1000


def test_rows_kept_in_a_file_come_back_as_their_json_with_the_twins_numbers() -> None:
    """The page shards written from the spilled rows are the JSON of the rows, twin slot filled at the end."""
    from kb.search.glossary import Glossary

    builder = search_index.IndexBuilder(Glossary())  # its row store alone
    rows = [[f"r/{i}.html", "ruling", "SHM · \t«Упорство»\n", "текст \"в кавычках\" \\ " * i, "ru", "", 0, -1, i,
             ["murderous redcap"] if i % 2 else [], i == 3] for i in range(11)]
    twins = {2: 9, 9: 2}
    for i, row in enumerate(rows):
        builder.count += 1
        builder.ids[f"id{i}"] = i
        builder.twins.append(f"id{twins[i]}" if i in twins else "")
        builder.rows.write(search_index._row_halves(row))
    pages = dict(builder._pages())
    for i in twins:
        rows[i][7] = twins[i]
    size = search_index.PAGE_SIZE
    expected = {f"d/{n}.js": search_index._script(f"d/{n}", rows[n * size:(n + 1) * size]) for n in range(2)}
    assert pages == expected

