/* In-browser search of the exported FAQ: the ranking of `kb search`, offline and from file://.
 *
 * The export (kb/export/search_index.py) ships the CLI's own index data in script shards that register
 * themselves (KBShard), loaded on demand: a query loads the shards of its words and terms and the pages of
 * the documents it shows, never the whole index. Here the same steps run as in kb/search: the query words
 * become terms (the export's table of every word form's lemmas), typos are corrected towards the index's
 * lexicon, glossary wordings widen a span to every wording of its concept, and the plan is scored with
 * whoosh's BM25F (the same per-posting data, length table, DisMax trees, phrase requirement), then reranked
 * as kb/search/service.py does (kind prior, coordination, card first, confidence floor, obsolete penalty,
 * one result per RU/EN pair, one per text). Result text is inserted with textContent only (never as HTML).
 */
(function () {
  "use strict";

  var KIND_LABELS = { ruling: "Разъяснение", note: "Примечание", rule: "Правило", card: "Карта" };
  var STATUS_LABELS = {
    verified: "проверено", failing: "не проходит", unlinked: "не связано со сценарием",
    not_simulable: "не моделируется"
  };
  var DIGIT = {}, BASE = 0;  // postings digits (search_index.ALPHABET): printable ASCII but " and \
  for (var c = 0x21, a = 0; c < 0x7f; c++) {
    if (c === 0x22 || c === 0x5c) continue;
    DIGIT[String.fromCharCode(c)] = a++;
  }
  BASE = a / 2;
  var FIELDS = 4, CTX = 4, TEXT_FIELDS = [0, 1, 2], RULES = 3, PHRASE_MARK = "\u0001";
  var SHOWN = 20;  // hits rendered at once on the search page («Показать ещё» loads the next ones)

  /* ---- shards ------------------------------------------------------------------------------------ */

  var shards = {}, pending = {}, requested = [];
  window.KBShard = function (name, data) {
    shards[name] = data;
    var callbacks = pending[name] || [];
    delete pending[name];
    callbacks.forEach(function (cb) { cb(); });
  };

  function base() {
    var meta = document.body.getAttribute("data-index") || "static/search/meta.js";
    return meta.slice(0, meta.lastIndexOf("/") + 1);
  }

  /* Load shards by inserting <script>s: allowed from file://, where fetch() of a local file is not. */
  function load(names) {
    return Promise.all(names.filter(function (n, i) { return names.indexOf(n) === i; }).map(function (name) {
      if (shards[name] !== undefined) return Promise.resolve();
      return new Promise(function (resolve, reject) {
        var first = !pending[name];
        (pending[name] = pending[name] || []).push(resolve);
        if (!first) return;
        requested.push(name);
        var script = document.createElement("script");
        script.src = base() + name + ".js";
        script.onerror = function () { delete pending[name]; reject(new Error(name)); };
        document.head.appendChild(script);
      });
    }));
  }

  function hash(text) {  // FNV-1a over UTF-16 code units (search_index.shard_hash)
    var h = 0x811c9dc5;
    for (var i = 0; i < text.length; i++) { h ^= text.charCodeAt(i); h = Math.imul(h, 0x01000193) >>> 0; }
    return h;
  }

  var meta = null, C = null, stops = null, tokenRe = null;

  function loadMeta() {
    if (meta) return Promise.resolve();
    return load(["meta"]).then(function () {
      meta = shards.meta; C = meta.constants; stops = new Set(meta.stops);
      tokenRe = new RegExp(meta.tokens, "g");
    });
  }

  function termShard(term) { return "t/" + (hash(term) % meta.shards.t); }
  function formShard(form) { return "f/" + (hash(form) % meta.shards.f); }
  function glossShard(term) { return "g/" + (hash(term) % meta.shards.g); }
  function page(doc) { return "d/" + Math.floor(doc / meta.shards.page); }

  function record(term) { var s = shards[termShard(term)]; return s ? s[term] : undefined; }

  function decode(text) {
    var out = [], value = 0, scale = 1;
    for (var i = 0; i < text.length; i++) {
      var d = DIGIT[text.charAt(i)];
      if (d >= BASE) { value += (d - BASE) * scale; scale *= BASE; }
      else { out.push(value + d * scale); value = 0; scale = 1; }
    }
    return out;
  }

  /* A term's postings in one field: Map doc → [tf, length byte] (CTX: Map doc → true); null when absent. */
  var postCache = {};
  function postings(term, f) {
    var key = f + "\u0000" + term;
    if (postCache[key] !== undefined) return postCache[key];
    var rec = record(term), out = null;
    if (rec) {
      for (var i = 2; i < rec.length; i++) {
        if (rec[i][0] !== f) continue;
        var ref = rec[i][2], text = typeof ref === "number" ? shards["p/" + ref] : ref;
        if (text === undefined) return null;  // a long list not loaded yet
        var values = decode(text), doc = 0;
        out = new Map();
        if (f === CTX) { for (var j = 0; j < values.length; j++) { doc += values[j]; out.set(doc, true); } }
        else {  // 3 × delta + min(tf, 3) − 1 [, tf − 3 when tf ≥ 3], length byte (search_index._Postings)
          for (var k = 0; k < values.length;) {
            var first = values[k++], code = first % 3, tf = code < 2 ? code + 1 : values[k++] + 3;
            doc += (first - code) / 3;
            out.set(doc, [tf, values[k++]]);
          }
        }
      }
    }
    postCache[key] = out;
    return out;
  }

  function df(term, f) {
    var rec = record(term);
    if (!rec) return 0;
    for (var i = 2; i < rec.length; i++) if (rec[i][0] === f) return rec[i][1];
    return 0;
  }

  function has(f, term) { return df(term, f) > 0; }
  function longLists(term, fields) {  // the separate posting files of a term (in these fields, or all)
    var rec = record(term), out = [];
    if (rec) {
      for (var i = 2; i < rec.length; i++) {
        if (typeof rec[i][2] === "number" && (!fields || fields.indexOf(rec[i][0]) >= 0)) out.push("p/" + rec[i][2]);
      }
    }
    return out;
  }

  /* ---- analysis (kb/search/analysis.py) ----------------------------------------------------------- */

  function fold(s) { return s.toLowerCase().replace(/ё/g, "е"); }
  var CYRILLIC = /[А-Яа-яЁё]/, LATIN = /[A-Za-z]/;

  function tokenize(text) {
    var out = [], m;
    tokenRe.lastIndex = 0;
    while ((m = tokenRe.exec(text)) !== null) {
      var kind = "word";
      for (var g = 1; g <= meta.kinds.length; g++) { if (m[g] !== undefined) { kind = meta.kinds[g - 1]; break; } }
      out.push({ start: m.index, end: m.index + m[0].length, surface: m[0], kind: kind, key: fold(m[0]),
                 stop: kind === "word" && stops.has(fold(m[0])) });
    }
    return out;
  }

  function wordTerms(key) {
    var found = shards[formShard(key)][key];
    if (found) return found;
    if (CYRILLIC.test(key)) return [key];
    if (LATIN.test(key)) { key = key.replace(/’/g, "'"); return [/'s$/.test(key) ? key.slice(0, -2) : key]; }
    return [key];
  }

  /* The terms a token stands for; index mode: a rule number also stands for its parent rule. */
  function tokenTerms(tok, index) {
    if (tok.kind === "word") return index ? indexWordTerms(tok.key) : wordTerms(tok.key);
    if (tok.kind === "rule") {
      var parent = /^(\d{3}\.\d+)[a-z]$/.exec(tok.key);
      return parent && index ? [tok.key, parent[1]] : [tok.key];
    }
    if (tok.kind === "pt") return [tok.key.replace(/х/g, "x")];
    return [tok.key];
  }

  /* ---- the query (kb/search/query.py: a natural question) --------------------------------------- */

  var surfaceTerms = null;  // highlighting: corpus word form → the terms it is indexed under (query terms only)
  function indexWordTerms(key) { return (surfaceTerms && surfaceTerms.get(key)) || [key]; }

  function withinOneEdit(a, b) {  // Damerau-Levenshtein distance ≤ 1
    if (Math.abs(a.length - b.length) > 1) return false;
    var i = 0, j = 0, edits = 0;
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) { i++; j++; continue; }
      if (++edits > 1) return false;
      if (a.length > b.length) i++;
      else if (a.length < b.length) j++;
      else if (a[i + 1] === b[j] && a[i] === b[j + 1]) { i += 2; j += 2; }
      else { i++; j++; }
    }
    return edits + (a.length - i) + (b.length - j) <= 1;
  }

  function known(terms) {
    return terms.some(function (t) {
      var rec = record(t);
      if (rec === undefined) return false;
      if (rec[0] === 1) return true;
      for (var i = 2; i < rec.length; i++) if (rec[i][0] < CTX) return true;
      return false;
    });
  }

  function lexicon(initial) {
    var n = meta.initials.indexOf(initial);
    return n < 0 ? null : "l/" + n;
  }

  /* _Compiler.correct: a word no index field and no glossary wording knows → the nearest known term. */
  function correct(tok, terms, corrections) {
    if (tok.kind !== "word" || tok.surface.length < C.minTypo || known(terms)) return terms;
    var cyrillic = CYRILLIC.test(tok.surface), candidates = new Map();
    var tried = terms.slice();
    if (tried.indexOf(tok.key) < 0) tried.push(tok.key);
    tried.forEach(function (term) {
      var name = lexicon(term.charAt(0)), entries = name ? shards[name] : [];
      entries.forEach(function (e) {
        if (e[0] === term || e[0].charAt(0) !== term.charAt(0) || !withinOneEdit(term, e[0])) return;
        if (cyrillic && e[1] > 0) candidates.set(e[0], Math.max(candidates.get(e[0]) || 0, e[1]));
        if (e[2] === 1 && !candidates.has(e[0])) candidates.set(e[0], 0);
      });
    });
    if (!candidates.size) return terms;
    var best = null;
    Array.from(candidates.keys()).sort().forEach(function (t) {
      if (best === null || candidates.get(t) > candidates.get(best)) best = t;
    });
    corrections.push([tok.surface, best]);
    return [best];
  }

  function glossFirst(alt) { var s = shards[glossShard(alt)]; return (s && s.first[alt]) || []; }
  function concept(name, alt) { return shards[glossShard(alt)].concepts[name]; }

  /* Glossary.find: hits longest first, not overlapping; each remembers the wording that matched. */
  function findGlossary(alts) {
    var hits = [], i = 0;
    while (i < alts.length) {
      var best = null;
      alts[i].forEach(function (alt) {
        glossFirst(alt).forEach(function (hit) {
          var data = concept(hit[0], alt), wording = data.w[hit[1]], match = wording[2], n = match.length;
          if (best && n <= best.n) return;
          if (i + n > alts.length) return;
          for (var k = 0; k < n; k++) {
            if (!match[k].some(function (t) { return alts[i + k].indexOf(t) >= 0; })) return;
          }
          best = { n: n, concept: hit[0], data: data, wording: wording };
        });
      });
      if (!best) { i++; continue; }
      hits.push({ start: i, end: i + best.n, concept: best.concept, data: best.data, wording: best.wording });
      i += best.n;
    }
    return hits;
  }

  function key(positions) { return PHRASE_MARK + positions.map(function (p) { return p.join("|"); }).join(" "); }

  /* Plan nodes as kb/search/plan.py: alt, phrase, anyof, bool. */
  function natural(tokens, alts, hits, concepts) {
    var units = [], i = 0;
    hits.concat([null]).forEach(function (hit) {
      var stopAt = hit ? hit.start : tokens.length;
      for (var k = i; k < stopAt; k++) if (!tokens[k].stop) units.push({ type: "alt", terms: alts[k], boost: 1, fields: C.wordFields });
      if (!hit) return;
      concepts.push(hit.concept);
      var span = [];
      for (var s = hit.start; s < hit.end; s++) if (!tokens[s].stop) span.push(alts[s]);
      // query._Compiler.natural: a card name is looked for among the card names, anything else in text and topic
      if (span.length) units.push(expanded(span, hit, hit.concept.lastIndexOf("card:", 0) === 0 ? C.cardFields : C.wordFields));
      i = hit.end;
    });
    return units;
  }

  function expanded(span, hit, fields) {
    var own = span.length === 1 ? { type: "alt", terms: span[0], boost: 1, fields: fields }
      : { type: "bool", should: span.map(function (p) { return { type: "alt", terms: p, boost: 1, fields: fields }; }) };
    var children = [own], seen = new Set([key(span)]);
    if (span.length > 1) children.push({ type: "phrase", positions: span, boost: C.phraseBoost, fallback: key(hit.wording[3]), fields: fields });
    hit.data.w.forEach(function (w) {
      var search = w[3], k = key(search);
      if (seen.has(k)) return;
      seen.add(k);
      if (search.length === 1) children.push({ type: "alt", terms: search[0], boost: C.expansionBoost, fields: fields });
      else children.push({ type: "phrase", positions: search, boost: C.expansionBoost * C.phraseBoost, fallback: k, fields: fields });
    });
    return children.length > 1 ? { type: "anyof", children: children, boost: 1 } : own;
  }

  function walk(node, out) {
    out.push(node);
    (node.children || node.should || []).forEach(function (c) { walk(c, out); });
    return out;
  }

  function positiveTerms(node) {
    var terms = new Set();
    walk(node, []).forEach(function (n) {
      if (n.type === "alt") n.terms.forEach(function (t) { terms.add(t); });
      else if (n.type === "phrase") n.positions.forEach(function (p) { p.forEach(function (t) { terms.add(t); }); });
    });
    return terms;
  }

  function phraseKey(node) {
    var k = key(node.positions);
    return record(k) ? k : node.fallback || k;
  }

  /* ---- whoosh's matchers (kb/search/whoosh_engine.py compile) ------------------------------------ */

  var NULL = null;

  function termQ(f, term, boost) { return { q: "term", f: f, term: term, boost: boost, est: df(term, f) }; }
  function unionQ(children, boost) {
    if (!children.length) return NULL;
    if (children.length === 1) return children[0];  // whoosh: a compound of one ignores its own boost
    return { q: "or", children: children, boost: boost || 1, est: Math.min(meta.n, sum(children)) };
  }
  function sum(children) { return children.reduce(function (s, c) { return s + c.est; }, 0); }

  /* whoosh's DisjunctionMax: the best child (kb/search/whoosh_dismax.py DISMAX_TIEBREAK = 0: whoosh never
   * passed a tiebreak on to its matchers, and tantivy now uses none either), so every DisMax is a plain max. */
  function dismaxQ(children) {
    if (!children.length) return NULL;
    if (children.length === 1) return children[0];
    return { q: "max", children: children, boost: 1, est: Math.min(meta.n, sum(children)) };
  }

  function boosted(q, boost) { if (q && boost !== 1) q.boost *= boost; return q; }

  function isRule(term) { return term.length > 4 && /^\d{3}\./.test(term); }

  /* whoosh_engine._fast_unit, the CLI's plan above EXACT_TOTAL_LIMIT documents: one word with its readings
   * and glossary equivalents as a flat union of distinct (field, term), an alternative found in more than
   * COMMON_FRACTION of the documents dropped unless it is the user's own word, a glossary phrase kept only
   * when one of its words is rare. It also keeps what a query downloads bounded at 100,000 entries. */
  function fastUnit(node) {
    var cutoff = C.commonFraction * meta.n, weights = new Map(), phrases = [], primary = new Set();
    walk(node.type === "anyof" ? node.children[0] : node, []).forEach(function (sub) {
      if (sub.type === "alt" && sub.terms.length) primary.add(sub.terms[0]);
    });
    (node.type === "anyof" ? node.children : [node]).forEach(function (unit) {
      walk(unit, []).forEach(function (sub) {
        if (sub.type === "phrase") {
          var rarest = Math.min.apply(null, sub.positions.map(function (p) {
            return Math.max.apply(null, p.map(function (t) { return Math.max(df(t, 0), df(t, 1), df(t, 2)); }));
          }));
          if (rarest <= cutoff) { var q = compile(sub); if (q) phrases.push(q); }
          return;
        }
        if (sub.type !== "alt") return;
        sub.terms.forEach(function (term) {
          var fields = (sub.fields || TEXT_FIELDS).concat(isRule(term) ? [RULES] : []);
          fields.forEach(function (f) {
            if (!has(f, term) || (!primary.has(term) && df(term, f) > cutoff)) return;
            var k = f + "\u0000" + term, boost = C.fieldBoosts[f] * sub.boost * node.boost;
            weights.set(k, Math.max(weights.get(k) || 0, boost));
          });
        });
      });
    });
    var parts = [];
    weights.forEach(function (boost, k) {
      var f = Number(k.slice(0, k.indexOf("\u0000"))), term = k.slice(k.indexOf("\u0000") + 1);
      parts.push(termQ(f, term, boost));
    });
    parts = parts.concat(phrases);
    return parts.length ? unionQ(parts) : NULL;
  }

  function compile(node) {
    if (meta.n > C.exactLimit && (node.type === "alt" || node.type === "anyof")) return fastUnit(node);
    if (node.type === "alt") {
      var perTerm = [];
      node.terms.forEach(function (term) {
        var fields = [];
        (node.fields || TEXT_FIELDS).forEach(function (f) { if (has(f, term)) fields.push(termQ(f, term, C.fieldBoosts[f])); });
        if (isRule(term) && has(RULES, term)) fields.push(termQ(RULES, term, C.fieldBoosts[RULES]));
        if (fields.length) perTerm.push(fields.length === 1 ? fields[0] : unionQ(fields));
      });
      return boosted(dismaxQ(perTerm), node.boost);
    }
    if (node.type === "phrase") {
      var perField = [], pk = phraseKey(node);
      (node.fields || TEXT_FIELDS).forEach(function (f) {
        var best = [], ests = [];
        for (var p = 0; p < node.positions.length; p++) {
          var present = node.positions[p].filter(function (t) { return has(f, t); });
          if (!present.length) return;
          var terms = present.map(function (t) { return termQ(f, t, 1); });
          best.push(terms.length === 1 ? terms[0] : dismaxQ(terms));
          ests.push(terms.length === 1 ? terms[0].est : Math.min(meta.n, sum(terms)));
        }
        perField.push({ q: "require", a: unionQ(best, C.fieldBoosts[f]), f: f, key: pk, boost: 1,
                        est: Math.min.apply(null, ests) });
      });
      if (!perField.length) return NULL;
      var q = dismaxQ(perField);
      // whoosh applies no boost to a lone Require (FixedRequire.matcher ignores it): the same here
      return q.q === "require" ? q : boosted(q, node.boost / Math.max(1, node.positions.length));
    }
    if (node.type === "anyof") {
      var children = node.children.map(compile).filter(Boolean);
      return boosted(dismaxQ(children), node.boost);
    }
    var should = node.should.map(compile).filter(Boolean);
    if (!should.length) return NULL;
    return should.length === 1 ? should[0] : unionQ(should);
  }

  function queryTerms(q, out) {
    if (!q) return out;
    if (q.q === "term") out.push([q.term, q.f]);
    else if (q.q === "require") { out.push([q.key, q.f]); queryTerms(q.a, out); }
    else q.children.forEach(function (c) { queryTerms(c, out); });
    return out;
  }

  /* The score of q on doc (0: no match), as whoosh's matcher tree computes it. */
  function score(q, doc) {
    var s = 0;
    if (q.q === "term") {
      var p = postings(q.term, q.f), hit = p && p.get(doc);
      if (!hit) return 0;
      var n = meta.n, d = df(q.term, q.f);
      var idf = Math.log(1 + (n - d + 0.5) / (d + 0.5));
      var tf = hit[0], fl = meta.lengths[hit[1]], avg = meta.avg[q.f];
      s = idf * ((tf * (C.k1 + 1)) / (tf + C.k1 * ((1 - C.b) + C.b * fl / avg)));
    } else if (q.q === "or") {
      q.children.forEach(function (c) { s += score(c, doc); });
    } else if (q.q === "max") {
      q.children.forEach(function (c) { s = Math.max(s, score(c, doc)); });
    } else if (q.q === "require") {
      var docs = postings(q.key, q.f);
      s = docs && docs.has(doc) ? score(q.a, doc) : 0;
    }
    return s * q.boost;
  }

  function candidates(q, out) {
    if (!q) return out;
    if (q.q === "term") { var p = postings(q.term, q.f); if (p) p.forEach(function (_, d) { out.add(d); }); }
    else if (q.q === "require") {
      var docs = postings(q.key, q.f);
      if (docs) docs.forEach(function (_, d) { if (score(q.a, d)) out.add(d); });
    } else q.children.forEach(function (c) { candidates(c, out); });
    return out;
  }

  /* ---- the search (kb/search/service.py) ---------------------------------------------------------- */

  function row(doc) { return shards[page(doc)][doc % meta.shards.page]; }

  function unitTerms(plan) {
    return plan.type === "bool" && plan.should.length >= 2 ? plan.should.map(function (u) { return positiveTerms(u); }) : null;
  }

  function inText(term, doc) { var p = postings(term, 0); return !!(p && p.has(doc)); }
  function inContext(term, doc) { var p = postings(term, CTX); return inText(term, doc) || !!(p && p.has(doc)); }
  function anyIn(terms, doc, test) {
    var found = false;
    terms.forEach(function (t) { if (!found && test(t, doc)) found = true; });
    return found;
  }

  /* kb.search.confidence.answered: the best of the top hits carries enough of the question's weight. */
  function answered(units, hits, offTopic) {
    if (!units || !hits.length) return true;
    var n = Math.max(1, meta.n);
    var weights = units.map(function (terms) {
      var most = 0;
      terms.forEach(function (t) { for (var f = 0; f < FIELDS; f++) most = Math.max(most, df(t, f)); });
      return Math.log(1 + n / (1 + most));
    });
    var total = weights.reduce(function (s, w) { return s + w; }, 0), best = 0;
    hits.slice(0, C.coverageDepth).forEach(function (hit) {
      var got = 0;
      units.forEach(function (terms, i) { if (anyIn(terms, hit.doc, inContext)) got += weights[i]; });
      best = Math.max(best, got / total);
    });
    return best >= (offTopic ? C.unknownWordFloor : C.coverageFloor);
  }

  function isNameOnly(tokens, alts) {  // alts: the query's terms as searched (typos corrected)
    var covered = new Set();
    findGlossary(alts).forEach(function (hit) {
      if (hit.concept.lastIndexOf("card:", 0) === 0) for (var i = hit.start; i < hit.end; i++) covered.add(i);
    });
    return covered.size > 0 && tokens.every(function (t, i) { return t.stop || covered.has(i); });
  }

  function byScore(list, value) {
    return list.map(function (h, i) { return [value(h), i, h]; })
      .sort(function (x, y) { return (y[0] - x[0]) || (x[1] - y[1]); }).map(function (x) { return x[2]; });
  }

  /* kb.search.card_first.rule_first: a query of rule numbers puts those rules first (a rule's text starts
   * with its number), each group in score order. */
  function ruleFirst(hits, tokens) {
    var asked = tokens.filter(function (t) { return !t.stop; });
    if (!asked.length || !hits.length || asked.some(function (t) { return t.kind !== "rule"; })) return hits;
    var wanted = new Set(asked.map(function (t) { return t.key; }));
    var own = hits.filter(function (h) {
      var r = row(h.doc);
      return r[1] === "rule" && wanted.has(fold(r[3].split(/\s+/)[0] || ""));
    });
    if (!own.length) return hits;
    var top = hits.reduce(function (m, h) { return Math.max(m, h.score); }, -Infinity);
    var mine = new Set(own.map(function (h) { return h.doc; }));
    return own.map(function (h) { return { doc: h.doc, score: top + h.score }; })
      .concat(hits.filter(function (h) { return !mine.has(h.doc); }));
  }

  /* kb.search.card_first: the cards a query names, before (or right after the best of) the rest. */
  function cardFirst(hits, tokens, alts, names, cards) {
    if (!cards.length) return hits;
    var seen = new Set(cards);
    var top = hits.reduce(function (m, h) { return Math.max(m, h.score); }, -Infinity);
    if (top === -Infinity) top = 1.0;
    if (!isNameOnly(tokens, alts)) {
      var best = hits.slice(0, 1).filter(function (h) { return !seen.has(h.doc); });
      var rest = hits.slice(1).filter(function (h) { return !seen.has(h.doc); });
      var lifted = cards.map(function (d) { return { doc: d, score: best.length ? best[0].score : top }; });
      return best.concat(lifted, rest);
    }
    var wanted = new Set(names);
    var about = hits.filter(function (h) {
      var r = row(h.doc);
      return !seen.has(h.doc) && r[1] !== "card" && r[9].some(function (n) { return wanted.has(n); });
    });
    var aboutDocs = new Set(about.map(function (h) { return h.doc; }));
    var others = hits.filter(function (h) { return !seen.has(h.doc) && !aboutDocs.has(h.doc); });
    var ordered = cards.map(function (d) { return { doc: d, score: top + 2.0 }; });
    about.forEach(function (h) { ordered.push({ doc: h.doc, score: top + 1.0 + h.score / (10 * top || 1) }); });
    return ordered.concat(others);
  }

  /* The whole query: {hits: [{doc, score}], total, answered, corrections, terms}; a Promise. */
  function search(query, options) {
    options = options || {};
    var limit = options.limit || 10;
    return loadMeta().then(function () {
      var text = query;
      if (text.length > C.maxQuery) {
        var space = text.lastIndexOf(" ", C.maxQuery);
        text = text.slice(0, space >= Math.floor(C.maxQuery * 4 / 5) ? space : C.maxQuery).replace(/\s+$/, "");
      }
      var tokens = tokenize(text), words = tokens.filter(function (t) { return t.kind === "word"; });
      var state = { text: text, tokens: tokens, corrections: [], concepts: [] };
      return load(words.map(function (t) { return formShard(t.key); })).then(function () {
        state.raw = tokens.map(function (t) { return tokenTerms(t, false); });
        var all = [].concat.apply([], state.raw);
        return load(all.map(termShard));
      }).then(function () {
        var typos = tokens.filter(function (t, i) {
          return !t.stop && t.kind === "word" && t.surface.length >= C.minTypo && !known(state.raw[i]);
        });
        var initials = [];
        typos.forEach(function (t, i) {
          state.raw[tokens.indexOf(t)].concat([t.key]).forEach(function (term) {
            var name = lexicon(term.charAt(0)); if (name) initials.push(name);
          });
        });
        return load(initials);
      }).then(function () {
        state.alts = tokens.map(function (t, i) { return t.stop ? state.raw[i] : correct(t, state.raw[i], state.corrections); });
        // query._Compiler.unknown: a word no index field, no glossary wording and no typo correction knows
        var fixed = new Set(state.corrections.map(function (c) { return c[0]; }));
        state.unknown = tokens.some(function (t, i) {
          return !t.stop && t.kind === "word" && t.surface.length >= C.minTypo && !fixed.has(t.surface) && !known(state.raw[i]);
        });
        var all = [].concat.apply([], state.alts).concat([].concat.apply([], state.raw));
        return load(all.map(glossShard).concat(all.map(termShard)));
      }).then(function () {
        state.hits = findGlossary(state.alts);
        var units = natural(tokens, state.alts, state.hits, state.concepts);
        state.plan = !units.length ? null : units.length === 1 ? units[0] : { type: "bool", should: units };
        if (!state.plan) return;
        var names = [];
        walk(state.plan, []).forEach(function (n) {
          if (n.type === "alt") n.terms.forEach(function (t) { names.push(termShard(t)); });
          if (n.type === "phrase") {
            names.push(termShard(key(n.positions)), termShard(n.fallback));
            n.positions.forEach(function (p) { p.forEach(function (t) { names.push(termShard(t)); }); });
          }
        });
        return load(names);
      }).then(function () {
        if (!state.plan) return;
        state.q = compile(state.plan);
        var lists = [];
        queryTerms(state.q, []).forEach(function (tf) { lists = lists.concat(longLists(tf[0])); });
        // coordination and the confidence floor only ask whether a term is in a hit's text or context; above
        // EXACT_TOTAL_LIMIT they count the terms searched (a dropped common alternative's list is not loaded)
        if (meta.n <= C.exactLimit) unitTermList(state).forEach(function (t) { lists = lists.concat(longLists(t, [0, CTX])); });
        return load(lists);
      }).then(function () { return rank(state, limit); });
    });
  }

  function unitTermList(state) {
    var out = [];
    positiveTerms(state.plan).forEach(function (t) { out.push(t); });
    return out;
  }

  var lastState = null;
  function rank(state, limit) {
    lastState = state;
    var empty = { hits: [], total: 0, answered: true, corrections: state.corrections, terms: new Set() };
    if (!state.plan || !state.q) return empty;
    var q = state.q, scored = [];
    candidates(q, new Set()).forEach(function (doc) { var s = score(q, doc); if (s) scored.push({ doc: doc, score: s }); });
    scored.sort(function (x, y) { return (y.score - x.score) || (x.doc - y.doc); });
    var depth = Math.max(limit, C.rerankDepth), coordDepth = Math.max(limit, C.coordDepth);
    var top = scored.slice(0, Math.min(depth, coordDepth));
    var names = [], cards = [];
    state.concepts.forEach(function (c) {
      if (c.lastIndexOf("card:", 0) === 0 && names.indexOf(c.slice(5)) < 0) names.push(c.slice(5));
    });
    state.hits.forEach(function (hit) {
      if (hit.concept.lastIndexOf("card:", 0) === 0) hit.data.c.forEach(function (d) { cards.push(d); });
    });
    var docs = top.map(function (h) { return h.doc; }).concat(cards);
    return load(docs.map(page)).then(function () {
      var hits = top.map(function (h) { return { doc: h.doc, score: h.score * (C.kindPrior[row(h.doc)[1]] || 1) }; });
      hits = byScore(hits, function (h) { return h.score; });
      var units = unitTerms(state.plan);
      if (units) {  // service.coordinate
        hits.forEach(function (h) {
          var got = units.filter(function (terms) { return anyIn(terms, h.doc, inText); }).length;
          h.score *= 1 + C.coordBoost * got / units.length;
        });
        hits = byScore(hits, function (h) { return h.score; });
      }
      hits = ruleFirst(hits, state.tokens);
      surfaceTerms = null;
      var answer = true;
      if (names.length) hits = cardFirst(hits, state.tokens, state.alts, names, cards);
      else answer = answered(units, hits, state.unknown && !state.concepts.some(function (c) {
        return c.lastIndexOf("card:", 0) === 0 || meta.topics.indexOf(c) >= 0;  // service.off_topic
      }));
      var terms = positiveTerms(state.plan);
      if (!answer) return { hits: [], total: 0, answered: false, weak: scored.length, corrections: state.corrections, terms: terms };
      hits = byScore(hits, function (h) { return h.score * (row(h.doc)[6] ? C.obsoletePenalty : 1); });
      var seen = new Set(), groups = new Set(), kept = [];
      hits.forEach(function (h) {  // one_per_pair, distinct_texts
        if (meta.twins) {
          if (seen.has(h.doc)) return;
          seen.add(h.doc);
          if (row(h.doc)[7] >= 0) seen.add(row(h.doc)[7]);
        }
        var group = row(h.doc)[8];
        if (groups.has(group)) return;
        groups.add(group);
        kept.push(h);
      });
      var rest = scored.slice(top.length);  // beyond the reranked hits: whoosh's order, kind prior applied
      return { hits: kept, more: rest, total: scored.length, answered: true, corrections: state.corrections,
               terms: terms, shownDocs: kept.length };
    });
  }

  /* ---- rendering -------------------------------------------------------------------------------- */

  function highlighted(text, terms, limit) {
    var toks = tokenize(text), marks = [];
    toks.forEach(function (tok) {
      if (tok.stop) return;
      var ids = tok.kind === "word" ? (wordMarks.get(tok.key) ? [tok.key] : []) : tokenTerms(tok, true);
      for (var i = 0; i < ids.length; i++) if (terms.has(ids[i]) || wordMarks.get(ids[i])) { marks.push(tok); return; }
    });
    var start = 0, end = text.length;
    if (limit && text.length > limit) {
      var first = marks.length ? marks[0].start : 0;
      start = Math.max(0, first - Math.floor(limit / 3));
      end = Math.min(text.length, start + limit);
      var space = text.indexOf(" ", start);
      if (start > 0 && space >= 0 && space < first) start = space + 1;
      var back = text.lastIndexOf(" ", end);
      if (end < text.length && back > start) end = back;
    }
    var frag = document.createDocumentFragment(), pos = start;
    if (start > 0) frag.appendChild(document.createTextNode("… "));
    marks.forEach(function (tok) {
      if (tok.start < pos || tok.end > end) return;
      frag.appendChild(document.createTextNode(text.slice(pos, tok.start)));
      var mark = document.createElement("mark");
      mark.textContent = text.slice(tok.start, tok.end);
      frag.appendChild(mark);
      pos = tok.end;
    });
    frag.appendChild(document.createTextNode(text.slice(pos, end)));
    if (end < text.length) frag.appendChild(document.createTextNode(" …"));
    return frag;
  }

  var wordMarks = new Map();  // folded corpus word form → true when it stands for one of the query's terms
  function prepareMarks(terms) {
    wordMarks = new Map();
    terms.forEach(function (t) {
      var rec = record(t);
      if (!rec) return;
      wordMarks.set(t, true);
      if (rec[1]) rec[1].split(" ").forEach(function (form) { wordMarks.set(form, true); });
    });
  }

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function root() { return document.body.getAttribute("data-root") || ""; }

  function renderHit(hit, terms, limit, n) {
    var d = row(hit.doc);
    var a = el("a", "hit");
    a.href = root() + d[0];
    a.id = "hit-" + n;
    a.setAttribute("role", "option");
    a.setAttribute("data-kind", d[1]);
    if (d[4] !== "ru") a.lang = d[4];
    var head = el("span", "hit-head");
    head.appendChild(el("span", "hit-kind", KIND_LABELS[d[1]] || d[1]));
    head.appendChild(el("span", "hit-where", d[2]));
    if (d[5]) head.appendChild(el("span", "badge badge-" + d[5], STATUS_LABELS[d[5]] || d[5]));
    if (d[6]) head.appendChild(el("span", "badge badge-obsolete", "устарело"));
    a.appendChild(head);
    var p = el("span", "hit-text");
    p.appendChild(highlighted(d[3], terms, limit));
    a.appendChild(p);
    return a;
  }

  var statusNode = null;
  function status(text) { if (statusNode) statusNode.textContent = text; }

  function plural(n) {
    var m10 = n % 10, m100 = n % 100;
    if (m10 === 1 && m100 !== 11) return "результат";
    if (m10 >= 2 && m10 <= 4 && (m100 < 12 || m100 > 14)) return "результата";
    return "результатов";
  }

  /* The hits after the reranked ones, in whoosh's order, one per pair and per text, PAGE by PAGE. */
  function moreHits(res, count) {
    var next = res.more.splice(0, count);
    return load(next.map(function (h) { return page(h.doc); })).then(function () {
      var shown = new Set(res.hits.map(function (h) { return h.doc; }));
      return next.filter(function (h) {
        var r = row(h.doc);
        if (shown.has(h.doc) || (meta.twins && r[7] >= 0 && shown.has(r[7]))) return false;
        shown.add(h.doc);
        return true;
      });
    });
  }

  /* One search box with its result list: the header dropdown on every page, the full list on search.html. */
  function SearchBox(input, list, limit, full) {
    var selected = -1, timer = null, generation = 0;

    function items() { return list.querySelectorAll(".hit"); }

    function select(n) {
      var all = items();
      if (!all.length) { selected = -1; return; }
      selected = (n + all.length) % all.length;
      all.forEach(function (a, i) { a.setAttribute("aria-selected", i === selected ? "true" : "false"); });
      all[selected].scrollIntoView({ block: "nearest" });
      input.setAttribute("aria-activedescendant", all[selected].id);
    }

    function show(res, q) {
      prepareMarks(res.terms);
      list.textContent = "";
      var cut = full ? 600 : 220;
      res.hits.slice(0, limit).forEach(function (hit, n) { list.appendChild(renderHit(hit, res.terms, cut, n)); });
      if (!res.answered) list.appendChild(el("p", "no-hits", "Ничего подходящего не найдено: ни одна запись не отвечает на этот вопрос."));
      else if (!res.hits.length) list.appendChild(el("p", "no-hits", "Ничего не найдено."));
      else if (!full && res.total > limit) {
        var more = el("a", "hit more", "Все " + res.total + " " + plural(res.total) + " →");
        more.href = root() + "search.html?q=" + encodeURIComponent(q);
        list.appendChild(more);
      } else if (full && res.more.length) {
        var button = el("button", "more-hits", "Показать ещё");
        button.type = "button";
        button.addEventListener("click", function () {
          moreHits(res, SHOWN).then(function (extra) {
            var n = list.querySelectorAll(".hit").length;
            extra.forEach(function (hit, i) { list.insertBefore(renderHit(hit, res.terms, cut, n + i), button); });
            res.hits = res.hits.concat(extra);
            if (!res.more.length) button.remove();
          });
        });
        list.appendChild(button);
      }
      list.hidden = false;
      list.setAttribute("data-query", q);  // what the list shows (tests wait for their query's answer)
      status(res.answered ? res.total + " " + plural(res.total) : "");
    }

    function run() {
      var q = input.value, mine = ++generation;
      selected = -1;
      if (!q.trim()) { list.textContent = ""; list.hidden = !full; status(""); return; }
      search(q, { limit: limit }).then(function (res) {
        if (mine !== generation) return;
        show(res, q);
        if (full && history.replaceState) {
          try { history.replaceState(null, "", "?q=" + encodeURIComponent(q)); } catch (e) { /* file:// */ }
        }
      }, function () { status("Не удалось загрузить поисковый индекс."); });
    }

    input.addEventListener("focus", function () { loadMeta().catch(function () {}); });
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 80); });
    input.addEventListener("keydown", function (ev) {
      if (ev.key === "ArrowDown") { ev.preventDefault(); select(selected + 1); }
      else if (ev.key === "ArrowUp") { ev.preventDefault(); select(selected - 1); }
      else if (ev.key === "Enter") {
        var all = items();
        if (all.length) { ev.preventDefault(); (all[selected >= 0 ? selected : 0]).click(); }
      } else if (ev.key === "Escape" && !full) { list.hidden = true; input.blur(); }
    });
    if (!full) {
      document.addEventListener("click", function (ev) {
        if (!input.form.contains(ev.target)) list.hidden = true;
      });
    }
    return { run: run };
  }

  function init() {
    var pageInput = document.getElementById("page-q");
    var headerInput = document.getElementById("q");
    statusNode = document.getElementById("search-status");
    if (headerInput) SearchBox(headerInput, document.getElementById("results"), 8, false);
    if (pageInput) {
      var box = SearchBox(pageInput, document.getElementById("page-results"), SHOWN, true);
      var m = /[?&]q=([^&]*)/.exec(window.location.search);
      if (m) { pageInput.value = decodeURIComponent(m[1].replace(/\+/g, " ")); box.run(); }
    }
    document.addEventListener("keydown", function (ev) {
      var target = ev.target, tag = target && target.tagName;
      if (ev.key !== "/" || ev.ctrlKey || ev.metaKey || ev.altKey) return;
      if (tag === "INPUT" || tag === "TEXTAREA" || (target && target.isContentEditable)) return;
      ev.preventDefault();
      (pageInput || headerInput).focus();
    });
  }

  window.KBSearch = {
    search: search,
    /* The documents' site ids for a query's hits (tests and benchmarks): {ids, answered, total}. */
    ids: function (query, limit) {
      return search(query, { limit: limit || 10 }).then(function (res) {
        var hits = res.hits.slice(0, limit || 10);
        return { urls: hits.map(function (h) { return row(h.doc)[0]; }), wheres: hits.map(function (h) { return row(h.doc)[2]; }),
                 answered: res.answered, total: res.total };
      });
    },
    loaded: function () { return requested.slice(); },
    /* Per unit of the last query's plan, its score on a document (debugging the ranking against the CLI). */
    explain: function (doc) {
      var plan = lastState.plan, units = plan.type === "bool" ? plan.should : [plan];
      return units.map(function (u) { var q = compile(u); return q ? score(q, doc) : 0; });
    },
    reset: function () { shards = { meta: shards.meta }; postCache = {}; requested = []; }
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
