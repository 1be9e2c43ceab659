"""Full-text search over the knowledge base: Russian morphology, English stemming, RU↔EN glossary.

Modules (imported lazily by the CLI so ``kb search`` starts fast):

- ``analysis``      — our tokenizer/lemmatizer and the whoosh analyzer built on it (pickled into the index);
- ``glossary``      — RU↔EN terms, old/new wording, slang and card names, used to expand queries;
- ``documents``     — knowledge-base entries → engine-neutral index documents (text, topic, cards, rules);
- ``plan``          — the engine-neutral query plan (alternatives, phrases, prefixes, boolean structure);
- ``query``         — the query language (phrases, AND/OR/NOT, -/+word, prefix*) and typo correction → plan;
- ``engine``        — the engine interface (build, search, lexicon) and the engine registry;
- ``whoosh_engine`` — the whoosh implementation (BM25F with field weights, kind prior, large-index mode);
- ``whoosh_dismax`` — a working DisjunctionMax for whoosh-reloaded 2.7.5;
- ``highlight``     — matched words marked as they stand in the text, and snippets;
- ``index``         — lifecycle: fingerprint, build on first use, rebuild on change, atomic generation swap;
- ``service``       — the one call the CLI makes: query text + filters → ranked, highlighted hits;
- ``relevance``     — the development query set, Recall@k / MRR and the stock-whoosh baselines.
"""
