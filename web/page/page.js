// The comparison page: sends JSON requests to placemat-web (the compiler and
// runtime compiled to WebAssembly, inlined above) and draws the answers. The
// state lives in the address's fragment: #text=…&codecs=…&codec=…&spec=…
"use strict";

const MAX_COLUMNS = 200;
let wasm = null;
let codecs = [];
const state = { text: "añ€😀", shown: null, selected: "utf8", spec: "", specName: null };

async function load() {
  const base64 = document.getElementById("wasm").textContent.trim();
  const packed = Uint8Array.from(atob(base64), (c) => c.charCodeAt(0));
  const stream = new Blob([packed]).stream().pipeThrough(new DecompressionStream("gzip"));
  const bytes = await new Response(stream).arrayBuffer();
  const { instance } = await WebAssembly.instantiate(bytes, {});
  wasm = instance.exports;
}

function call(request) {
  const bytes = new TextEncoder().encode(JSON.stringify(request));
  const at = wasm.placemat_request(bytes.length);
  new Uint8Array(wasm.memory.buffer, at, bytes.length).set(bytes);
  const len = wasm.placemat_respond();
  const answer = JSON.parse(new TextDecoder().decode(new Uint8Array(wasm.memory.buffer, wasm.placemat_answer(), len)));
  if (answer.error) throw new Error(answer.error);
  return answer;
}

const $ = (id) => document.getElementById(id);
const esc = (s) => String(s).replace(/[&<>"]/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;" })[c]);
const hexOf = (v) => "U+" + v.toString(16).toUpperCase().padStart(4, "0");
const values = () => Array.from(state.text, (c) => c.codePointAt(0));

function debounce(f, ms) {
  let timer = null;
  return (...args) => { clearTimeout(timer); timer = setTimeout(() => f(...args), ms); };
}

// --- the address's fragment -------------------------------------------------

function readFragment() {
  const p = new URLSearchParams(location.hash.slice(1));
  if (p.has("text")) state.text = p.get("text");
  if (p.has("codecs")) state.shown = p.get("codecs").split(",").filter((n) => n);
  if (p.has("codec")) state.selected = p.get("codec");
  if (p.has("spec")) state.spec = p.get("spec");
}

function writeFragment() {
  const p = new URLSearchParams();
  p.set("text", state.text);
  if (state.shown) p.set("codecs", state.shown.join(","));
  p.set("codec", state.selected);
  if (state.spec) p.set("spec", state.spec);
  history.replaceState(null, "", "#" + p.toString());
}

// --- the rows ---------------------------------------------------------------

function unitHtml(u, index) {
  let bits = "";
  if (u.radix !== null) {
    bits = `<span class="digit" title="a digit unit: digit ${u.digit} of radix ${u.radix}">${u.digit}/${u.radix}</span>`;
  } else {
    for (let bit = u.width - 1; bit >= 0; bit--) {
      const kind = (u.fixed >> bit) & 1 ? "f" : (u.payload >> bit) & 1 ? "p" : "o";
      bits += `<b class="${kind}">${(u.digit >> bit) & 1}</b>`;
    }
  }
  const mapped = u.digit !== u.byte && u.radix === null
    ? `<span class="mapped">digit ${u.digit.toString(16).padStart(2, "0")}</span>` : "";
  const hex = u.byte.toString(16).padStart(2, "0");
  return `<span class="unit" data-offset="${index}"><span class="hex">${hex}</span>${mapped}<span class="bits">${bits}</span></span>`;
}

function rowHtml(row, columns) {
  let offset = 0;
  const why = [];
  let cells = "";
  row.cells.forEach((cell, i) => {
    if (cell.refused) {
      why.push(`${esc(cell.refused)}`);
      if (i < columns) cells += `<td class="refused" title="${esc(cell.refused)}">✗</td>`;
      return;
    }
    if (i < columns) cells += `<td title="${esc(cell.form)}">${cell.units.map((u, k) => unitHtml(u, offset + k)).join("")}</td>`;
    offset += cell.units.length;
  });
  const cls = (row.spec ? "spec " : "") + (row.name === selectedName() ? "selected" : "");
  return `<tr class="${cls}" data-codec="${esc(row.name)}" data-bytes="${row.hex}" data-spec="${row.spec}">` +
    `<th><button title="${esc(row.summary)}">${esc(row.name)}</button></th><td class="length">${row.length}</td>` +
    cells + `<td class="why">${[...new Set(why)].join("<br>")}</td></tr>`;
}

function selectedName() {
  return state.selected === "spec" ? state.specName : state.selected;
}

let lastRows = [];

function renderRows() {
  const vs = values();
  const shown = state.shown || codecs.map((c) => c.name);
  let answer;
  try {
    answer = call({ op: "rows", values: vs, codecs: shown, spec: state.spec || null });
  } catch (e) {
    $("rows-note").textContent = e.message;
    return;
  }
  lastRows = answer.rows;
  const columns = Math.min(vs.length, MAX_COLUMNS);
  let head = "<tr><th>codec</th><th>bytes</th>";
  for (const v of vs.slice(0, columns)) {
    const ch = v >= 0x20 && !(v >= 0xd800 && v <= 0xdfff) ? String.fromCodePoint(v) : "·";
    head += `<th><span class="char">${esc(ch)}</span>${hexOf(v)}</th>`;
  }
  head += "<th>cannot encode</th></tr>";
  $("rows").tHead.innerHTML = head;
  $("rows").tBodies[0].innerHTML = answer.rows.map((r) => rowHtml(r, columns)).join("");
  $("rows-note").textContent = vs.length > columns
    ? `The first ${columns} of ${vs.length} characters are shown; the byte counts cover all of them.` : "";
  if (!$("hex").matches(":focus")) showHex();
  renderDetail();
}

function showHex() {
  const row = lastRows.find((r) => r.name === $("hex-codec").value && !r.spec);
  $("hex").value = row ? row.hex : "";
  $("hex-status").textContent = "";
}

// --- the hex box: bytes decoded into the text ----------------------------------

function readHex() {
  let answer;
  try {
    answer = call({ op: "decode", codec: $("hex-codec").value, hex: $("hex").value });
  } catch (e) {
    $("hex-status").textContent = e.message;
    return;
  }
  const errors = answer.items.filter((i) => i.error);
  $("hex-status").textContent = errors.length ? errors[0].error + (errors.length > 1 ? ` (and ${errors.length - 1} more)` : "") : "";
  state.text = answer.items.map((i) => {
    if (i.error) return "\uFFFD";
    const v = i.value.startsWith("U+") ? parseInt(i.value.slice(2), 16) : Number(i.value);
    return v >= 0 && v <= 0x10ffff ? String.fromCodePoint(v) : "\uFFFD";
  }).join("");
  $("text").value = state.text;
  writeFragment();
  renderRows();
}

// --- the selected codec: automaton, trace, damage -----------------------------

function codecRequest(extra) {
  const base = state.selected === "spec" ? { from_spec: true, spec: state.spec } : { codec: state.selected };
  return Object.assign(base, extra);
}

function renderDetail() {
  const row = lastRows.find((r) => r.name === selectedName() && r.spec === (state.selected === "spec"));
  if (!row) { $("detail").hidden = true; return; }
  $("detail").hidden = false;
  $("detail").dataset.codec = row.name;
  $("detail-title").textContent = row.name;
  $("detail-summary").textContent = row.summary;
  let answer;
  try {
    answer = call(codecRequest({ op: "trace", hex: row.hex }));
  } catch (e) {
    $("trace").textContent = e.message;
    $("automaton").innerHTML = "";
    return;
  }
  $("trace").textContent = answer.trace;
  $("automaton").innerHTML = (answer.svg || `<p>${answer.states - 1} states: too many to draw.</p>`) +
    `<p>${answer.classes} unit classes × ${answer.states} states (the dead state included).</p>`;
  $("damage").innerHTML = "";
}

function applyDamage() {
  const row = lastRows.find((r) => r.name === selectedName());
  if (!row) return;
  let answer;
  try {
    answer = call(codecRequest({
      op: "damage", hex: row.hex, at: Number($("damage-at").value), action: $("damage-action").value,
      bit: Number($("damage-bit").value), byte: parseInt($("damage-byte").value, 16) || 0,
    }));
  } catch (e) {
    $("damage").innerHTML = `<p class="error">${esc(e.message)}</p>`;
    return;
  }
  const div = $("damage");
  div.dataset.bytes = answer.hex;
  div.dataset.errorOffset = answer.first_error === null ? "" : answer.first_error;
  div.dataset.resync = answer.resync === null ? "" : answer.resync;
  const bytes = answer.hex ? answer.hex.split(" ") : [];
  const mark = new Array(bytes.length).fill("");
  for (const item of answer.items) {
    for (let k = item.offset; k < item.offset + item.len; k++) if (item.error) mark[k] = "err";
  }
  if (answer.resync !== null) mark[answer.resync] += " resync";
  const units = bytes.map((b, k) => `<span class="unit ${mark[k]}"><span class="hex">${b}</span></span>`).join("");
  const firstError = answer.items.find((i) => i.error);
  let text = `<p class="units">${units}</p>`;
  text += firstError
    ? `<p class="error-report">The decoder reports an error at offset ${firstError.offset}: <code>${esc(firstError.error)}</code></p>`
    : `<p class="error-report">The decoder reports no error: the damage decodes as other values.</p>`;
  text += answer.resync !== null
    ? `<p class="resync">Back in step at offset ${answer.resync}: ${answer.lost} value(s) lost or changed, ${answer.damaged} item(s) decoded in their place.</p>`
    : `<p class="resync">Not back in step before the end: ${answer.lost} value(s) lost or changed.</p>`;
  text += `<p>Decoded: ${answer.items.map((i) => (i.error ? "<b class=\"err\">error</b>" : esc(i.value))).join(" ")}</p>`;
  div.innerHTML = text;
}

// --- the description editor ---------------------------------------------------

function renderSpec() {
  const errors = $("spec-errors");
  const facts = $("spec-facts");
  state.specName = null;
  if (!state.spec.trim()) {
    errors.textContent = "";
    facts.innerHTML = "";
    return;
  }
  const answer = call({ op: "describe", spec: state.spec });
  if (!answer.ok) {
    errors.textContent = answer.rendered;
    errors.dataset.errors = answer.errors.length;
    facts.innerHTML = "";
    return;
  }
  errors.textContent = "";
  errors.dataset.errors = 0;
  state.specName = answer.name;
  const rows = answer.properties.map((p) => `<tr data-property="${esc(p.key)}"><td>${esc(p.label)}</td><td>${esc(p.value)}</td></tr>`);
  const summary = answer.summary ? `: ${esc(answer.summary)}` : "";
  facts.innerHTML = `<p data-classes="${answer.classes}" data-states="${answer.states}"><b>${esc(answer.name)}</b>${summary}. ` +
    `Its automaton: ${answer.classes} unit classes × ${answer.states} states. What <code>placemat compare</code> says of it:</p>` +
    `<table>${rows.join("")}</table>`;
}

const specChanged = debounce(() => {
  state.spec = $("spec").value;
  renderSpec();
  writeFragment();
  renderRows();
}, 300);

// --- wiring -------------------------------------------------------------------

function fillCodecLists() {
  const options = codecs.map((c) => `<option value="${esc(c.name)}">${esc(c.name)}</option>`).join("");
  $("hex-codec").innerHTML = options;
  $("hex-codec").value = codecs.some((c) => c.name === state.selected) ? state.selected : "utf8";
  $("spec-example").innerHTML += options;
  const shown = state.shown || codecs.map((c) => c.name);
  $("codec-list").innerHTML = codecs.map((c) =>
    `<label><input type="checkbox" value="${esc(c.name)}" ${shown.includes(c.name) ? "checked" : ""}> ${esc(c.name)}</label>`).join("");
}

function wire() {
  $("text").addEventListener("input", () => { state.text = $("text").value; writeFragment(); renderRows(); });
  $("hex").addEventListener("input", debounce(readHex, 250));
  $("hex-codec").addEventListener("change", showHex);
  $("codec-list").addEventListener("change", () => {
    const checked = [...$("codec-list").querySelectorAll("input:checked")].map((i) => i.value);
    state.shown = checked.length === codecs.length ? null : checked;
    writeFragment();
    renderRows();
  });
  $("rows").addEventListener("click", (e) => {
    const tr = e.target.closest("tr[data-codec]");
    if (!tr) return;
    const unit = e.target.closest(".unit");
    if (e.target.closest("th button")) {
      state.selected = tr.dataset.spec === "true" ? "spec" : tr.dataset.codec;
      writeFragment();
      renderRows();
    } else if (unit && tr.dataset.codec === selectedName()) {
      $("damage-at").value = unit.dataset.offset;
    }
  });
  $("damage-apply").addEventListener("click", applyDamage);
  $("spec").addEventListener("input", specChanged);
  $("spec-example").addEventListener("change", () => {
    const c = codecs.find((c) => c.name === $("spec-example").value);
    if (!c) return;
    $("spec").value = c.description;
    specChanged();
  });
  window.addEventListener("hashchange", () => { readFragment(); showState(); });
}

function showState() {
  $("text").value = state.text;
  $("spec").value = state.spec;
  renderSpec();
  renderRows();
}

async function main() {
  readFragment();
  await load();
  codecs = call({ op: "codecs" }).codecs;
  fillCodecLists();
  wire();
  showState();
  const ms = Math.round(performance.now());
  document.body.dataset.firstRenderMs = ms;
  $("status").textContent = `${codecs.length} built-in codecs; page ready ${ms} ms after it began loading.`;
}

main().catch((e) => {
  $("status").textContent = "The page could not start: " + e.message;
  document.body.dataset.failed = e.message;
});
