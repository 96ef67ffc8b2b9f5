// The kgqa web page: ask a question, show both answer paths with their evidence. No build step.
"use strict";

const $ = (id) => document.getElementById(id);

function el(tag, attrs = {}, ...children) {
  const node = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (key === "class") node.className = value;
    else node.setAttribute(key, value);
  }
  for (const child of children.flat()) {
    if (child === null || child === undefined) continue;
    node.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return node;
}

function link(iri, text) {
  return /^https?:\/\//.test(iri) ? el("a", { href: iri, target: "_blank", rel: "noopener" }, text || iri) : el("span", {}, text || iri);
}

function ms(value) {
  return value === undefined || value === null ? "" : `${Math.round(value)} ms`;
}

async function loadEndpoints() {
  const response = await fetch("/endpoints");
  const data = await response.json();
  const select = $("endpoint");
  select.replaceChildren();
  for (const endpoint of data.endpoints) {
    const label = endpoint.description ? `${endpoint.name} (${endpoint.description})` : endpoint.name;
    const option = el("option", { value: endpoint.name }, label);
    if (endpoint.default) option.selected = true;
    select.append(option);
  }
  if (data.allow_any_endpoint) {
    select.append(el("option", { value: "__url__" }, "another endpoint (URL)…"));
  }
  select.addEventListener("change", () => {
    $("endpoint-url").hidden = select.value !== "__url__";
  });
}

// one value: an IRI as a link under its label, a literal as written
function renderValue(answer) {
  if (answer.kind === "iri") {
    const label = answer.label || answer.value;
    return [link(answer.value, label), answer.label ? el("span", { class: "iri" }, " ", answer.value) : ""];
  }
  return [answer.value, answer.language ? ` @${answer.language}` : ""];
}

function renderAnswers(answers) {
  if (!answers || answers.length === 0) return el("p", {}, "(no answer)");
  const list = el("ul", { class: "answers" });
  for (const answer of answers.slice(0, 50)) {
    const item = el("li", {}, ...renderValue(answer));
    for (const [column, cell] of Object.entries(answer.row || {})) {
      item.append(el("span", { class: "row-cell" }, ` · ${column}: `, ...renderValue(cell)));
    }
    list.append(item);
  }
  if (answers.length > 50) list.append(el("li", {}, `… and ${answers.length - 50} more`));
  return list;
}

function candidatesTable(items, heading) {
  if (!items || items.length === 0) return null;
  const table = el("table", {}, el("tr", {}, el("th", {}, "phrase"), el("th", {}, "candidates (score)")));
  for (const item of items) {
    const cells = (item.candidates || []).slice(0, 5).map((c) => el("div", {}, link(c.iri, c.label || c.iri), c.score !== undefined ? ` (${Number(c.score).toFixed(2)})` : "", c.direction ? ` ${c.direction}` : ""));
    table.append(el("tr", {}, el("td", {}, item.phrase || ""), el("td", {}, cells)));
  }
  return el("details", {}, el("summary", {}, heading), table);
}

function renderKgqanEvidence(evidence) {
  const parts = [];
  if (evidence.understanding) {
    parts.push(el("details", {}, el("summary", {}, "Understanding"),
      el("pre", {}, `${evidence.understanding.pattern || ""}\nanswer type: ${evidence.understanding.answer_type || ""}\nsource: ${evidence.understanding.source || ""}`)));
  }
  parts.push(candidatesTable(evidence.entities, "Linked entities"));
  parts.push(candidatesTable(evidence.relations, "Linked relations"));
  if (evidence.sparql) {
    parts.push(el("details", { open: "" }, el("summary", {}, "Generated SPARQL"), el("pre", { class: "sparql" }, evidence.sparql)));
  }
  if (evidence.queries && evidence.queries.length) {
    const list = el("ol", {});
    for (const query of evidence.queries.slice(0, 10)) {
      const answers = Array.isArray(query.answers) ? query.answers.length : query.answers;
      list.append(el("li", {}, `score ${query.score !== undefined ? Number(query.score).toFixed(3) : "?"}, answers ${answers ?? "?"}`,
        query.error ? el("span", { class: "error-text" }, ` (${query.error})`) : null, el("pre", {}, query.sparql || "")));
    }
    parts.push(el("details", {}, el("summary", {}, `Ranked queries (${evidence.queries.length})`), list));
  }
  if (evidence.filtered) parts.push(el("details", {}, el("summary", {}, "Answer-type filter"), el("pre", {}, JSON.stringify(evidence.filtered, null, 2))));
  return parts;
}

function triple(t) {
  return el("div", {}, (t || []).map((x, i) => [i ? " → " : "", link(String(x), String(x))]));
}

function renderHublinkEvidence(evidence) {
  const parts = [];
  if (evidence.index) {
    const idx = evidence.index;
    parts.push(el("p", {}, `index: ${idx.status || idx.state || "?"}`, idx.hubs !== undefined ? `, ${idx.hubs} hubs` : "", idx.paths !== undefined ? `, ${idx.paths} paths` : "", idx.built_at ? `, built ${idx.built_at}` : ""));
  }
  if (evidence.hubs && evidence.hubs.length) {
    const list = el("ol", {});
    for (const hub of evidence.hubs.slice(0, 10)) {
      const paths = el("ul", {});
      for (const path of (hub.paths || []).slice(0, 5)) {
        paths.append(el("li", {}, `${path.text || ""}${path.score !== undefined ? ` (${Number(path.score).toFixed(2)})` : ""}`, (path.triples || []).map(triple)));
      }
      list.append(el("li", {}, link(hub.hub, hub.label || hub.hub), hub.score !== undefined ? ` (${Number(hub.score).toFixed(2)})` : "", paths));
    }
    parts.push(el("details", { open: "" }, el("summary", {}, "Hubs and paths (sources)"), list));
  }
  if (evidence.retrieved_triples && evidence.retrieved_triples.length) {
    const table = el("table", {}, el("tr", {}, el("th", {}, "subject"), el("th", {}, "predicate"), el("th", {}, "object")));
    for (const t of evidence.retrieved_triples.slice(0, 20)) {
      table.append(el("tr", {}, el("td", {}, link(t.subject, t.subject_label || t.subject)), el("td", {}, link(t.predicate, t.predicate_label || t.predicate)), el("td", {}, link(t.object, t.object_label || t.object))));
    }
    parts.push(el("details", {}, el("summary", {}, "Retrieved triples"), table));
  }
  if (evidence.answer_text) parts.push(el("p", {}, evidence.answer_text));
  return parts;
}

function renderPath(name, result) {
  const body = $(`path-${name}`).querySelector(".body");
  body.replaceChildren();
  if (!result) {
    body.append(el("p", {}, "(not run)"));
    return;
  }
  body.append(el("p", {}, el("span", { class: `badge ${result.status}` }, result.status), ` ${ms(result.timings_ms && result.timings_ms.total)}, ${result.sparql_requests} SPARQL requests`));
  if (result.error) body.append(el("p", { class: "error-text" }, `${result.error_kind || "error"}: ${result.error}`));
  body.append(renderAnswers(result.answers));
  const evidence = result.evidence || {};
  body.append(...(name === "kgqan" ? renderKgqanEvidence(evidence) : renderHublinkEvidence(evidence)).filter(Boolean));
  for (const note of result.notes || []) body.append(el("p", { class: "iri" }, `note: ${note}`));
  const timings = Object.entries(result.timings_ms || {}).map(([k, v]) => `${k} ${Math.round(v)} ms`).join(", ");
  if (timings) body.append(el("p", { class: "iri" }, `timings: ${timings}`));
}

let indexTimer = null;

async function pollIndex(endpoint) {
  clearTimeout(indexTimer);
  if (!endpoint || endpoint === "__url__") return;
  try {
    const response = await fetch(`/endpoints/${encodeURIComponent(endpoint)}/index`);
    if (!response.ok) return;
    const data = await response.json();
    const index = data.index || {};
    const box = $("index-status");
    const building = index.state === "building";
    box.hidden = !building;
    if (building) {
      const phase = index.phase ? ` ${index.phase}${index.total ? ` ${index.done}/${index.total}` : ""}` : "";
      const progress = index.progress !== undefined ? `, ${Math.round(Number(index.progress) * 100)}% overall` : "";
      box.textContent = `HubLink index for ${endpoint} is being built (${phase.trim()}${progress}); KGQAN answers meanwhile.`;
      indexTimer = setTimeout(() => pollIndex(endpoint), 2000);
    }
  } catch (error) {
    // index status is informative only
  }
}

async function ask(event) {
  event.preventDefault();
  const question = $("question").value.trim();
  if (!question) return;
  const select = $("endpoint");
  const endpoint = select.value === "__url__" ? $("endpoint-url").value.trim() : select.value;
  const status = $("status");
  status.className = "";
  status.textContent = "Asking…";
  $("ask").disabled = true;
  pollIndex(endpoint);
  const started = performance.now();
  try {
    const response = await fetch("/qa", {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ question, endpoint: endpoint || null, options: { hublink_wait_for_index: false } }),
    });
    const data = await response.json();
    if (!response.ok || data.error) {
      status.className = "error";
      status.textContent = `${data.error_kind || response.status}: ${data.error || response.statusText}`;
      return;
    }
    status.textContent = "";
    $("results").hidden = false;
    $("timings").textContent = `${data.endpoint}: answered in ${ms(data.timings_ms && data.timings_ms.total)} (round trip ${ms(performance.now() - started)})`;
    renderPath("kgqan", data.kgqan);
    renderPath("hublink", data.hublink);
    if (data.hublink && data.hublink.status === "indexing") pollIndex(data.endpoint);
  } catch (error) {
    status.className = "error";
    status.textContent = `request failed: ${error}`;
  } finally {
    $("ask").disabled = false;
  }
}

$("ask-form").addEventListener("submit", ask);
loadEndpoints().catch((error) => {
  $("status").className = "error";
  $("status").textContent = `cannot list endpoints: ${error}`;
});
