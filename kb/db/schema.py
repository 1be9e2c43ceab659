"""The SQLite schema of ``build/kb.sqlite``: tables, indexes and the views a person queries.

Every entry is one row of ``entries`` with the fields people filter on as columns and the whole entry as
``json`` (what the code decodes, so the columns never have to carry every field). Links between entries
(``same_as``, the cards a ruling mentions, the rules it cites, the translation) are rows of ``links``,
indexed both ways, so ``kb show`` finds what points at an entry without reading the others.
``docs/database.md`` describes each table and view.
"""

from __future__ import annotations

FORMAT = "mtg-rulings-kb-sqlite"
SCHEMA_VERSION = 1

TABLES = """
CREATE TABLE IF NOT EXISTS meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS entries (
    id           TEXT PRIMARY KEY,
    position     INTEGER NOT NULL,
    type         TEXT NOT NULL,
    kind         TEXT,
    document_id  TEXT NOT NULL,
    section_id   TEXT,
    lang         TEXT,
    date         TEXT,
    number       TEXT,
    name         TEXT,
    name_en      TEXT,
    name_ru      TEXT,
    heading      TEXT,
    title        TEXT,
    text         TEXT,
    cards        TEXT,
    content_hash TEXT,
    digest       TEXT NOT NULL,
    json         TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS entries_position ON entries(position);
CREATE INDEX IF NOT EXISTS entries_document ON entries(document_id, type);
CREATE INDEX IF NOT EXISTS entries_section ON entries(section_id);
CREATE INDEX IF NOT EXISTS entries_type_number ON entries(type, number);
CREATE INDEX IF NOT EXISTS entries_type_position ON entries(type, position, id);
CREATE TABLE IF NOT EXISTS links (
    entry_id TEXT NOT NULL,
    relation TEXT NOT NULL,
    position INTEGER NOT NULL,
    target   TEXT NOT NULL,
    PRIMARY KEY (entry_id, relation, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS links_target ON links(relation, target);
CREATE TABLE IF NOT EXISTS card_names (
    name    TEXT NOT NULL,
    card_id TEXT NOT NULL,
    PRIMARY KEY (name, card_id)
) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS documents (
    id            TEXT PRIMARY KEY,
    position      INTEGER NOT NULL,
    sections      INTEGER NOT NULL,
    cards         INTEGER NOT NULL,
    rules         INTEGER NOT NULL,
    rulings       INTEGER NOT NULL,
    notes         INTEGER NOT NULL,
    warnings      INTEGER NOT NULL,
    summary       TEXT NOT NULL,
    warning_lines TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rules_versions (
    version       TEXT PRIMARY KEY,
    rules         INTEGER NOT NULL,
    headings      INTEGER NOT NULL,
    glossary      INTEGER NOT NULL,
    warnings      INTEGER NOT NULL,
    summary       TEXT NOT NULL,
    warning_lines TEXT NOT NULL,
    digest        TEXT NOT NULL
);
CREATE TABLE IF NOT EXISTS rules_entries (
    version  TEXT NOT NULL,
    position INTEGER NOT NULL,
    id       TEXT NOT NULL,
    type     TEXT NOT NULL,
    number   TEXT,
    kind     TEXT,
    title    TEXT,
    term     TEXT,
    text     TEXT,
    json     TEXT NOT NULL,
    PRIMARY KEY (version, position)
);
CREATE INDEX IF NOT EXISTS rules_entries_id ON rules_entries(id);
CREATE INDEX IF NOT EXISTS rules_entries_number ON rules_entries(number);
CREATE TABLE IF NOT EXISTS verdicts (
    entry_id       TEXT PRIMARY KEY,
    status         TEXT NOT NULL,
    currency       TEXT,
    currency_label TEXT,
    reason         TEXT,
    why            TEXT,
    era            TEXT,
    shared_from    TEXT,
    scenarios      INTEGER NOT NULL,
    details        TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS verdicts_status ON verdicts(status, currency);
CREATE TABLE IF NOT EXISTS verdict_scenarios (
    entry_id     TEXT NOT NULL,
    position     INTEGER NOT NULL,
    scenario     TEXT NOT NULL,
    title        TEXT,
    passed       INTEGER,
    today_passed INTEGER,
    PRIMARY KEY (entry_id, position)
) WITHOUT ROWID;
CREATE INDEX IF NOT EXISTS verdict_scenarios_scenario ON verdict_scenarios(scenario);
"""

VIEWS = """
CREATE VIEW IF NOT EXISTS document_summary AS
SELECT d.id, e.title, json_extract(e.json, '$.set_code') AS set_code, e.kind, e.date,
       json_extract(e.json, '$.source.path') AS source, d.sections, d.cards, d.rules, d.rulings, d.notes,
       d.warnings
FROM documents d LEFT JOIN entries e ON e.id = d.id AND e.type = 'document'
ORDER BY d.position;

CREATE VIEW IF NOT EXISTS rulings AS
SELECT r.id, r.kind, r.lang, r.date, r.text, r.document_id, doc.title AS document, r.section_id,
       s.heading AS section, r.cards, json_extract(r.json, '$.rules_cited') AS rules_cited,
       json_extract(r.json, '$.same_as') AS same_as
FROM entries r
LEFT JOIN entries doc ON doc.id = r.document_id
LEFT JOIN entries s ON s.id = r.section_id
WHERE r.type = 'ruling'
ORDER BY r.position;

CREATE VIEW IF NOT EXISTS ruling_cards AS
SELECT r.id AS ruling_id, r.kind, r.lang, r.text, c.id AS card_id, c.name AS card, c.name_en AS card_en,
       r.document_id, doc.title AS document
FROM links l
JOIN entries r ON r.id = l.entry_id
JOIN entries c ON c.id = l.target
LEFT JOIN entries doc ON doc.id = r.document_id
WHERE l.relation = 'card'
ORDER BY r.position, l.position;

CREATE VIEW IF NOT EXISTS cards AS
SELECT c.id, c.name, c.name_en, c.name_ru, json_extract(c.json, '$.mana_cost') AS mana_cost,
       json_extract(c.json, '$.type_line') AS type_line, json_extract(c.json, '$.oracle_text') AS oracle_text,
       c.document_id, doc.title AS document,
       (SELECT count(*) FROM links l WHERE l.relation = 'card' AND l.target = c.id) AS rulings
FROM entries c LEFT JOIN entries doc ON doc.id = c.document_id
WHERE c.type = 'card'
ORDER BY c.position;

CREATE VIEW IF NOT EXISTS same_rulings AS
SELECT l.entry_id AS ruling_id, a.document_id, a.text, l.target AS same_as_id, b.document_id AS same_as_document,
       b.text AS same_as_text
FROM links l JOIN entries a ON a.id = l.entry_id JOIN entries b ON b.id = l.target
WHERE l.relation = 'same_as' AND a.type = 'ruling'
ORDER BY a.position, l.position;

CREATE VIEW IF NOT EXISTS rule_citations AS
SELECT l.entry_id, e.type, e.document_id, l.target AS number,
       (SELECT group_concat(x.id, ' ') FROM entries x
        WHERE x.type = 'rule' AND x.number = l.target AND x.document_id = e.document_id) AS excerpts
FROM links l JOIN entries e ON e.id = l.entry_id
WHERE l.relation = 'rule'
ORDER BY e.position, l.position;

CREATE VIEW IF NOT EXISTS ruling_verdicts AS
SELECT r.id, r.type, r.kind, r.lang, r.document_id, doc.title AS document, s.heading AS section, r.text,
       coalesce(v.status, 'not_computed') AS status, v.currency, v.currency_label, v.reason, v.why, v.era,
       v.shared_from, v.scenarios
FROM entries r
LEFT JOIN verdicts v ON v.entry_id = r.id
LEFT JOIN entries doc ON doc.id = r.document_id
LEFT JOIN entries s ON s.id = r.section_id
WHERE r.type IN ('ruling', 'rule')
ORDER BY r.position;

CREATE VIEW IF NOT EXISTS document_coverage AS
SELECT r.document_id, coalesce(r.kind, r.type) AS kind, count(*) AS entries,
       sum(v.status = 'verified') AS verified, sum(v.status = 'failing') AS failing,
       sum(v.status = 'unlinked') AS unlinked, sum(v.status = 'not_simulable') AS not_simulable,
       sum(v.entry_id IS NULL) AS not_computed,
       sum(v.currency = 'current') AS current, sum(v.currency = 'obsolete') AS obsolete,
       sum(v.currency = 'terms') AS terms, sum(v.currency = 'unjudged') AS unjudged,
       round(100.0 * sum(v.status = 'verified') / count(*), 1) AS verified_percent
FROM entries r LEFT JOIN verdicts v ON v.entry_id = r.id
WHERE r.type IN ('ruling', 'rule')
GROUP BY r.document_id, coalesce(r.kind, r.type)
ORDER BY min(r.position), kind;

CREATE VIEW IF NOT EXISTS scenario_proofs AS
SELECT p.scenario, p.title, p.passed, p.today_passed, p.entry_id, v.status, v.currency, r.document_id, r.text
FROM verdict_scenarios p
JOIN verdicts v ON v.entry_id = p.entry_id
LEFT JOIN entries r ON r.id = p.entry_id
ORDER BY p.scenario, r.position;
"""

RELATIONS = ("same_as", "card", "rule", "aligned", "card_name")
