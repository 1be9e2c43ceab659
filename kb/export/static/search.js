/* In-browser search of the exported FAQ: works offline and from file:// (the index is a script, not JSON).
 *
 * The export did the morphology: every corpus word is indexed under its lemmas, and the index lists every
 * inflected form of each lemma, so a query word is mapped to lemmas with one table lookup. Unknown words
 * fall back to prefix matching (results as you type) and then to one-edit fuzzy matching (typos). Glossary
 * terms widen a query span to every wording of the same concept (persist → Упорство). Ranking is BM25 with
 * the section / card names weighted higher. Result text is inserted with textContent only (never as HTML).
 */
(function () {
  "use strict";

  var K1 = 1.2, B = 0.75, PREFIX_WEIGHT = 0.6, FUZZY_WEIGHT = 0.7, MAX_EXPANSIONS = 40;
  var COORD_BOOST = 0.5, KIND_PRIOR = { ruling: 1.0, note: 1.0, rule: 0.9, card: 0.75 };  // as kb search
  var KIND_LABELS = { ruling: "Разъяснение", note: "Примечание", rule: "Правило", card: "Карта" };
  var STATUS_LABELS = {
    verified: "проверено", failing: "не проходит", unlinked: "не связано со сценарием",
    not_simulable: "не моделируется"
  };

  var idx = null;          // window.KB_SEARCH_INDEX once loaded
  var termId = null;       // Map term → id
  var formTerms = null;    // Map folded form → [term ids]
  var sortedForms = null;  // sorted form keys, built on first prefix search
  var postCache = {};      // term id → Map doc → weighted tf
  var glossFirst = null;   // Map term id → [[concept, term index]]
  var stops = null;
  var avgLen = 1;
  var loading = [];

  function fold(s) { return s.toLowerCase().replace(/ё/g, "е"); }

  function root() { return document.body.getAttribute("data-root") || ""; }

  /* Load the index by inserting a <script>: allowed from file://, where fetch() of a local file is not. */
  function loadIndex(done) {
    if (idx) { done(); return; }
    loading.push(done);
    if (loading.length > 1) return;
    var finish = function () {
      prepare();
      var callbacks = loading; loading = [];
      callbacks.forEach(function (cb) { cb(); });
    };
    if (window.KB_SEARCH_INDEX) { finish(); return; }
    var script = document.createElement("script");
    script.src = document.body.getAttribute("data-index");
    script.onload = finish;
    script.onerror = function () { loading = []; status("Не удалось загрузить поисковый индекс."); };
    document.head.appendChild(script);
  }

  function addForm(form, id) {
    var list = formTerms.get(form);
    if (!list) { formTerms.set(form, [id]); } else if (list.indexOf(id) < 0) { list.push(id); }
  }

  function prepare() {
    idx = window.KB_SEARCH_INDEX;
    termId = new Map();
    formTerms = new Map();
    idx.terms.forEach(function (t, i) { termId.set(t, i); addForm(t, i); });
    idx.forms.forEach(function (s, i) {
      if (s) s.split(" ").forEach(function (f) { addForm(f, i); });
    });
    stops = new Set(idx.stops);
    glossFirst = new Map();
    idx.gloss.forEach(function (concept, c) {
      concept.forEach(function (term, j) {
        term[0][0].forEach(function (tid) {
          var list = glossFirst.get(tid) || [];
          list.push([c, j]);
          glossFirst.set(tid, list);
        });
      });
    });
    var total = 0;
    idx.docs.forEach(function (d) { total += d[6]; });
    avgLen = idx.docs.length ? Math.max(1, total / idx.docs.length) : 1;
  }

  function tokenize(text) {
    var re = new RegExp(idx.tokens, "g"), out = [], m;
    var kinds = ["symbol", "pt", "rule", "word"];
    while ((m = re.exec(text)) !== null) {
      var kind = "word";
      for (var g = 1; g <= 4; g++) { if (m[g] !== undefined) { kind = kinds[g - 1]; break; } }
      var key = fold(m[0]);
      out.push({ start: m.index, end: m.index + m[0].length, surface: m[0], kind: kind, key: key,
                 stop: kind === "word" && stops.has(key) });
    }
    return out;
  }

  /* Term ids a text token stands for (index side: a rule number also stands for its parent rule). */
  function tokenTerms(tok, forIndex) {
    if (tok.kind === "word") return formTerms.get(tok.key) || [];
    var keys = [tok.kind === "pt" ? tok.key.replace(/х/g, "x") : tok.key];
    if (tok.kind === "rule" && forIndex) {
      var parent = /^(\d{3}\.\d+)[a-z]$/.exec(tok.key);
      if (parent) keys.push(parent[1]);
    }
    var ids = [];
    keys.forEach(function (k) { if (termId.has(k)) ids.push(termId.get(k)); });
    return ids;
  }

  function prefixTerms(key) {
    if (!sortedForms) sortedForms = Array.from(formTerms.keys()).sort();
    var lo = 0, hi = sortedForms.length, out = new Map();
    while (lo < hi) { var mid = (lo + hi) >> 1; if (sortedForms[mid] < key) lo = mid + 1; else hi = mid; }
    for (var i = lo; i < sortedForms.length && sortedForms[i].lastIndexOf(key, 0) === 0; i++) {
      formTerms.get(sortedForms[i]).forEach(function (id) { out.set(id, PREFIX_WEIGHT); });
      if (out.size >= MAX_EXPANSIONS) break;
    }
    return out;
  }

  function withinOneEdit(a, b) {
    if (Math.abs(a.length - b.length) > 1) return false;
    var i = 0, j = 0, edits = 0;
    while (i < a.length && j < b.length) {
      if (a[i] === b[j]) { i++; j++; continue; }
      if (++edits > 1) return false;
      if (a.length > b.length) i++;
      else if (a.length < b.length) j++;
      else if (a[i + 1] === b[j] && a[i] === b[j + 1]) { i += 2; j += 2; }  // transposition
      else { i++; j++; }
    }
    return edits + (a.length - i) + (b.length - j) <= 1;
  }

  function fuzzyTerms(key) {
    var out = new Map();
    if (key.length < 4) return out;
    formTerms.forEach(function (ids, form) {
      if (out.size < MAX_EXPANSIONS && withinOneEdit(key, form)) ids.forEach(function (id) { out.set(id, FUZZY_WEIGHT); });
    });
    return out;
  }

  /* Query → positions, each a Map term id → weight. The last word, still being typed, also matches by prefix. */
  function analyseQuery(query) {
    var toks = tokenize(query), typing = !/\s$/.test(query);
    return toks.map(function (tok, n) {
      var ids = new Map();
      tokenTerms(tok, false).forEach(function (id) { ids.set(id, 1); });
      if (tok.kind === "word" && !tok.stop) {
        if (typing && n === toks.length - 1 && tok.key.length >= 2) {
          prefixTerms(tok.key).forEach(function (w, id) { if (!ids.has(id)) ids.set(id, w); });
        }
        if (ids.size === 0) {
          fuzzyTerms(tok.key).forEach(function (w, id) { ids.set(id, w); });
        }
      }
      return { tok: tok, ids: ids };
    });
  }

  function overlaps(ids, list) {
    for (var i = 0; i < list.length; i++) if (ids.has(list[i])) return true;
    return false;
  }

  /* Clauses: each an OR of alternatives, each alternative an AND of positions (Maps term id → weight). */
  function clauses(positions) {
    var out = [], i = 0;
    var meaningful = positions.some(function (p) { return !p.tok.stop; });
    while (i < positions.length) {
      var best = null;
      positions[i].ids.forEach(function (_, tid) {
        (glossFirst.get(tid) || []).forEach(function (hit) {
          var match = idx.gloss[hit[0]][hit[1]][0], n = match.length;
          if (i + n > positions.length || (best && n <= best.n)) return;
          for (var k = 0; k < n; k++) if (!overlaps(positions[i + k].ids, match[k])) return;
          best = { n: n, concept: hit[0] };
        });
      });
      if (best) {
        var own = positions.slice(i, i + best.n).filter(function (p) { return !p.tok.stop; })
          .map(function (p) { return p.ids; });
        var alts = own.length ? [own] : [];
        idx.gloss[best.concept].forEach(function (term) {
          alts.push(term[1].map(function (pos) {
            var m = new Map(); pos.forEach(function (id) { m.set(id, 1); }); return m;
          }));
        });
        out.push({ alts: alts, from: i, to: i + best.n });
        i += best.n;
        continue;
      }
      if (!positions[i].tok.stop || !meaningful) out.push({ alts: [[positions[i].ids]], from: i, to: i + 1 });
      i++;
    }
    return out;
  }

  function postings(tid) {
    var cached = postCache[tid];
    if (cached) return cached;
    var flat = idx.post[tid], map = new Map(), doc = 0;
    for (var i = 0; i < flat.length; i += 2) { doc += flat[i]; map.set(doc, flat[i + 1]); }
    postCache[tid] = map;
    return map;
  }

  function bm25(tid, doc) {
    var p = postings(tid), tf = p.get(doc);
    if (!tf) return 0;
    var n = idx.docs.length, df = p.size;
    var idf = Math.log(1 + (n - df + 0.5) / (df + 0.5));
    var dl = idx.docs[doc][6] || 1;
    return idf * tf * (K1 + 1) / (tf + K1 * (1 - B + B * dl / avgLen));
  }

  function positionScore(ids, doc) {
    var best = 0;
    ids.forEach(function (w, tid) { var s = w * bm25(tid, doc); if (s > best) best = s; });
    return best;
  }

  function clauseScore(clause, doc) {
    var best = 0;
    clause.alts.forEach(function (alt) {
      var sum = 0;
      for (var i = 0; i < alt.length; i++) { var s = positionScore(alt[i], doc); if (!s) return; sum += s; }
      if (sum > best) best = sum;
    });
    return best;
  }

  /* A Russian entry and its English original are one result, the better-ranked (kb/search/service.py one_per_pair). */
  function onePerPair(hits) {
    var shown = new Set();
    return hits.filter(function (hit) {
      if (shown.has(hit.doc)) return false;
      var twin = idx.docs[hit.doc][7];
      if (twin !== undefined && twin >= 0) shown.add(twin);
      return true;
    });
  }

  /* Run a query: [{doc, score, matched, terms}] best first; all-clause matches before partial ones. */
  function search(query) {
    if (!idx) return { hits: [], terms: new Set() };
    var cls = clauses(analyseQuery(query));
    var candidates = new Set(), terms = new Set();
    cls.forEach(function (c) {
      c.alts.forEach(function (alt) {
        alt.forEach(function (pos) {
          pos.forEach(function (_, tid) { terms.add(tid); postings(tid).forEach(function (_, d) { candidates.add(d); }); });
        });
      });
    });
    var hits = [];
    candidates.forEach(function (doc) {
      var score = 0, matched = 0;
      cls.forEach(function (c) { var s = clauseScore(c, doc); if (s) { matched++; score += s; } });
      if (!matched) return;
      // As `kb search` ranks (kb/search/service.py, whoosh_engine.py): every word adds to the score, a hit
      // holding more of the question's words gains up to COORD_BOOST, and the kind prior puts the ruling
      // before the card or rule it discusses.
      if (cls.length > 1) score *= 1 + COORD_BOOST * matched / cls.length;
      score *= KIND_PRIOR[idx.docs[doc][1]] || 1;
      hits.push({ doc: doc, score: score, matched: matched });
    });
    hits.sort(function (a, b) { return (b.score - a.score) || (a.doc - b.doc); });
    return { hits: onePerPair(hits), terms: terms };
  }

  /* ---- rendering -------------------------------------------------------------------------------- */

  function highlighted(text, terms, limit) {
    var toks = tokenize(text), marks = [];
    toks.forEach(function (tok) {
      if (tok.stop) return;
      var ids = tokenTerms(tok, true);
      for (var i = 0; i < ids.length; i++) if (terms.has(ids[i])) { marks.push(tok); return; }
    });
    var start = 0, end = text.length;
    if (limit && text.length > limit) {
      var first = marks.length ? marks[0].start : 0;
      start = Math.max(0, first - Math.floor(limit / 3));
      end = Math.min(text.length, start + limit);
      var space = text.indexOf(" ", start);  // cut at word boundaries, never inside a word
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

  function el(tag, cls, text) {
    var node = document.createElement(tag);
    if (cls) node.className = cls;
    if (text !== undefined) node.textContent = text;
    return node;
  }

  function renderHit(hit, terms, limit, n) {
    var d = idx.docs[hit.doc];
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

  /* One search box with its result list: the header dropdown on every page, the full list on search.html. */
  function SearchBox(input, list, limit, full) {
    var selected = -1, timer = null;

    function items() { return list.querySelectorAll(".hit"); }

    function select(n) {
      var all = items();
      if (!all.length) { selected = -1; return; }
      selected = (n + all.length) % all.length;
      all.forEach(function (a, i) { a.setAttribute("aria-selected", i === selected ? "true" : "false"); });
      all[selected].scrollIntoView({ block: "nearest" });
      input.setAttribute("aria-activedescendant", all[selected].id);
    }

    function run() {
      var q = input.value;
      list.textContent = "";
      selected = -1;
      if (!q.trim()) { list.hidden = !full; status(""); return; }
      loadIndex(function () {
        if (input.value !== q) return;
        var res = search(q);
        list.textContent = "";
        res.hits.slice(0, limit).forEach(function (hit, n) {
          list.appendChild(renderHit(hit, res.terms, full ? 600 : 220, n));
        });
        if (!res.hits.length) list.appendChild(el("p", "no-hits", "Ничего не найдено."));
        else if (!full && res.hits.length > limit) {
          var more = el("a", "hit more", "Все " + res.hits.length + " " + plural(res.hits.length) + " →");
          more.href = root() + "search.html?q=" + encodeURIComponent(q);
          list.appendChild(more);
        }
        list.hidden = false;
        status(res.hits.length + " " + plural(res.hits.length));
        if (full && history.replaceState) {
          try { history.replaceState(null, "", "?q=" + encodeURIComponent(q)); } catch (e) { /* file:// */ }
        }
      });
    }

    input.addEventListener("focus", function () { loadIndex(function () {}); });
    input.addEventListener("input", function () { clearTimeout(timer); timer = setTimeout(run, 60); });
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
    var boxes = [];
    if (headerInput) boxes.push(SearchBox(headerInput, document.getElementById("results"), 8, false));
    if (pageInput) {
      var box = SearchBox(pageInput, document.getElementById("page-results"), 200, true);
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

  window.KBSearch = { search: function (q) { return search(q); }, load: loadIndex };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", init);
  else init();
})();
