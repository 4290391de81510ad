// The puzzle page: asks the server (POST /api/ACTION, JSON) and draws its answers. The
// pictures are the SVG the notebook display makes; the highlights of an explanation's
// steps are drawn over it here, placed by the grid's frame. No library, no build step.
"use strict";

const SVG_NS = "http://www.w3.org/2000/svg";
const $ = (id) => document.getElementById(id);

const state = {
  families: {},     // name -> what /api/families says of it
  explanation: null, // the answer of /api/explain for `explainedText`
  explainedText: null,
  step: 0,          // the step shown (0: the puzzle before any step)
  revealed: 0,      // steps listed: all of them (explain) or those asked for (hint)
  drawTimer: null,
  asked: 0,         // the number of the latest request: older answers are dropped
};

function key() {
  return JSON.stringify([$("family").value, $("text").value, $("distinct").checked]);
}

function request() {
  return { family: $("family").value, text: $("text").value, distinct: $("distinct").checked };
}

function say(text, kind) {
  const message = $("message");
  message.textContent = text;
  message.className = kind || "";
}

async function ask(action, body) {
  const number = ++state.asked;
  let answer;
  let status;
  try {
    const response = await fetch("/api/" + action, {
      method: "POST",
      headers: { "Content-Type": "application/json" },
      body: JSON.stringify(body),
    });
    status = response.status;
    answer = await response.json();
  } catch (error) {
    status = 0;
    answer = { error: "the server does not answer (is conundrum serve still running?)" };
  }
  if (number !== state.asked) return null; // a newer request was made meanwhile
  if (status !== 200 || answer.error) {
    say(answer.error || "error " + status, "error");
    return null;
  }
  return answer;
}

function busy(on) {
  // a button's answer draws the puzzle: a redraw still waiting for the typing to stop
  // would only replace it
  if (on) clearTimeout(state.drawTimer);
  for (const id of ["solve", "hint", "explain", "rate", "unique", "generate"]) {
    $(id).disabled = on;
  }
  if (on) say("working…", "busy");
}

// ----------------------------------------------------------------------------- pictures

function show(picture, where) {
  const board = $(where || "board");
  board.innerHTML = picture ? picture.markup : "";
  board.dataset.rows = picture && picture.rows ? picture.rows : "";
  board.dataset.cols = picture && picture.cols ? picture.cols : "";
  board.dataset.filled = picture && picture.filled ? picture.filled : "";
}

function geometry(board) {
  const svg = board.querySelector("svg");
  const frame = svg && svg.querySelector("rect.frame");
  const rows = Number(board.dataset.rows);
  const cols = Number(board.dataset.cols);
  if (!frame || !rows || !cols) return null;
  const x = Number(frame.getAttribute("x"));
  const y = Number(frame.getAttribute("y"));
  const size = Number(frame.getAttribute("width")) / cols;
  return { svg, x, y, size, rows, cols };
}

function place(name, g) {
  const m = /^r(\d+)c(\d+)$/.exec(name);
  if (!m) return null;
  const r = Number(m[1]) - 1;
  const c = Number(m[2]) - 1;
  if (r >= g.rows || c >= g.cols) return null;
  return { x: g.x + c * g.size, y: g.y + r * g.size };
}

function element(tag, attrs) {
  const node = document.createElementNS(SVG_NS, tag);
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v);
  return node;
}

// marks: [[cells, class, colour]]; values: {cell: text} written in the cells
function overlay(marks, values, latest) {
  const board = $("board");
  const g = geometry(board);
  if (!g) return;
  const under = element("g", { class: "highlights" });
  for (const [cells, cls, colour] of marks) {
    for (const name of cells) {
      const p = place(name, g);
      if (!p) continue;
      under.appendChild(element("rect", {
        class: cls, "data-cell": name, x: p.x, y: p.y, width: g.size, height: g.size,
        fill: colour, "fill-opacity": 0.8,
      }));
    }
  }
  // over the white background, under the lines and the digits
  const background = g.svg.querySelector("rect");
  g.svg.insertBefore(under, background ? background.nextSibling : g.svg.firstChild);
  const over = element("g", { class: "step-values" });
  const filled = board.dataset.filled;
  const size = g.size * 0.5;
  for (const [name, text] of Object.entries(values)) {
    const p = place(name, g);
    if (!p || text === "") continue;
    if (filled && text === filled) {
      over.appendChild(element("rect", {
        class: "step-value", "data-cell": name, "data-text": text, x: p.x, y: p.y,
        width: g.size, height: g.size, fill: "#111",
      }));
      continue;
    }
    const t = element("text", {
      class: "step-value", "data-cell": name, x: p.x + g.size / 2,
      y: p.y + g.size / 2 + 0.35 * size, "font-size": size, "text-anchor": "middle",
      fill: "#1f5fbf", "font-weight": name in latest ? "bold" : "normal",
    });
    t.textContent = text;
    over.appendChild(t);
  }
  g.svg.appendChild(over);
}

// ---------------------------------------------------------------------------- the steps

function hideSteps() {
  $("steps").hidden = true;
  state.explanation = null;
  state.explainedText = null;
  state.step = 0;
  state.revealed = 0;
}

function renderStep() {
  const ex = state.explanation;
  const n = ex.steps.length;
  const k = state.step;
  $("steps").hidden = false;
  $("second").hidden = true;
  $("back").disabled = k === 0;
  $("forward").disabled = k >= state.revealed;
  $("step-count").textContent = "step " + k + " of " + n;
  const values = {};
  for (const step of ex.steps.slice(0, k)) Object.assign(values, step.shows);
  if (k === n && n > 0) {
    show(ex.solved);
    $("board-caption").textContent = "solved";
  } else {
    show(ex.picture);
    $("board-caption").textContent = "";
  }
  const step = k > 0 ? ex.steps[k - 1] : null;
  if (step && k < n) {
    overlay([[step.units, "units", "#fff3b0"], [step.cited, "cited", "#d7e8ff"],
             [step.cells, "cells", "#ffc98a"]], values, step.shows);
  } else if (step) {
    overlay([[step.units, "units", "#fff3b0"], [step.cited, "cited", "#d7e8ff"],
             [step.cells, "cells", "#ffc98a"]], {}, {});
  }
  $("step-text").textContent = step ? k + ". " + step.text
    : n ? "The puzzle as given: " + n + " steps lead to its solution."
      : "Nothing to deduce: the givens settle every value.";
  const list = $("step-list");
  list.textContent = "";
  ex.steps.slice(0, state.revealed).forEach((s, i) => {
    const li = document.createElement("li");
    li.textContent = s.text;
    li.dataset.step = i + 1;
    if (i + 1 === k) li.className = "current";
    li.addEventListener("click", () => { state.step = i + 1; renderStep(); });
    list.appendChild(li);
  });
  const current = list.querySelector("li.current");
  if (current) current.scrollIntoView({ block: "nearest" });
}

async function explanation() {
  if (state.explanation && state.explainedText === key()) return state.explanation;
  const text = key();
  const answer = await ask("explain", request());
  if (!answer) return null;
  if (!answer.unique) {
    say(answer.solutions === "none" ? "no solution: nothing to explain"
      : "more than one solution: an explanation leads to a unique one "
        + "(Check uniqueness shows two)", "error");
    return null;
  }
  state.explanation = answer;
  state.explainedText = text;
  state.step = 0;
  state.revealed = 0;
  return answer;
}

async function explain() {
  busy(true);
  try {
    const ex = await explanation();
    if (!ex) return;
    state.revealed = ex.steps.length;
    state.step = ex.steps.length ? 1 : 0;
    say(ex.steps.length + " steps: step through them with Back and Forward (or ← →)");
    renderStep();
  } finally { busy(false); }
}

async function hint() {
  busy(true);
  try {
    const ex = await explanation();
    if (!ex) return;
    if (state.revealed < state.step) state.revealed = state.step;
    if (state.revealed >= ex.steps.length) {
      say("no more hints: the puzzle is solved");
      state.step = ex.steps.length;
    } else {
      state.revealed += 1;
      state.step = state.revealed;
      say("hint " + state.step + " of " + ex.steps.length);
    }
    renderStep();
  } finally { busy(false); }
}

// ------------------------------------------------------------------------------ buttons

function clashText(answer) {
  if (!answer.conflict) return "no solution";
  let text = "no solution: these clues cannot all hold: " + answer.conflict.join(", ");
  if (answer.correction) text += "\nwithout " + answer.correction.join(" and ") + " it has a solution";
  return text;
}

// the picture comes with the clashing clues marked (rect.clash, drawn by display/svg.py)
function showClash(answer) {
  show(answer.picture);
  say(clashText(answer), "error");
}

async function solve() {
  hideSteps();
  busy(true);
  try {
    const answer = await ask("solve", request());
    if (!answer) return;
    $("second").hidden = true;
    if (answer.found) {
      show(answer.picture);
      say("solved");
    } else {
      showClash(answer);
    }
  } finally { busy(false); }
}

async function unique() {
  hideSteps();
  busy(true);
  try {
    const answer = await ask("unique", request());
    if (!answer) return;
    if (!answer.solutions) {
      $("second").hidden = true;
      showClash(answer);
      return;
    }
    show(answer.pictures[0]);
    $("board-caption").textContent = answer.unique ? "the only solution" : "a solution";
    $("second").hidden = answer.unique;
    show(answer.unique ? null : answer.pictures[1], "board2");
    say(answer.unique ? "unique: the puzzle has exactly one solution"
      : "not unique: here are two different solutions");
  } finally { busy(false); }
}

async function rate() {
  busy(true);
  try {
    const answer = await ask("rate", request());
    if (!answer) return;
    if (!answer.unique) {
      say(answer.solutions === "none" ? "no solution: no grade"
        : "not unique: more than one solution, no grade", "error");
      return;
    }
    const counts = Object.entries(answer.techniques).map(([t, n]) => n + " " + t).join(", ");
    say("grade: " + answer.grade + " · score " + answer.score + " · hardest step: "
      + answer.hardest + " · " + answer.steps + " steps (" + counts + ")");
  } finally { busy(false); }
}

async function generate() {
  busy(true);
  try {
    const body = { family: $("family").value, size: Number($("size").value) || null,
                   difficulty: $("grade").value || null };
    if ($("seed").value !== "") body.seed = Number($("seed").value);
    say("generating…", "busy");
    const answer = await ask("generate", body);
    if (!answer) return;
    $("text").value = answer.text;
    hideSteps();
    await draw();
    say("generated with seed " + answer.seed + ": " + answer.clues + " clues"
      + (answer.grade ? ", " + answer.grade : "") + ", one solution");
  } finally { busy(false); }
}

async function draw() {
  $("second").hidden = true;
  $("board-caption").textContent = "";
  if (!$("text").value.trim()) { show(null); say(""); return; }
  const answer = await ask("draw", request());
  if (!answer) { show(null); return; }
  show(answer.picture);
  say("");
}

function edited() {
  hideSteps();
  clearTimeout(state.drawTimer);
  state.drawTimer = setTimeout(draw, 350);
}

function chooseFamily() {
  const f = state.families[$("family").value];
  $("family-title").textContent = f.title;
  $("distinct-box").hidden = f.name !== "alphametic";
  $("generator").hidden = f.sizes.length === 0;
  $("size").textContent = "";
  for (const n of f.sizes) {
    const o = new Option(n + "×" + n, n, false, n === f.size);
    $("size").appendChild(o);
  }
  $("grade").textContent = "";
  $("grade").appendChild(new Option("any", ""));
  for (const g of f.grades) $("grade").appendChild(new Option(g, g));
  loadSample();
}

function loadSample() {
  $("text").value = state.families[$("family").value].sample;
  hideSteps();
  draw();
}

function keys(event) {
  if ($("steps").hidden || event.target === $("text") || event.target.tagName === "INPUT") return;
  if (event.key === "ArrowRight" && !$("forward").disabled) { state.step += 1; renderStep(); }
  if (event.key === "ArrowLeft" && !$("back").disabled) { state.step -= 1; renderStep(); }
}

async function start() {
  const response = await fetch("/api/families");
  const families = (await response.json()).families;
  for (const f of families) {
    state.families[f.name] = f;
    $("family").appendChild(new Option(f.name, f.name));
  }
  $("family").addEventListener("change", chooseFamily);
  $("text").addEventListener("input", edited);
  $("distinct").addEventListener("change", edited);
  $("sample").addEventListener("click", loadSample);
  $("solve").addEventListener("click", solve);
  $("hint").addEventListener("click", hint);
  $("explain").addEventListener("click", explain);
  $("rate").addEventListener("click", rate);
  $("unique").addEventListener("click", unique);
  $("generate").addEventListener("click", generate);
  $("back").addEventListener("click", () => { state.step -= 1; renderStep(); });
  $("forward").addEventListener("click", () => { state.step += 1; renderStep(); });
  document.addEventListener("keydown", keys);
  const wanted = new URLSearchParams(location.search).get("family");
  if (wanted && state.families[wanted]) $("family").value = wanted;
  chooseFamily();
  document.body.dataset.ready = "yes";
}

document.addEventListener("DOMContentLoaded", start);
