#!/usr/bin/env node
/*
 * Turns the JSON lines of `node drive.js ... survey` into a Markdown inventory:
 * one row per ADTClient method (variants folded together), with the requests the
 * library sent, the server's answers and the category.
 *
 *   node drive.js --url URL survey > run.jsonl && node summarize.js run.jsonl
 *   node drive.js --url URL survey | node summarize.js
 *
 * A method's category is the worst of its steps: BROKEN > 404-MISSING > WORKS
 * (OUT-OF-SCOPE steps stay OUT-OF-SCOPE).
 */
"use strict";

const fs = require("fs");

const input = process.argv[2] ? fs.readFileSync(process.argv[2], "utf8") : fs.readFileSync(0, "utf8");
const steps = input.split("\n").filter(Boolean).map(l => JSON.parse(l))
  .filter(l => l.scenario === "survey" && l.detail && l.detail.category);

const RANK = { BROKEN: 3, "404-MISSING": 2, WORKS: 1, "OUT-OF-SCOPE": 0 };
const methods = new Map();
for (const s of steps) {
  const name = s.detail.method;
  if (!methods.has(name)) methods.set(name, { name, area: s.detail.area, steps: [] });
  methods.get(name).steps.push(s);
}

const esc = x => String(x === undefined || x === null ? "" : x).replace(/\|/g, "\\|").replace(/\n/g, " ");
const cut = (x, n) => (x.length > n ? x.slice(0, n) + "…" : x);

function requestText(h) {
  const [verb, url] = h.request.split(" ");
  const [path, query] = url.split("?");
  const q = query ? "?" + cut(decodeURIComponent(query.replace(/\+/g, " ")), 70) : "";
  return `${verb} ${path}${q}`;
}

function answerText(s) {
  const http = s.detail.http || [];
  const last = http.length ? http[http.length - 1] : undefined;
  let t = last ? `${last.status}${last.bytes === 0 ? " (0 bytes)" : ""}` : "no request";
  if (s.error) {
    const e = s.error;
    t += `; ${e.kind}${e.message ? ": " + cut(e.message, 90) : ""}`;
  } else if (s.detail.note) t += `; ${cut(s.detail.note, 90)}`;
  return t;
}

const rows = [];
const counts = { WORKS: 0, "404-MISSING": 0, BROKEN: 0, "OUT-OF-SCOPE": 0 };
for (const m of methods.values()) {
  const category = m.steps.map(s => s.detail.category).reduce((a, b) => (RANK[b] > RANK[a] ? b : a));
  counts[category]++;
  const reqs = new Map();
  for (const s of m.steps)
    for (const h of s.detail.http || []) {
      const key = requestText(h);
      if (!reqs.has(key)) reqs.set(key, `${h.accept ? "A: " + h.accept : ""}${h.contentType ? (h.accept ? "; " : "") + "CT: " + h.contentType : ""}`);
    }
  const reqCol = [...reqs.keys()].slice(0, 4).map(r => "`" + esc(r) + "`").join("<br>") + (reqs.size > 4 ? `<br>(+${reqs.size - 4} more)` : "");
  const hdrCol = [...new Set(reqs.values())].filter(Boolean).slice(0, 2).map(esc).join("<br>");
  const answers = m.steps.map(s => (m.steps.length > 1 ? `${esc(s.step)}: ` : "") + esc(answerText(s))).join("<br>");
  rows.push(`| \`${esc(m.name)}\` | ${esc(m.area)} | ${reqCol || "(none)"} | ${hdrCol} | ${answers} | **${category}** |`);
}

const stepCounts = { WORKS: 0, "404-MISSING": 0, BROKEN: 0, "OUT-OF-SCOPE": 0 };
for (const s of steps) stepCounts[s.detail.category]++;

process.stdout.write([
  `Methods: ${methods.size} — ` + Object.entries(counts).map(([k, v]) => `${k} ${v}`).join(", "),
  `Steps: ${steps.length} — ` + Object.entries(stepCounts).map(([k, v]) => `${k} ${v}`).join(", "),
  "",
  "| Method | Area | Request(s) sent | Accept / Content-Type | Emulator answer | Category |",
  "|---|---|---|---|---|---|",
  ...rows,
  ""
].join("\n"));
