#!/usr/bin/env node
/*
 * Conformance driver: runs the independent npm client `abap-adt-api` (pinned to
 * 8.4.3 in package.json) against an ADT server — normally our emulator — and prints
 * one JSON line per step:
 *
 *   {"scenario": "...", "step": "...", "ok": true|false, "error"?: {...}, "detail"?: {...}}
 *
 * Usage:
 *   node drive.js [--url URL] [--user USER] [--password PW] [--client NNN]
 *                 [--language XX] [--timeout SECONDS] [--quiet-http] [scenario ...]
 *   node drive.js --list
 *
 * Every option can come from the environment instead: ADT_URL, ADT_USER,
 * ADT_PASSWORD, ADT_CLIENT, ADT_LANGUAGE, ADT_TIMEOUT. Defaults: user DEVELOPER,
 * password developer, client 001. The URL has no default.
 *
 * Scenarios (default: all four, in this order):
 *   edit-cycle  login → objectStructure → getObjectSource → stateful → lock →
 *               setObjectSource → unLock → stateless (ends the context) → activate →
 *               getObjectSource (active) → searchObject → syntaxCheck; then a second
 *               client: stateful lock → dropSession() → requests, twice.
 *   dev-loop    first at a real call in ZCL_DEMO_GREETER: codeCompletion /
 *               codeCompletionFull / codeCompletionElement, findDefinition (definition,
 *               implementation), usageReferences + usageReferenceSnippets; then a new
 *               class in the transportable package ZDEMO_TR: createTransport →
 *               transportInfo → validateNewObject → createObject (with the request) →
 *               stateful lock → createTestInclude → setObjectSource ×2 (with the lock
 *               handle and the request) → unLock → stateless → activate → unitTestRun
 *               (one test passes, one fails) → codeCompletion / codeCompletionFull /
 *               findDefinition / classComponents / findObjectPath / usageReferences +
 *               snippets in that class → pretty
 *               printer under two settings → lock → deleteObject (with the request) →
 *               404 → transportDetails lists the class in the request.
 *   survey      calls (almost) every public ADTClient method with plausible
 *               arguments for the emulator's sample objects; each step carries
 *               detail.category = WORKS | 404-MISSING | BROKEN | OUT-OF-SCOPE.
 *   defects     regressions for the emulator defects (i)–(iv) found earlier (fixed now).
 *
 * Every scenario changes the emulator's state (edit-cycle adds a comment line to
 * ZCL_DEMO_GREETER, dev-loop creates a transport request and creates and deletes a
 * class, the survey deletes one object: the one it created, or else ZCL_DEMO_LARGE), so
 * run them against a fresh emulator (edit-cycle and dev-loop may share one, in that
 * order, as tests/conformance/test_abap_adt_api.py runs them). The exit code is 0 when
 * the driver itself ran to the end (failing steps are data, not driver errors), 2 on bad
 * arguments.
 */
"use strict";

const api = require("abap-adt-api");
const { ADTClient, session_types } = api;

// ---------------------------------------------------------------------------------
// arguments
// ---------------------------------------------------------------------------------
const SCENARIOS = ["edit-cycle", "dev-loop", "survey", "defects", "cds"];

function parseArgs(argv) {
  const opts = {
    url: process.env.ADT_URL || "",
    user: process.env.ADT_USER || "DEVELOPER",
    password: process.env.ADT_PASSWORD || "developer",
    client: process.env.ADT_CLIENT || "001",
    language: process.env.ADT_LANGUAGE || "",
    timeout: Number(process.env.ADT_TIMEOUT || 20),
    fixture: "",
    quietHttp: false,
    list: false,
    scenarios: []
  };
  const valued = { "--url": "url", "--user": "user", "--password": "password",
    "--client": "client", "--language": "language", "--timeout": "timeout", "--fixture": "fixture" };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i];
    const [flag, inline] = a.startsWith("--") && a.includes("=") ? a.split(/=(.*)/s) : [a, undefined];
    if (valued[flag]) {
      const v = inline !== undefined ? inline : argv[++i];
      if (v === undefined) usage(`missing value for ${flag}`);
      opts[valued[flag]] = flag === "--timeout" ? Number(v) : v;
    } else if (flag === "--quiet-http") opts.quietHttp = true;
    else if (flag === "--list") opts.list = true;
    else if (flag === "-h" || flag === "--help") usage();
    else if (SCENARIOS.includes(a)) opts.scenarios.push(a);
    else usage(`unknown argument ${a}`);
  }
  // "cds" needs the emulator seeded with tests/fixtures/kinds (--fixture names that folder)
  if (!opts.scenarios.length) opts.scenarios = SCENARIOS.filter(name => name !== "cds");
  if (!opts.list && !opts.url) usage("no server URL (use --url or ADT_URL)");
  opts.url = opts.url.replace(/\/+$/, "");
  return opts;
}

function usage(message) {
  const text = [
    "usage: node drive.js [--url URL] [--user USER] [--password PW] [--client NNN]",
    "                     [--language XX] [--timeout SECONDS] [--quiet-http]",
    "                     [--fixture FOLDER (for cds: the seeded abapGit folder)]",
    `                     [${SCENARIOS.join("|")} ...]`,
    "       node drive.js --list",
    "env: ADT_URL ADT_USER ADT_PASSWORD ADT_CLIENT ADT_LANGUAGE ADT_TIMEOUT"
  ].join("\n");
  if (message) {
    process.stderr.write(`drive.js: ${message}\n${text}\n`);
    process.exit(2);
  }
  process.stdout.write(text + "\n");
  process.exit(0);
}

const OPTS = parseArgs(process.argv.slice(2));

// abap-adt-api itself prints with console.log (e.g. changePackagePreview); keep stdout
// for the JSON lines only.
console.log = (...args) => process.stderr.write(`[abap-adt-api console] ${args.map(a => typeof a === "string" ? a : JSON.stringify(a)).join(" ")}\n`);

// ---------------------------------------------------------------------------------
// output and HTTP recording
// ---------------------------------------------------------------------------------
function emit(line) {
  process.stdout.write(JSON.stringify(line) + "\n");
}

function header(headers, name) {
  if (!headers) return undefined;
  if (typeof headers.get === "function") {
    const v = headers.get(name);
    if (v !== undefined && v !== null) return v;
  }
  const want = name.toLowerCase();
  for (const k of Object.keys(headers)) if (k.toLowerCase() === want) return headers[k];
  return undefined;
}

function contextIdIn(cookieHeader) {
  const m = /(?:^|;\s*)sap-contextid=([^;]*)/.exec(cookieHeader || "");
  return m ? decodeURIComponent(m[1]) : undefined;
}

function short(s, n = 160) {
  s = String(s);
  return s.length > n ? s.slice(0, n) + `…(+${s.length - n})` : s;
}

/** Every HTTP exchange of every client ends up here; steps slice it. */
const HTTP_LOG = [];

function recordExchange(ax, config, response, error) {
  let uri = config && config.url;
  try {
    uri = ax.getUri(config).replace(OPTS.url, "");
  } catch (e) { /* keep the raw url */ }
  const reqHeaders = (config && config.headers) || {};
  const entry = {
    request: `${String((config && config.method) || "GET").toUpperCase()} ${uri}`,
    accept: header(reqHeaders, "Accept"),
    contentType: header(reqHeaders, "Content-Type"),
    sessionType: header(reqHeaders, "X-sap-adt-sessiontype"),
    sentContextId: contextIdIn(header(reqHeaders, "Cookie"))
  };
  if (config && config.data !== undefined && config.data !== null && config.data !== "")
    entry.requestBodyBytes = Buffer.byteLength(String(config.data));
  if (response) {
    const data = response.data;
    const body = data === undefined || data === null ? "" : typeof data === "string" ? data : JSON.stringify(data);
    entry.status = response.status;
    entry.statusText = response.statusText;
    entry.responseType = header(response.headers, "content-type");
    entry.bytes = Buffer.byteLength(body);
    const setCookies = header(response.headers, "set-cookie") || [];
    const ctx = setCookies.filter(c => /^sap-contextid=/.test(c));
    if (ctx.length) entry.setContextId = ctx;
    const icm = header(response.headers, "x-sap-icm-err-id");
    if (icm) entry.icmError = icm;
    if (response.status >= 400 || entry.bytes < 400) entry.body = short(body.replace(/\s+/g, " "), 300);
  } else if (error) {
    entry.status = 0;
    entry.transportError = `${error.code || ""} ${error.message || error}`.trim();
  }
  HTTP_LOG.push(entry);
}

function attachRecorder(client) {
  const ax = client.httpClient && client.httpClient.httpclient && client.httpClient.httpclient.axios;
  if (!ax || ax.__conformanceRecorder) return;
  ax.__conformanceRecorder = true;
  ax.interceptors.response.use(
    r => { recordExchange(ax, r.config, r); return r; },
    e => { recordExchange(ax, e && e.config, e && e.response, e); return Promise.reject(e); }
  );
}

function newClient() {
  const c = new ADTClient(OPTS.url, OPTS.user, OPTS.password, OPTS.client, OPTS.language);
  attachRecorder(c);
  return c;
}

function jarContextId(client) {
  return contextIdIn(client.httpClient.ascookies());
}

function errorInfo(e) {
  if (e === null || e === undefined) return { message: String(e) };
  const info = {};
  if (api.isAdtError(e)) info.kind = "AdtErrorException";
  else if (api.isHttpError(e)) info.kind = "AdtHttpException";
  else if (api.isCsrfError(e)) info.kind = "AdtCsrfException";
  else info.kind = (e.constructor && e.constructor.name) || typeof e;
  if (typeof e.err === "number" && e.err) info.status = e.err;
  else if (typeof e.status === "number" && e.status) info.status = e.status;
  if (e.type) info.adtType = e.type;
  info.message = short(e.message || String(e), 300);
  if (e.properties && Object.keys(e.properties).length) {
    const p = {};
    for (const [k, v] of Object.entries(e.properties)) if (k !== "LONGTEXT") p[k] = short(v, 80);
    info.properties = p;
  }
  if (info.kind === "TypeError" || info.kind === "SyntaxError" || info.kind === "RangeError")
    info.stackTop = short(String(e.stack || "").split("\n").slice(1, 3).map(s => s.trim()).join(" | "), 200);
  return info;
}

/** A short, JSON-friendly note on the shape of a result. */
function shape(x, depth = 0) {
  if (x === undefined) return "undefined";
  if (x === null) return "null";
  if (typeof x === "string") return `string(${x.length}) ${JSON.stringify(short(x, 60))}`;
  if (typeof x !== "object") return `${typeof x} ${JSON.stringify(x)}`;
  if (Array.isArray(x)) {
    if (!x.length) return "array(0)";
    return `array(${x.length}) of ${depth < 1 ? shape(x[0], depth + 1) : typeof x[0]}`;
  }
  const keys = Object.keys(x);
  if (depth >= 1) return `{${keys.slice(0, 8).join(",")}${keys.length > 8 ? ",…" : ""}}`;
  return "{" + keys.slice(0, 10).map(k => `${k}: ${shape(x[k], depth + 1)}`).join("; ") + (keys.length > 10 ? "; …" : "") + "}";
}

function withTimeout(promise, seconds, what) {
  let timer;
  const t = new Promise((_, reject) => {
    timer = setTimeout(() => reject(new Error(`driver timeout after ${seconds}s in ${what}`)), seconds * 1000);
  });
  return Promise.race([promise, t]).finally(() => clearTimeout(timer));
}

class ShapeError extends Error {
  constructor(message) { super(message); this.name = "ShapeError"; }
}
function expectShape(cond, message) {
  if (!cond) throw new ShapeError(message);
}

/**
 * Runs one step: fn() → result; check(result) → note (throws ShapeError when the
 * result is not what the library should return). Returns {ok, result, error, http}.
 */
async function runStep(scenario, step, fn, { check, extra, quietHttp, classify } = {}) {
  const start = HTTP_LOG.length;
  let ok = true, result, error, note;
  try {
    result = await withTimeout(Promise.resolve().then(fn), OPTS.timeout, step);
    if (check) note = check(result);
  } catch (e) {
    ok = false;
    error = e instanceof ShapeError ? { kind: "ShapeError", message: e.message } : errorInfo(e);
  }
  const http = HTTP_LOG.slice(start);
  const detail = Object.assign({}, extra ? extra(result, http) : {});
  if (ok || result !== undefined) detail.result = shape(result);
  if (note) detail.note = note;
  if (classify) {
    detail.category = classify(ok, http, error);
    detail.status = lastStatus(http);
  }
  if (!quietHttp && !OPTS.quietHttp) detail.http = http;
  const line = { scenario, step, ok };
  if (error) line.error = error;
  line.detail = detail;
  emit(line);
  return { ok, result, error, http, line };
}

// ---------------------------------------------------------------------------------
// sample objects
// ---------------------------------------------------------------------------------
const ADT = "/sap/bc/adt";
const CLS = `${ADT}/oo/classes/zcl_demo_greeter`;
const CLS_MAIN = `${CLS}/source/main`;
const COUNTER = `${ADT}/oo/classes/zcl_demo_counter`;
const LARGE = `${ADT}/oo/classes/zcl_demo_large`;
const INTF = `${ADT}/oo/interfaces/zif_demo_greeting`;
const PROG = `${ADT}/programs/programs/zdemo_report`;
const PROG_MAIN = `${PROG}/source/main`;
const INCL = `${ADT}/programs/includes/zdemo_include`;
const FUGR = `${ADT}/functions/groups/zdemo_fg`;
const FM = `${FUGR}/fmodules/z_demo_add`;
const FINC = `${FUGR}/includes/lzdemo_fgtop`;
const TRPROG = `${ADT}/programs/programs/zdemo_tr_report`;
const MARKER = '" abap-adt-api conformance edit';

function withMarker(source) {
  const lines = source.split(/\r?\n/).filter(l => l !== MARKER);
  while (lines.length && lines[lines.length - 1] === "") lines.pop();
  return lines.join("\n") + "\n" + MARKER + "\n";
}

/** 1-based line and 0-based column of the first `word` (case-insensitive) in source. */
function position(source, word, fromLine = 1) {
  const lines = source.split(/\r?\n/);
  for (let i = fromLine - 1; i < lines.length; i++) {
    const col = lines[i].toLowerCase().indexOf(word.toLowerCase());
    if (col >= 0) return { line: i + 1, column: col, endColumn: col + word.length };
  }
  return { line: 1, column: 0, endColumn: 1 };
}

// ---------------------------------------------------------------------------------
// scenario: edit-cycle
// ---------------------------------------------------------------------------------
async function editCycle() {
  const S = "edit-cycle";
  const c = newClient();
  const jar = () => ({ jarContextId: jarContextId(c) === undefined ? null : jarContextId(c) });
  let source = "", handle = "", mainUrl = CLS_MAIN;

  await runStep(S, "login", () => c.login(), { extra: jar });
  await runStep(S, "objectStructure", () => c.objectStructure(CLS), {
    check: r => {
      expectShape(r && r.metaData && r.metaData["adtcore:name"] === "ZCL_DEMO_GREETER", "metaData adtcore:name missing");
      mainUrl = ADTClient.mainInclude(r);
      return `includes=${r.includes.length}, mainInclude=${mainUrl}`;
    }
  });
  await runStep(S, "getObjectSource", async () => (source = await c.getObjectSource(mainUrl)), {
    check: r => { expectShape(/CLASS zcl_demo_greeter DEFINITION/i.test(r), "not the class source"); return `${r.split(/\r?\n/).length} lines`; }
  });
  await runStep(S, "stateful switch", () => { c.stateful = session_types.stateful; return c.isStateful; },
    { extra: () => ({ note: "no request; next requests carry X-sap-adt-sessiontype: stateful" }) });
  await runStep(S, "lock", async () => (handle = (await c.lock(CLS)).LOCK_HANDLE), {
    check: r => {
      expectShape(typeof r === "string" && r.length > 0, "no LOCK_HANDLE");
      expectShape(liveContext(c), "the stateful LOCK did not open a context (no sap-contextid cookie)");
      return `LOCK_HANDLE ${r}`;
    },
    extra: jar
  });
  const edited = withMarker(source);
  await runStep(S, "setObjectSource", () => c.setObjectSource(mainUrl, edited, handle), { extra: jar });
  await runStep(S, "unLock", () => c.unLock(CLS, handle), { extra: jar });
  await runStep(S, "stateless switch", () => { c.stateful = session_types.stateless; return c.isStateful; }, {
    check: r => { expectShape(r === false, "still stateful"); return "stateless"; },
    extra: () => Object.assign(jar(), {
      note: "no request; the next request carries the live sap-contextid with X-sap-adt-sessiontype: stateless, " +
        "ends the context and gets the deletion cookie sap-contextid=0; expires=…1970…, which abap-adt-api stores as sap-contextid=0"
    })
  });
  await runStep(S, "activate", () => c.activate("ZCL_DEMO_GREETER", CLS), {
    check: r => {
      expectShape(r && r.success === true, `activation not successful: ${JSON.stringify(r).slice(0, 200)}`);
      expectShape(jarContextId(c) === "0", `the first stateless request did not end the context (jar: ${jarContextId(c)})`);
      return `success, ${r.messages.length} messages; the context ended`;
    },
    extra: jar
  });
  await runStep(S, "getObjectSource (active)", () => c.getObjectSource(mainUrl, { version: "active" }), {
    check: r => { expectShape(r.includes(MARKER), "active source lacks the edit"); return "active source contains the edit"; },
    extra: jar
  });
  await runStep(S, "searchObject", () => c.searchObject("ZCL_DEMO*", "CLAS/OC"), {
    check: r => { expectShape(r.some(x => x["adtcore:name"] === "ZCL_DEMO_GREETER"), "ZCL_DEMO_GREETER not found"); return `${r.length} hits`; },
    extra: jar
  });
  await runStep(S, "syntaxCheck", () => c.syntaxCheck(mainUrl, mainUrl, edited), {
    check: r => { expectShape(Array.isArray(r) && r.length === 0, `messages for a clean source: ${JSON.stringify(r).slice(0, 200)}`); return "0 messages"; },
    extra: jar
  });

  // dropSession(): a stateful client drops its context, then reads — twice.
  const d = newClient();
  const djar = () => ({ jarContextId: jarContextId(d) === undefined ? null : jarContextId(d) });
  await runStep(S, "dropSession: login", () => d.login(), { extra: djar });
  d.stateful = session_types.stateful;
  await runStep(S, "dropSession: stateful lock", async () => {
    const l = await d.lock(COUNTER);
    await d.unLock(COUNTER, l.LOCK_HANDLE);
    return l.LOCK_HANDLE;
  }, { check: () => { expectShape(liveContext(d), "no context opened"); return "context open"; }, extra: djar });
  await runStep(S, "dropSession()", () => d.dropSession(), {
    check: () => { expectShape(!d.isStateful && jarContextId(d) === "0", `context not dropped (jar: ${jarContextId(d)})`); return "context dropped"; },
    extra: djar
  });
  await runStep(S, "dropSession: request after dropSession", () => d.searchObject("ZDEMO*"), {
    check: r => { expectShape(r.length > 0, "no hits"); return `${r.length} hits`; }, extra: djar
  });
  await runStep(S, "dropSession: second request after dropSession", () => d.getObjectSource(`${COUNTER}/source/main`), {
    check: r => { expectShape(/CLASS zcl_demo_counter DEFINITION/i.test(r), "not the class source"); return `${r.length} chars`; }, extra: djar
  });
  d.stateful = session_types.stateful;
  await runStep(S, "dropSession: stateful again (lock + unLock)", async () => {
    const l = await d.lock(COUNTER);
    await d.unLock(COUNTER, l.LOCK_HANDLE);
    return l.LOCK_HANDLE;
  }, { check: () => { expectShape(liveContext(d), "no new context opened"); return "new context open"; }, extra: djar });
  await runStep(S, "dropSession() again", () => d.dropSession(), {
    check: () => { expectShape(jarContextId(d) === "0", `context not dropped (jar: ${jarContextId(d)})`); return "context dropped"; },
    extra: djar
  });
  await runStep(S, "dropSession: request after the second dropSession", () => d.searchObject("ZCL_DEMO*", "CLAS/OC"), {
    check: r => { expectShape(r.length > 0, "no hits"); return `${r.length} hits`; }, extra: djar
  });
  await runStep(S, "logout", async () => { await c.logout(); await d.logout(); });
}

/** The client's cookie jar holds a live context id (not the deletion value 0). */
function liveContext(client) {
  const id = jarContextId(client);
  return !!id && id !== "0";
}

// ---------------------------------------------------------------------------------
// scenario: dev-loop
// ---------------------------------------------------------------------------------
const TR_PACKAGE = "ZDEMO_TR";

/** A bad layout that the pretty printer (indentation on) must indent two blanks per level. */
const UGLY = [
  "class lcl_conf definition.",
  "public section.",
  "methods run.",
  "endclass.",
  "class lcl_conf implementation.",
  "method run.",
  "data lv_count type i.",
  "    if lv_count = 0.",
  "lv_count = 1.",
  "  endif.",
  "endmethod.",
  "endclass.",
  ""
].join("\n");

/** UGLY as formatted with indentation and the given keyword case. */
function prettyUgly(keyword) {
  const k = w => (keyword === "upper" ? w.toUpperCase() : w.toLowerCase());
  return [
    `${k("class")} lcl_conf ${k("definition")}.`,
    `  ${k("public section")}.`,
    `    ${k("methods")} run.`,
    `${k("endclass")}.`,
    `${k("class")} lcl_conf ${k("implementation")}.`,
    `  ${k("method")} run.`,
    `    ${k("data")} lv_count ${k("type")} i.`,
    `    ${k("if")} lv_count = 0.`,
    "      lv_count = 1.",
    `    ${k("endif")}.`,
    `  ${k("endmethod")}.`,
    `${k("endclass")}.`,
    ""
  ].join("\n");
}

/** Resolves when `fn` fails with HTTP 404; a success or another error fails the step. */
async function expectNotFound(fn) {
  let result;
  try {
    result = await fn();
  } catch (e) {
    const status = typeof e.err === "number" ? e.err : e.status;
    if (status === 404) return `404 ${short(e.message || "", 100)}`;
    throw e;
  }
  throw new ShapeError(`expected 404, got a result: ${shape(result)}`);
}

const normalize = text => String(text).replace(/\r\n/g, "\n");

/**
 * The new class: `twice` and `quadruple` (which calls `twice` twice). Keywords upper case,
 * two blanks per level: the pretty printer (keywordUpper) must leave it as it is.
 */
function classSource(lower) {
  return [
    `CLASS ${lower} DEFINITION`,
    "  PUBLIC",
    "  FINAL",
    "  CREATE PUBLIC.",
    "",
    "  PUBLIC SECTION.",
    "    METHODS twice",
    "      IMPORTING iv_value        TYPE i",
    "      RETURNING VALUE(rv_value) TYPE i.",
    "    METHODS quadruple",
    "      IMPORTING iv_value        TYPE i",
    "      RETURNING VALUE(rv_value) TYPE i.",
    "  PROTECTED SECTION.",
    "  PRIVATE SECTION.",
    "ENDCLASS.",
    "",
    "",
    "",
    `CLASS ${lower} IMPLEMENTATION.`,
    "",
    "  METHOD twice.",
    "    rv_value = iv_value * 2.",
    "  ENDMETHOD.",
    "",
    "  METHOD quadruple.",
    "    rv_value = twice( twice( iv_value ) ).",
    "  ENDMETHOD.",
    "",
    "ENDCLASS.",
    ""
  ].join("\n");
}

/**
 * Two tests: DOUBLES_TWO passes; FAILS_ON_PURPOSE compares two known values that differ, so
 * ABAP Unit reports a failed assertion (the emulator judges assertions it can decide,
 * docs/emulator.md "ABAP Unit").
 */
function testClassSource(lower) {
  return [
    "CLASS ltcl_conf DEFINITION FINAL FOR TESTING",
    "  DURATION SHORT",
    "  RISK LEVEL HARMLESS.",
    "",
    "  PRIVATE SECTION.",
    "    METHODS doubles_two FOR TESTING.",
    "    METHODS fails_on_purpose FOR TESTING.",
    "ENDCLASS.",
    "",
    "",
    "CLASS ltcl_conf IMPLEMENTATION.",
    "",
    "  METHOD doubles_two.",
    `    DATA(lo_cut) = NEW ${lower}( ).`,
    "    cl_abap_unit_assert=>assert_equals( act = lo_cut->twice( 2 ) exp = 4 ).",
    "    cl_abap_unit_assert=>assert_equals( act = 4 exp = 4 ).",
    "  ENDMETHOD.",
    "",
    "  METHOD fails_on_purpose.",
    "    cl_abap_unit_assert=>assert_equals( act = 4 exp = 5 msg = 'four is not five' ).",
    "  ENDMETHOD.",
    "",
    "ENDCLASS.",
    ""
  ].join("\n");
}

async function devLoop() {
  const S = "dev-loop";
  const c = newClient();
  const jar = () => ({ jarContextId: jarContextId(c) === undefined ? null : jarContextId(c) });
  await runStep(S, "login", () => c.login(), { extra: jar });
  await devLoopSample(S, c);
  const name = `ZCL_CONF_${require("crypto").randomBytes(3).toString("hex").toUpperCase()}`;
  const lower = name.toLowerCase();
  const url = `${ADT}/oo/classes/${lower}`;
  const o = { name, lower, url, mainUrl: `${url}/source/main`, testUrl: `${url}/includes/testclasses`, transport: "" };
  await devLoopCreate(S, c, o);
  await devLoopWrite(S, c, o, jar);
  await devLoopActivateAndTest(S, c, o);
  await devLoopIntelligence(S, c, o);
  await devLoopPrettyPrinter(S, c, o);
  await devLoopRename(S, c, o);
  await devLoopExtract(S, c, o);
  await devLoopDelete(S, c, o, jar);
  await runStep(S, "logout", () => c.logout());
}

/** A new transport request, then the new class in the transportable package ZDEMO_TR. */
async function devLoopCreate(S, c, o) {
  const isTransport = r => /^[A-Z0-9]{3}K\d{6}$/.test(r);
  await runStep(S, "createTransport (new request)", async () => (o.transport = await c.createTransport(o.url, `abap-adt-api conformance ${o.name}`, TR_PACKAGE)), {
    check: r => { expectShape(isTransport(r), `not a transport number: ${JSON.stringify(r)}`); return `${r} for ${o.name}`; }
  });
  await runStep(S, "transportInfo (new class in ZDEMO_TR)", () => c.transportInfo(o.url, TR_PACKAGE, "I"), {
    check: r => {
      expectShape(r.RECORDING === "X", `RECORDING=${JSON.stringify(r.RECORDING)}: the package does not record changes`);
      const numbers = (r.TRANSPORTS || []).map(t => t.TRKORR);
      expectShape(numbers.includes(o.transport), `the new request ${o.transport} is not offered: ${numbers.join(", ")}`);
      return `DEVCLASS=${r.DEVCLASS} RECORDING=X, offers ${numbers.join(", ")}`;
    }
  });
  await runStep(S, "validateNewObject (CLAS/OC)", () => c.validateNewObject({ objtype: "CLAS/OC", objname: o.name, packagename: TR_PACKAGE, description: "abap-adt-api conformance" }), {
    check: r => { expectShape(r && r.success === true, `not valid: ${JSON.stringify(r)}`); return JSON.stringify(r); }
  });
  await runStep(S, "createObject (CLAS/OC in ZDEMO_TR with the transport)", () => c.createObject({
    objtype: "CLAS/OC", name: o.name, parentName: TR_PACKAGE, parentPath: `${ADT}/packages/${TR_PACKAGE.toLowerCase()}`,
    description: "abap-adt-api conformance", transport: o.transport
  }));
  await runStep(S, "objectStructure (created, inactive)", () => c.objectStructure(o.url), {
    check: r => {
      const m = r.metaData;
      expectShape(m["adtcore:name"] === o.name, `adtcore:name ${m["adtcore:name"]}`);
      expectShape(m["adtcore:version"] === "inactive", `adtcore:version ${m["adtcore:version"]}`);
      return `${m["adtcore:type"]} ${o.name}, ${m["adtcore:version"]}, includes ${r.includes.map(i => i["class:includeType"]).join(",")}`;
    }
  });
}

/** The edit: stateful → lock → test include → two writes with the transport → unLock → stateless. */
async function devLoopWrite(S, c, o, jar) {
  let handle = "";
  await runStep(S, "stateful switch", () => { c.stateful = session_types.stateful; return c.isStateful; }, {
    check: r => { expectShape(r === true, "not stateful"); return "stateful"; }
  });
  await runStep(S, "lock", async () => c.lock(o.url), {
    check: r => {
      handle = r.LOCK_HANDLE;
      expectShape(handle, "no LOCK_HANDLE");
      expectShape(r.CORRNR === o.transport, `CORRNR=${JSON.stringify(r.CORRNR)}, expected the new request ${o.transport}`);
      expectShape(liveContext(c), "the stateful LOCK did not open a context");
      return `LOCK_HANDLE ${handle}, CORRNR ${r.CORRNR}`;
    },
    extra: jar
  });
  await runStep(S, "createTestInclude", () => c.createTestInclude(o.name, handle, o.transport), { extra: jar });
  await runStep(S, "setObjectSource (main)", () => c.setObjectSource(o.mainUrl, classSource(o.lower), handle, o.transport), { extra: jar });
  await runStep(S, "setObjectSource (testclasses)", () => c.setObjectSource(o.testUrl, testClassSource(o.lower), handle, o.transport), { extra: jar });
  await runStep(S, "unLock", () => c.unLock(o.url, handle), { extra: jar });
  await runStep(S, "stateless switch", () => { c.stateful = session_types.stateless; return c.isStateful; }, {
    check: r => { expectShape(r === false, "still stateful"); return "stateless"; }
  });
  await runStep(S, "getObjectSource (inactive main, as written)", () => c.getObjectSource(o.mainUrl, { version: "inactive" }), {
    check: r => {
      expectShape(normalize(r).trimEnd() === classSource(o.lower).trimEnd(), `not the text written: ${short(JSON.stringify(r), 200)}`);
      return `${r.split(/\r?\n/).length} lines`;
    },
    extra: jar
  });
}

/** Activation of everything written, then ABAP Unit: one test passes, one fails. */
async function devLoopActivateAndTest(S, c, o) {
  await runStep(S, "inactiveObjects (lists the new class)", () => c.inactiveObjects(), {
    check: r => {
      const mine = r.filter(x => x.object && String(x.object["adtcore:uri"]).startsWith(o.url));
      expectShape(mine.some(x => x.object["adtcore:uri"] === o.url), `${o.url} not listed: ${r.map(x => x.object && x.object["adtcore:uri"]).join(", ")}`);
      expectShape(mine.some(x => x.object["adtcore:uri"] === o.testUrl), `${o.testUrl} not listed`);
      return `${mine.length} entries of ${o.name}`;
    }
  });
  await runStep(S, "activate", () => c.activate(o.name, o.url), {
    check: r => {
      expectShape(r.success === true, `activation failed: ${JSON.stringify(r.messages).slice(0, 300)}`);
      expectShape(r.inactive.length === 0, `still inactive: ${JSON.stringify(r.inactive).slice(0, 200)}`);
      return `success, ${r.messages.length} messages`;
    }
  });
  await runStep(S, "inactiveObjects (none left)", () => c.inactiveObjects(), {
    check: r => {
      const left = r.filter(x => x.object && String(x.object["adtcore:uri"]).startsWith(o.url));
      expectShape(left.length === 0, `still inactive: ${left.map(x => x.object["adtcore:uri"]).join(", ")}`);
      return `${r.length} entries, none of ${o.name}`;
    }
  });
  await runStep(S, "unitTestRun (DOUBLES_TWO passes, FAILS_ON_PURPOSE fails)", () => c.unitTestRun(o.url), {
    check: r => {
      const cls = r.find(x => x["adtcore:name"] === "LTCL_CONF");
      expectShape(cls, `no test class LTCL_CONF: ${r.map(x => x["adtcore:name"]).join(", ")}`);
      expectShape(cls.alerts.length === 0, `class alerts: ${JSON.stringify(cls.alerts).slice(0, 300)}`);
      const byName = n => cls.testmethods.find(x => x["adtcore:name"] === n);
      const names = cls.testmethods.map(x => x["adtcore:name"]).join(", ");
      const pass = byName("DOUBLES_TWO"), fail = byName("FAILS_ON_PURPOSE");
      expectShape(pass && fail, `test methods ${names}`);
      expectShape(pass.alerts.length === 0, `DOUBLES_TWO failed: ${JSON.stringify(pass.alerts).slice(0, 300)}`);
      expectShape(fail.alerts.length === 1, `FAILS_ON_PURPOSE: ${fail.alerts.length} alerts`);
      const alert = fail.alerts[0];
      expectShape(alert.kind === "failedAssertion" && alert.severity === "critical", `alert ${alert.kind}/${alert.severity}`);
      expectShape(/four is not five/.test(alert.title), `alert title ${JSON.stringify(alert.title)}`);
      const details = JSON.stringify(alert.details);
      expectShape(/Expected \[5\]/.test(details) && /Actual \[4\]/.test(details), `alert details ${details.slice(0, 200)}`);
      const frame = alert.stack[0];
      const failLine = position(testClassSource(o.lower), "assert_equals( act = 4 exp = 5").line;
      expectShape(frame && frame["adtcore:uri"] === `${o.testUrl}#start=${failLine},0`,
        `stack ${frame && frame["adtcore:uri"]}, expected ${o.testUrl}#start=${failLine},0`);
      return `DOUBLES_TWO passed; FAILS_ON_PURPOSE: ${alert.title} at line ${failLine}`;
    }
  });
}

/** Completion, navigation and where-used at real positions of the new class. */
async function devLoopIntelligence(S, c, o) {
  const src = classSource(o.lower);
  const call = position(src, "twice( twice(", position(src, "method quadruple").line);
  const line = call.line, col = call.column, end = col + "twice".length;
  const decl = position(src, "methods twice"), declCol = decl.column + "methods ".length;
  const impl = position(src, "method twice."), implCol = impl.column + "method ".length;
  let refs = [];
  await runStep(S, "codeCompletion (tw| in quadruple)", () => c.codeCompletion(o.mainUrl, src, line, col + 2), {
    check: r => {
      const p = r.find(x => String(x.IDENTIFIER).toUpperCase() === "TWICE");
      expectShape(p, `no TWICE among ${r.map(x => x.IDENTIFIER).join(", ")} at ${line},${col + 2}`);
      expectShape(Number(p.PREFIXLENGTH) === 2, `PREFIXLENGTH ${p.PREFIXLENGTH}, expected 2`);
      return `${r.length} proposals: ${r.map(x => x.IDENTIFIER).slice(0, 5).join(", ")}`;
    }
  });
  await runStep(S, "codeCompletionFull (twice)", () => c.codeCompletionFull(o.mainUrl, src, line, col + 2, "twice"), {
    check: r => {
      expectShape(/^twice\(/i.test(r) && /iv_value\s*=/i.test(r) && /rv_value\s*=/i.test(r) && /\)\.\s*$/.test(r), `not a call pattern: ${JSON.stringify(r)}`);
      return JSON.stringify(r);
    }
  });
  await runStep(S, "findDefinition (twice call → METHODS twice)", () => c.findDefinition(o.mainUrl, src, line, col, end), {
    check: r => {
      expectShape(r.url === o.mainUrl && r.line === decl.line && r.column === declCol,
        `got ${r.url} ${r.line},${r.column}; expected ${o.mainUrl} ${decl.line},${declCol}`);
      return `${r.url} ${r.line},${r.column}`;
    }
  });
  await runStep(S, "findDefinition implementation (→ METHOD twice)", () => c.findDefinition(o.mainUrl, src, line, col, end, true), {
    check: r => {
      expectShape(r.url === o.mainUrl && r.line === impl.line && r.column === implCol,
        `got ${r.url} ${r.line},${r.column}; expected ${o.mainUrl} ${impl.line},${implCol}`);
      return `${r.url} ${r.line},${r.column}`;
    }
  });
  await runStep(S, "classComponents (the new class)", () => c.classComponents(o.url), {
    check: r => {
      expectShape(r["adtcore:name"] === o.name && r["adtcore:type"] === "CLAS/OC", `root ${r["adtcore:type"]} ${r["adtcore:name"]}`);
      const twice = r.components.find(x => x["adtcore:name"] === "TWICE");
      expectShape(twice && r.components.some(x => x["adtcore:name"] === "QUADRUPLE"), `components ${r.components.map(x => x["adtcore:name"]).join(", ")}`);
      const link = twice.links.find(l => /implementationIdentifier$/.test(l.rel));
      const want = `./source/main#start=${impl.line},${implCol};end=${impl.line},${implCol + "twice".length}`;
      expectShape(link && link.href === want, `TWICE implementation link ${link && link.href}, expected ${want}`);
      return `${r.components.length} components: ${r.components.map(x => `${x["adtcore:type"]} ${x["adtcore:name"]}`).join(", ")}`;
    }
  });
  await runStep(S, "findObjectPath (the new class in ZDEMO_TR)", () => c.findObjectPath(o.url), {
    check: r => {
      const names = r.map(x => x["adtcore:name"]);
      expectShape(names[names.length - 1] === o.name && names[names.length - 2] === TR_PACKAGE, `path ${names.join(" / ")}`);
      return names.join(" / ");
    }
  });
  await runStep(S, "usageReferences (method twice)", async () => (refs = await c.usageReferences(o.mainUrl, decl.line, declCol + 1)), {
    check: r => {
      const user = r.find(x => x["adtcore:type"] === "CLAS/OM" && x["adtcore:name"] === "QUADRUPLE");
      expectShape(user, `the calling method QUADRUPLE is not listed: ${r.map(x => `${x["adtcore:type"]} ${x["adtcore:name"]}`).join("; ")}`);
      expectShape(user.objectIdentifier && user.packageRef["adtcore:name"] === TR_PACKAGE, `row without objectIdentifier/package ${TR_PACKAGE}: ${JSON.stringify(user)}`);
      const tests = r.find(x => x.uri === o.testUrl);
      expectShape(tests, `the test include ${o.testUrl} is not listed`);
      return `${r.length} rows: ${r.map(x => x["adtcore:name"]).join(", ")}`;
    }
  });
  await runStep(S, "usageReferenceSnippets (method twice)", () => c.usageReferenceSnippets(refs), {
    check: r => {
      const all = r.reduce((a, g) => a.concat(g.snippets), []);
      const at = (uri, l, cl) => all.find(s => s.uri.uri === uri && s.uri.start.line === l && s.uri.start.column === cl);
      // one snippet per line, positioned at the line's first match (both calls of `twice`)
      const own = at(o.mainUrl, line, col);
      expectShape(own && /twice\( twice\( iv_value \) \)/.test(own.content),
        `no snippet at ${o.mainUrl} ${line},${col}: ${all.map(s => `${s.uri.uri} ${s.uri.start.line},${s.uri.start.column}`).join("; ")}`);
      const testCall = position(testClassSource(o.lower), "lo_cut->twice(");
      const hit = at(o.testUrl, testCall.line, testCall.column + "lo_cut->".length);
      expectShape(hit && /lo_cut->twice\( 2 \)/.test(hit.content), `no snippet of the test's call: ${JSON.stringify(hit)}`);
      return `${r.length} groups, ${all.length} snippets`;
    }
  });
}

/** Completion, element info, navigation and where-used at a real call in ZCL_DEMO_GREETER. */
async function devLoopSample(S, c) {
  const DEFS = `${CLS}/includes/definitions`, IMPS = `${CLS}/includes/implementations`;
  let src = "", defs = "", imps = "", refs = [];
  await runStep(S, "getObjectSource(ZCL_DEMO_GREETER main, definitions, implementations)", async () => {
    src = await c.getObjectSource(CLS_MAIN);
    defs = await c.getObjectSource(DEFS);
    imps = await c.getObjectSource(IMPS);
    return src;
  }, { check: r => { expectShape(/mo_formatter->capitalize\(/i.test(r), "no call of capitalize in the class"); return `${r.length} chars` } });
  // the call `mo_formatter->capitalize( iv_name )` in METHOD zif_demo_greeting~greet
  const call = position(src, "mo_formatter->capitalize(");
  const line = call.line, col = call.column + "mo_formatter->".length, end = col + "capitalize".length;
  const decl = position(defs, "methods capitalize"), declCol = decl.column + "methods ".length;
  const impl = position(imps, "method capitalize"), implCol = impl.column + "method ".length;
  const at = `line ${line}, column ${col}`;

  await runStep(S, "codeCompletion (mo_formatter->cap|)", () => c.codeCompletion(CLS_MAIN, src, line, col + 3), {
    check: r => {
      const p = r.find(x => String(x.IDENTIFIER).toUpperCase() === "CAPITALIZE");
      expectShape(p, `no CAPITALIZE among ${r.map(x => x.IDENTIFIER).join(", ")} at ${at}`);
      expectShape(Number(p.PREFIXLENGTH) === 3, `PREFIXLENGTH ${p.PREFIXLENGTH}, expected 3`);
      return `${r.length} proposals: ${r.map(x => x.IDENTIFIER).slice(0, 5).join(", ")}`;
    }
  });
  await runStep(S, "codeCompletionFull (capitalize)", () => c.codeCompletionFull(CLS_MAIN, src, line, col + 3, "capitalize"), {
    check: r => {
      expectShape(/^capitalize\(/i.test(r) && /iv_text\s*=/i.test(r) && /\)\.\s*$/.test(r), `not a call pattern: ${JSON.stringify(r)}`);
      return JSON.stringify(r);
    }
  });
  await runStep(S, "codeCompletionElement (capitalize)", () => c.codeCompletionElement(CLS_MAIN, src, line, col + 3), {
    check: r => {
      expectShape(typeof r === "object", `raw body instead of an element info: ${short(r, 100)}`);
      expectShape(r.name === "CAPITALIZE" && r.type === "CLAS/OM", `element ${r.type} ${r.name}`);
      const params = r.components.map(x => x["adtcore:name"]);
      expectShape(params.includes("IV_TEXT") && params.includes("RV_TEXT"), `parameters ${params.join(", ")}`);
      return `${r.type} ${r.name} (${params.join(", ")})`;
    }
  });
  await runStep(S, "findDefinition (capitalize call → METHODS capitalize)", () => c.findDefinition(CLS_MAIN, src, line, col, end), {
    check: r => {
      expectShape(r.url === DEFS && r.line === decl.line && r.column === declCol,
        `got ${r.url} ${r.line},${r.column}; expected ${DEFS} ${decl.line},${declCol}`);
      return `${r.url} ${r.line},${r.column}`;
    }
  });
  await runStep(S, "findDefinition implementation (→ METHOD capitalize)", () => c.findDefinition(CLS_MAIN, src, line, col, end, true), {
    check: r => {
      expectShape(r.url === IMPS && r.line === impl.line && r.column === implCol,
        `got ${r.url} ${r.line},${r.column}; expected ${IMPS} ${impl.line},${implCol}`);
      return `${r.url} ${r.line},${r.column}`;
    }
  });
  await runStep(S, "usageReferences (method capitalize)", async () => (refs = await c.usageReferences(DEFS, decl.line, declCol + 1)), {
    check: r => {
      const user = r.find(x => x["adtcore:type"] === "CLAS/OM" && x["adtcore:name"] === "ZIF_DEMO_GREETING~GREET");
      expectShape(user, `the calling method ZIF_DEMO_GREETING~GREET is not listed: ${r.map(x => `${x["adtcore:type"]} ${x["adtcore:name"]}`).join("; ")}`);
      expectShape(user.objectIdentifier && user.packageRef["adtcore:name"] === "$ZDEMO", `row without objectIdentifier/package: ${JSON.stringify(user)}`);
      return `${r.length} rows: ${r.map(x => x["adtcore:name"]).join(", ")}`;
    }
  });
  await runStep(S, "usageReferenceSnippets (method capitalize)", () => c.usageReferenceSnippets(refs), {
    check: r => {
      const all = r.reduce((a, g) => a.concat(g.snippets), []);
      const hit = all.find(s => s.uri.uri === CLS_MAIN && s.uri.start.line === line && s.uri.start.column === col);
      expectShape(hit, `no snippet at ${CLS_MAIN} ${line},${col}: ${all.map(s => `${s.uri.uri} ${s.uri.start.line},${s.uri.start.column}`).join("; ")}`);
      expectShape(/mo_formatter->capitalize\(/i.test(hit.content), `snippet content ${JSON.stringify(hit.content)}`);
      return `${r.length} groups, ${all.length} snippets`;
    }
  });
}

/** The pretty printer follows the user's settings (indentation, keyword case), and leaves the
 * new class, already laid out in that style, unchanged. */
async function devLoopPrettyPrinter(S, c, o) {
  let original;
  await runStep(S, "prettyPrinterSetting", async () => (original = await c.prettyPrinterSetting()), {
    check: r => { expectShape(r && typeof r["abapformatter:indentation"] === "boolean" && r["abapformatter:style"], `settings ${JSON.stringify(r)}`); return JSON.stringify(r); }
  });
  for (const [style, keyword] of [["keywordLower", "lower"], ["keywordUpper", "upper"]]) {
    await runStep(S, `setPrettyPrinterSetting (indentation, ${style})`, async () => {
      await c.setPrettyPrinterSetting(true, style);
      return c.prettyPrinterSetting();
    }, {
      check: r => {
        expectShape(r["abapformatter:indentation"] === true && r["abapformatter:style"] === style, `settings after the change: ${JSON.stringify(r)}`);
        return JSON.stringify(r);
      }
    });
    await runStep(S, `prettyPrinter (${style})`, () => c.prettyPrinter(UGLY), {
      check: r => {
        const want = prettyUgly(keyword);
        expectShape(normalize(r) === want, `got ${JSON.stringify(normalize(r))}, expected ${JSON.stringify(want)}`);
        return `${r.split(/\r?\n/).length - 1} lines indented, keywords ${keyword} case`;
      }
    });
  }
  await runStep(S, "prettyPrinter (the new class, keywordUpper: unchanged)", () => c.prettyPrinter(classSource(o.lower)), {
    check: r => {
      expectShape(normalize(r) === classSource(o.lower), `changed: ${short(JSON.stringify(normalize(r)), 300)}`);
      return "unchanged";
    }
  });
  await runStep(S, "setPrettyPrinterSetting (restore)", async () => {
    const p = original || { "abapformatter:indentation": true, "abapformatter:style": "keywordUpper" };
    await c.setPrettyPrinterSetting(p["abapformatter:indentation"], p["abapformatter:style"]);
    return c.prettyPrinterSetting();
  }, { check: r => JSON.stringify(r) });
}

/** Rename the method twice to doubled: evaluate at its declaration, preview with the
 * request (contentNew filled in as abap-adt-api's own test does), execute, read back, activate. */
async function devLoopRename(S, c, o) {
  const src = classSource(o.lower);
  const decl = position(src, "methods twice"), col = decl.column + "methods ".length;
  let evaluated, preview;
  await runStep(S, "renameEvaluate (method twice)", async () => (evaluated = await c.renameEvaluate(o.mainUrl, decl.line, col, col + "twice".length)), {
    check: r => {
      expectShape(r.oldName === "twice" && r.newName === "twice", `oldName ${r.oldName}, newName ${r.newName}`);
      const uris = r.affectedObjects.map(x => x.uri);
      expectShape(uris.includes(o.mainUrl) && uris.includes(o.testUrl), `affected ${uris.join(", ")}`);
      expectShape(r.affectedObjects.every(x => x.parentUri === o.url && x.type === "CLAS/OC"), `parentUri/type ${JSON.stringify(r.affectedObjects.map(x => [x.parentUri, x.type]))}`);
      return `${r.affectedObjects.length} sources, ${r.affectedObjects.reduce((n, x) => n + x.textReplaceDeltas.length, 0)} places`;
    }
  });
  await runStep(S, "renamePreview (twice → doubled, with the transport)", async () => {
    const proposal = Object.assign({}, evaluated, { newName: "doubled" });
    proposal.affectedObjects.forEach(x => x.textReplaceDeltas.forEach(d => { d.contentNew = "doubled"; d.contentOld = "twice"; }));
    return (preview = await c.renamePreview(proposal, o.transport));
  }, {
    check: r => {
      const deltas = r.affectedObjects.reduce((a, x) => a.concat(x.textReplaceDeltas), []);
      expectShape(deltas.length >= 5 && deltas.every(d => d.contentNew === "doubled" && /^twice$/i.test(d.contentOld)), `deltas ${JSON.stringify(deltas)}`);
      expectShape(r.transport === o.transport, `transport ${r.transport}, expected ${o.transport}`);
      return `${deltas.length} replacements`;
    }
  });
  await runStep(S, "renameExecute", () => c.renameExecute(preview), {
    check: r => { expectShape(r.affectedObjects.length === preview.affectedObjects.length, `executed ${r.affectedObjects.length} objects`); return `${r.affectedObjects.length} sources`; }
  });
  await runStep(S, "getObjectSource (renamed: main and test classes)", async () => [await c.getObjectSource(o.mainUrl), await c.getObjectSource(o.testUrl)], {
    check: ([main, tests]) => {
      expectShape(!/\btwice\b/i.test(main) && /methods doubled/i.test(main) && /method doubled\./i.test(main), `main still says twice: ${short(main, 300)}`);
      expectShape(/lo_cut->doubled\( 2 \)/.test(tests), `test classes: ${short(tests, 300)}`);
      return "renamed";
    }
  });
  await runStep(S, "activate (renamed class)", () => c.activate(o.name, o.url), {
    check: r => { expectShape(r.success, `not activated: ${JSON.stringify(r.messages)}`); return "activated"; }
  });
}

/** Extract quadruple's statement into a method: evaluate the whole line, preview with a
 * name (abap-adt-api sends the proposal back), execute the preview, read back, activate. */
async function devLoopExtract(S, c, o) {
  const src = await c.getObjectSource(o.mainUrl);
  const at = position(src, "rv_value = doubled( doubled( iv_value ) ).");
  const length = src.split("\n")[at.line - 1].length;
  let evaluated, preview;
  await runStep(S, "extractMethodEvaluate (quadruple's statement)", async () => (evaluated = await c.extractMethodEvaluate(o.mainUrl, { start: { line: at.line, column: 0 }, end: { line: at.line, column: length } })), {
    check: r => {
      const params = r.parameters.map(p => `${p.direction} ${p.name} ${p.typeType} ${p.type}`).sort();
      expectShape(JSON.stringify(params) === JSON.stringify(["EXPORTING rv_value TYPE i", "IMPORTING iv_value TYPE i"]), `parameters ${JSON.stringify(params)}`);
      expectShape(String(r.isStatic) === "false" && r.genericRefactoring.affectedObjects[0].uri === o.mainUrl, `isStatic ${r.isStatic}, affected ${JSON.stringify(r.genericRefactoring.affectedObjects)}`);
      return `${r.name}: ${params.join(", ")}`;
    }
  });
  await runStep(S, "extractMethodPreview (named quadrupled)", async () => (preview = await c.extractMethodPreview(Object.assign({}, evaluated, { name: "quadrupled" }))), {
    check: r => {
      const deltas = r.affectedObjects.reduce((a, x) => a.concat(x.textReplaceDeltas), []);
      expectShape(deltas.length === 3 && deltas.some(d => /METHOD quadrupled\./.test(d.contentNew)), `deltas ${short(JSON.stringify(deltas), 400)}`);
      return `${deltas.length} replacements`;
    }
  });
  await runStep(S, "extractMethodExecute", () => c.extractMethodExecute(preview), {
    check: r => { expectShape(r.affectedObjects.length === 1, `executed ${r.affectedObjects.length} objects`); return "executed"; }
  });
  await runStep(S, "getObjectSource (extracted)", () => c.getObjectSource(o.mainUrl), {
    check: text => {
      const main = text.replace(/\r\n/g, "\n");
      const declared = main.includes("  PRIVATE SECTION.\n    METHODS quadrupled\n      IMPORTING\n        iv_value TYPE i\n      EXPORTING\n        rv_value TYPE i.");
      const called = main.includes("  METHOD quadruple.\n    quadrupled(\n      EXPORTING iv_value = iv_value\n      IMPORTING rv_value = rv_value ).\n  ENDMETHOD.");
      const implemented = main.includes("  METHOD quadrupled.\n    rv_value = doubled( doubled( iv_value ) ).\n  ENDMETHOD.");
      expectShape(declared && called && implemented, `declared ${declared}, called ${called}, implemented ${implemented}: ${short(main, 900)}`);
      return "extracted";
    }
  });
  await runStep(S, "activate (extracted method)", () => c.activate(o.name, o.url), {
    check: r => { expectShape(r.success, `not activated: ${JSON.stringify(r.messages)}`); return "activated"; }
  });
}

/** lock → deleteObject with the transport; the class is gone and the request records it. */
async function devLoopDelete(S, c, o, jar) {
  let handle = "";
  await runStep(S, "stateful switch (delete)", () => { c.stateful = session_types.stateful; return c.isStateful; }, {
    check: r => { expectShape(r === true, "not stateful"); return "stateful"; }
  });
  await runStep(S, "lock (delete)", async () => c.lock(o.url), {
    check: r => {
      handle = r.LOCK_HANDLE;
      expectShape(handle, "no LOCK_HANDLE");
      expectShape(r.CORRNR === o.transport, `CORRNR=${JSON.stringify(r.CORRNR)}, expected ${o.transport}`);
      return `LOCK_HANDLE ${handle}, CORRNR ${r.CORRNR}`;
    },
    extra: jar
  });
  await runStep(S, "deleteObject (with the transport)", () => c.deleteObject(o.url, handle, o.transport), { extra: jar });
  await runStep(S, "unLock (delete)", () => c.unLock(o.url, handle), { extra: jar });
  // abap-adt-api drops the Set-Cookie headers of error answers (upstream issue #50), so the
  // first request after the stateless switch must succeed to receive the deletion cookie;
  // dropSession() is that request (abapfs does the same after unlocking).
  await runStep(S, "dropSession()", () => c.dropSession(), {
    check: () => { expectShape(jarContextId(c) === "0", `context not dropped (jar: ${jarContextId(c)})`); return "context dropped"; },
    extra: jar
  });
  await runStep(S, "objectStructure after delete (404)", () => expectNotFound(() => c.objectStructure(o.url)), { check: r => r, extra: jar });
  await runStep(S, "getObjectSource after delete (404)", () => expectNotFound(() => c.getObjectSource(o.mainUrl)), { check: r => r, extra: jar });
  await runStep(S, "searchObject after delete (no hit)", () => c.searchObject(o.name, "CLAS/OC"), {
    check: r => { expectShape(!r.some(x => x["adtcore:name"] === o.name), `${o.name} still found`); return `${r.length} hits`; }
  });
  await runStep(S, "transportDetails (the request records the class)", () => c.transportDetails(o.transport), {
    check: r => {
      const objects = (r.objects || []).concat(...(r.tasks || []).map(t => t.objects || []));
      expectShape(r["tm:number"] === o.transport, `tm:number ${r["tm:number"]}`);
      expectShape(objects.some(x => x["tm:pgmid"] === "R3TR" && x["tm:type"] === "CLAS" && x["tm:name"] === o.name),
        `R3TR CLAS ${o.name} not recorded: ${objects.map(x => `${x["tm:pgmid"]} ${x["tm:type"]} ${x["tm:name"]}`).join("; ")}`);
      return `${o.transport}: ${objects.length} object(s), tasks ${(r.tasks || []).map(t => t["tm:number"]).join(",")}`;
    }
  });
}

// ---------------------------------------------------------------------------------
// scenario: survey
// ---------------------------------------------------------------------------------
const AREAS = {
  session: "session", discovery: "discovery", repo: "repository / navigation tree",
  tree: "package value help / node structure", structure: "object structure",
  source: "source read/write, locks", activation: "activation / inactive objects",
  check: "syntax check", completion: "completion", nav: "navigation/definition",
  elinfo: "element info / documentation", usage: "where-used/usage snippets",
  pretty: "pretty printer", quickfix: "quick fixes", revisions: "revisions",
  create: "object validation/creation/deletion", transports: "transports",
  aunit: "ABAP Unit", atc: "ATC", refactor: "refactoring", oos: "out of scope"
};

function surveySteps(ctx) {
  const s = [];
  const add = (id, area, run, opts = {}) => s.push(Object.assign({ id, area, run }, opts));
  const OOS = { oos: true };
  const nonEmptyArray = what => r => { expectShape(Array.isArray(r) && r.length > 0, `${what}: empty array`); return `${r.length} ${what}`; };

  // ---- session ---------------------------------------------------------------
  add("login", "session", c => c.login(), { fresh: false, check: () => `csrf token ${ctx.any.csrfToken !== "fetch" ? "received" : "missing"}` });
  add("reentranceTicket", "session", c => c.reentranceTicket(), OOS);

  // ---- discovery -------------------------------------------------------------
  add("adtDiscovery", "discovery", c => c.adtDiscovery(), {
    check: r => {
      expectShape(Array.isArray(r) && r.length > 0, "no workspaces");
      const cols = r.reduce((n, w) => n + w.collection.length, 0);
      const tl = r.reduce((n, w) => n + w.collection.reduce((m, col) => m + col.templateLinks.length, 0), 0);
      return `${r.length} workspace(s) [${r.map(w => w.title).join(", ")}], ${cols} collections, ${tl} templateLinks`;
    }
  });
  add("adtCoreDiscovery", "discovery", c => c.adtCoreDiscovery(), { check: r => `${r.length} workspaces` });
  add("adtCompatibiliyGraph", "discovery", c => c.adtCompatibiliyGraph(), {
    check: r => `edges=${r.edges.length} nodes=${r.nodes.length} (parser reads compatibility:graph/nodes/node)`
  });
  add("featureDetails(\"Packages\")", "discovery", c => c.featureDetails("Packages"), {
    check: r => { expectShape(r !== undefined, "no workspace titled \"Packages\""); return `${r.collection.length} collections`; }
  });
  add("collectionFeatureDetails(packages/valuehelps/transportlayers)", "discovery",
    c => c.collectionFeatureDetails("/sap/bc/adt/packages/valuehelps/transportlayers"), {
      check: r => { expectShape(r !== undefined, "no collection with that templateLink"); return r.title; }
    });
  add("findCollectionByUrl(/sap/bc/adt/oo/classes)", "discovery", c => c.findCollectionByUrl("/sap/bc/adt/oo/classes"), {
    check: r => { expectShape(r !== undefined, "not found"); return `workspace ${r.discoveryResult.title}`; }
  });
  add("hasTransportConfig", "discovery", c => c.hasTransportConfig(), {
    check: r => { expectShape(r === true, "the discovery lists no transport search configurations"); return `${r}`; }
  });
  add("objectTypes", "discovery", c => c.objectTypes(), { check: nonEmptyArray("types") });
  add("loadTypes", "create", c => c.loadTypes(), { check: nonEmptyArray("types") });
  add("syntaxCheckTypes", "check", c => c.syntaxCheckTypes(), {
    check: r => { expectShape(r instanceof Map && r.size > 0, "no reporters"); return `${r.size} reporters`; }
  });

  // ---- repository search / tree ---------------------------------------------
  add("searchObject(\"ZCL_DEMO*\")", "repo", c => c.searchObject("ZCL_DEMO*"), { check: nonEmptyArray("hits") });
  add("searchObject(\"Z*\", \"PROG/P\")", "repo", c => c.searchObject("Z*", "PROG/P"), { check: nonEmptyArray("hits") });
  add("searchObject(\"Z_DEMO*\", \"FUGR/FF\")", "repo", c => c.searchObject("Z_DEMO*", "FUGR/FF"), {
    check: r => `${r.length} hits (the library cuts FUGR/FF to objectType=FUGR; A4H capture 847 also answers no module for objectType=FUGR)`
  });
  add("searchObject(\"Z_DEMO*\") untyped", "repo", c => c.searchObject("Z_DEMO*"), { check: nonEmptyArray("hits") });
  add("findObjectPath", "repo", c => c.findObjectPath(CLS), { check: nonEmptyArray("path steps") });
  add("nodeContents(DEVC/K $ZDEMO)", "tree", c => c.nodeContents("DEVC/K", "$ZDEMO"), {
    check: r => {
      ctx.nodeIds = r.objectTypes.map(o => Number.parseInt(o.NODE_ID, 10)).filter(n => n > 0);
      ctx.objects = r.nodes.filter(n => n.OBJECT_NAME).map(n => `${n.OBJECT_TYPE} ${n.OBJECT_NAME}`).sort();
      const note = `nodes=${r.nodes.length} categories=${r.categories.length} objectTypes=${r.objectTypes.length}`;
      expectShape(r.nodes.length > 0, `${note}: the no-body call lists no objects (A4H capture 852 lists every object of the package in TREE_CONTENT)`);
      return note;
    }
  });
  // the node ids of the folders, in one body: the children of every folder asked for, i.e.
  // the same objects the body-less call listed (its folder nodes have no OBJECT_NAME)
  add("nodeContents(DEVC/K $ZDEMO, parentnodes=type node ids)", "tree",
    c => c.nodeContents("DEVC/K", "$ZDEMO", undefined, undefined, undefined, ctx.nodeIds && ctx.nodeIds.length ? ctx.nodeIds : [1]), {
      check: r => {
        const got = r.nodes.map(n => `${n.OBJECT_TYPE} ${n.OBJECT_NAME}`).sort();
        const note = `nodes=${r.nodes.length} [${r.nodes.map(n => n.OBJECT_NAME).join(",")}]`;
        expectShape(r.nodes.length > 0, "no nodes");
        const missing = (ctx.objects || []).filter(o => !got.includes(o));
        expectShape(!missing.length, `${note}: asked for every folder of $ZDEMO in one body, missing ${missing.join(", ")}`);
        return note;
      }
    });
  add("nodeContents(DEVC/K $TMP) — only sub-packages", "tree", c => c.nodeContents("DEVC/K", "$TMP"), {
    check: r => { expectShape(r.nodes.length > 0 || r.objectTypes.length > 0, "empty: 0-byte body for a package holding only sub-packages"); return `nodes=${r.nodes.length}`; }
  });
  add("nodeContents(FUGR/F ZDEMO_FG)", "tree", c => c.nodeContents("FUGR/F", "ZDEMO_FG", undefined, undefined, undefined, [0]), {
    check: r => { expectShape(r.objectTypes.length > 0 || r.nodes.length > 0, "empty: 0-byte body for parent_type FUGR/F"); return `nodes=${r.nodes.length} objectTypes=${r.objectTypes.length}`; }
  });
  add("nodeContents(PROG/P ZDEMO_REPORT)", "tree", c => c.nodeContents("PROG/P", "ZDEMO_REPORT"), {
    check: r => { expectShape(r.nodes.length > 0, "empty: 0-byte body for parent_type PROG/P"); return `nodes=${r.nodes.length}`; }
  });
  for (const t of ["applicationcomponents", "softwarecomponents", "transportlayers", "translationrelevances"])
    add(`packageSearchHelp(${t})`, "tree", c => c.packageSearchHelp(t), { check: nonEmptyArray("values") });

  // ---- object structure -------------------------------------------------------
  for (const [label, url] of [["class", CLS], ["interface", INTF], ["program", PROG], ["include", INCL],
    ["function group", FUGR], ["function module", FM], ["function group include", FINC]]) {
    add(`objectStructure(${label})`, "structure", c => c.objectStructure(url), {
      check: r => {
        expectShape(r.metaData["adtcore:name"], "no adtcore:name");
        expectShape(r.metaData["adtcore:changedAt"] > 0, "changedAt not parsed");
        return `${r.metaData["adtcore:type"]} ${r.metaData["adtcore:name"]}, links=${r.links.length}` +
          (r.includes ? `, includes=${r.includes.length}` : "") + `, mainInclude=${ADTClient.mainInclude(r)}`;
      }
    });
  }
  add("objectStructure(class, version=inactive)", "structure", c => c.objectStructure(CLS, "inactive"), {
    check: r => `version=${r.metaData["adtcore:version"]}`
  });
  add("objectStructureElements(class)", "structure", c => c.objectStructureElements(CLS), {
    check: r => { expectShape(r.length > 0, "empty (the library swallows the error of GET …/objectstructure)"); return `${r.length} elements`; }
  });
  add("classComponents", "structure", c => c.classComponents(CLS), {
    check: r => { expectShape(r && r.components && r.components.length > 0, "no components"); return `${r.components.length} components`; }
  });
  add("fragmentMappings(PROG/PE START-OF-SELECTION)", "nav", c => c.fragmentMappings(PROG_MAIN, "PROG/PE", "START-OF-SELECTION"), {
    check: r => `${r.uri} ${r.line},${r.column}`
  });
  add("mainPrograms(include)", "structure", c => c.mainPrograms(INCL), { check: nonEmptyArray("main programs") });

  // ---- source ---------------------------------------------------------------------
  add("getObjectSource(class main)", "source", async c => (ctx.clsSource = await c.getObjectSource(CLS_MAIN)), { check: r => `${r.length} chars` });
  add("getObjectSource(class main, version=active)", "source", c => c.getObjectSource(CLS_MAIN, { version: "active" }), { check: r => `${r.length} chars` });
  add("getObjectSource(class testclasses)", "source", c => c.getObjectSource(`${CLS}/includes/testclasses`), { check: r => `${r.length} chars` });
  add("getObjectSource(program)", "source", async c => (ctx.progSource = await c.getObjectSource(PROG_MAIN)), { check: r => `${r.length} chars` });
  add("getObjectSource(function module)", "source", c => c.getObjectSource(`${FM}/source/main`), { check: r => `${r.length} chars` });
  add("getObjectSource(interface)", "source", c => c.getObjectSource(`${INTF}/source/main`), { check: r => `${r.length} chars` });
  add("lock(class) [stateful]", "source", async c => (ctx.handle = (await c.lock(CLS)).LOCK_HANDLE), {
    stateful: true, check: r => { expectShape(!!r, "no handle"); return `LOCK_HANDLE ${r}`; }
  });
  add("setObjectSource(class main, unchanged) [stateful]", "source", c => c.setObjectSource(CLS_MAIN, ctx.clsSource || "", ctx.handle || "NONE"), { stateful: true });
  add("unLock(class) [stateful]", "source", c => c.unLock(CLS, ctx.handle || "NONE"), { stateful: true });
  add("lock(counter) + createTestInclude [stateful]", "create", async c => {
    const h = (await c.lock(COUNTER)).LOCK_HANDLE;
    try { await c.createTestInclude("ZCL_DEMO_COUNTER", h); } finally { await c.unLock(COUNTER, h).catch(() => {}); }
  }, { stateful: true, method: "createTestInclude" });
  add("getTextElements(program)", "oos", c => c.getTextElements(ADTClient.textElementsUrl("PROG/P", "ZDEMO_REPORT")), OOS);
  add("setTextElements(program) [stateful]", "oos", async c => {
    const h = (await c.lock(PROG)).LOCK_HANDLE;
    try { await c.setTextElements(ADTClient.textElementsUrl("PROG/P", "ZDEMO_REPORT"), "symbols", [{ id: "001", text: "Hello" }], h); }
    finally { await c.unLock(PROG, h).catch(() => {}); }
  }, Object.assign({ stateful: true }, OOS));

  // ---- activation -------------------------------------------------------------
  add("activate(name, url)", "activation", c => c.activate("ZCL_DEMO_GREETER", CLS), {
    check: r => { expectShape(r.success, `success=false ${JSON.stringify(r.messages).slice(0, 160)}`); return `success, messages=${r.messages.length}, inactive=${r.inactive.length}`; }
  });
  add("activate(name, url, mainInclude) for an include", "activation", c => c.activate("ZDEMO_INCLUDE", INCL, PROG), {
    check: r => `success=${r.success}, messages=${r.messages.length}`
  });
  add("activate([InactiveObject])", "activation", c => c.activate([{ "adtcore:uri": PROG, "adtcore:type": "PROG/P", "adtcore:name": "ZDEMO_REPORT", "adtcore:parentUri": "" }]), {
    check: r => `success=${r.success}, messages=${r.messages.length}`
  });
  add("inactiveObjects", "activation", c => c.inactiveObjects(), { check: r => `${r.length} entries` });

  // ---- syntax check ------------------------------------------------------------
  add("syntaxCheck(class, clean)", "check", c => c.syntaxCheck(CLS_MAIN, CLS_MAIN, ctx.clsSource || ""), { check: r => `${r.length} messages` });
  add("syntaxCheck(class, broken source)", "check", c => c.syntaxCheck(CLS_MAIN, CLS_MAIN, (ctx.clsSource || "").replace(/ENDLOOP\./i, "")), {
    check: r => {
      expectShape(r.length > 0, "no message for a LOOP without ENDLOOP");
      const m = r[0];
      expectShape(m.line > 0 && typeof m.text === "string" && m.severity, `message not parsed: ${JSON.stringify(m)}`);
      return `${r.length} messages, first: ${m.severity} line ${m.line} col ${m.offset} "${m.text}"`;
    }
  });
  add("syntaxCheck(include, mainProgram context)", "check", async c => {
    const src = await c.getObjectSource(`${INCL}/source/main`);
    return c.syntaxCheck(`${INCL}/source/main`, `${INCL}/source/main`, src, PROG);
  }, { check: r => `${r.length} messages` });

  // ---- completion / element info / navigation --------------------------------
  const progPos = () => position(ctx.progSource || "", "lo_greeter->greet");
  const defPos = () => position(ctx.progSource || "", "zcl_demo_greeter");
  add("codeCompletion", "completion", c => { const p = progPos(); return c.codeCompletion(PROG_MAIN, ctx.progSource || "", p.line, p.column + 12); }, { check: nonEmptyArray("proposals") });
  add("codeCompletionFull", "completion", c => { const p = progPos(); return c.codeCompletionFull(PROG_MAIN, ctx.progSource || "", p.line, p.column + 12, "greet"); }, { check: r => `${r.length} chars` });
  add("codeCompletionElement", "elinfo", c => { const p = defPos(); return c.codeCompletionElement(PROG_MAIN, ctx.progSource || "", p.line, p.column + 3); }, {
    check: r => { expectShape(typeof r === "object", "returned the raw body (no abapsource:elementInfo)"); return `${r.type} ${r.name}, ${r.components.length} components`; }
  });
  add("findDefinition", "nav", c => { const p = defPos(); return c.findDefinition(PROG_MAIN, ctx.progSource || "", p.line, p.column, p.endColumn); }, {
    check: r => { expectShape(r.url, "empty url"); return `${r.url} ${r.line},${r.column}`; }
  });
  add("findDefinition(implementation)", "nav", c => { const p = position(ctx.progSource || "", "greet(", 16); return c.findDefinition(PROG_MAIN, ctx.progSource || "", p.line, p.column, p.endColumn - 1, true); }, {
    check: r => { expectShape(r.url, "empty url"); return `${r.url} ${r.line},${r.column}`; }
  });
  add("typeHierarchy", "nav", c => { const p = position(ctx.clsSource || "", "zcl_demo_greeter"); return c.typeHierarchy(CLS_MAIN, ctx.clsSource || "", p.line, p.column, true); }, {
    check: r => {
      expectShape(r.some(n => n.name === "ZIF_DEMO_GREETING"), `no super type ZIF_DEMO_GREETING: ${r.map(n => n.name).join(", ")}`);
      return `${r.length} entries: ${r.map(n => `${n.type} ${n.name}`).join(", ")}`;
    }
  });
  add("typeHierarchy (sub types of ZIF_DEMO_GREETING)", "nav", async c => {
    const src = await c.getObjectSource(`${INTF}/source/main`);
    const p = position(src, "zif_demo_greeting");
    return c.typeHierarchy(`${INTF}/source/main`, src, p.line, p.column);
  }, {
    check: r => {
      expectShape(r.some(n => n.name === "ZIF_DEMO_GREETING") && r.some(n => n.name === "ZCL_DEMO_GREETER"), `entries ${r.map(n => n.name).join(", ")}`);
      return `${r.length} entries: ${r.map(n => `${n.type} ${n.name} line ${n.line}`).join(", ")}`;
    }
  });
  add("abapDocumentation", "elinfo", c => { const p = position(ctx.progSource || "", "WRITE"); return c.abapDocumentation(PROG_MAIN, ctx.progSource || "", p.line, p.column + 1); }, { check: r => `${String(r).length} chars of HTML` });

  // ---- where-used ----------------------------------------------------------------
  add("usageReferences(class)", "usage", async c => (ctx.refs = await c.usageReferences(CLS)), { check: nonEmptyArray("references") });
  add("usageReferences(class main, line, column)", "usage", c => { const p = position(ctx.clsSource || "", "greet_all"); return c.usageReferences(CLS_MAIN, p.line, p.column + 1); }, { check: r => `${r.length} references` });
  add("usageReferenceSnippets", "usage", c => c.usageReferenceSnippets(ctx.refs && ctx.refs.length ? ctx.refs :
    [{ objectIdentifier: "ABAPFullName;ZDEMO_REPORT", uri: PROG, parentUri: "", isResult: true, canHaveChildren: false, usageInformation: "", "adtcore:responsible": "", "adtcore:name": "ZDEMO_REPORT", "adtcore:type": "PROG/P", packageRef: { "adtcore:uri": "", "adtcore:name": "$ZDEMO" } }]), { check: r => `${r.length} snippet groups` });

  // ---- pretty printer ----------------------------------------------------------
  add("prettyPrinterSetting", "pretty", c => c.prettyPrinterSetting(), {
    check: r => { expectShape(r && r["abapformatter:style"], "no abapformatter:style"); return JSON.stringify(r); }
  });
  add("setPrettyPrinterSetting", "pretty", c => c.setPrettyPrinterSetting(true, "keywordUpper"), { check: r => `${String(r).length} chars` });
  add("prettyPrinter", "pretty", c => c.prettyPrinter("report zx.\nwrite 'a'.\n"), {
    check: r => { expectShape(r !== "report zx.\nwrite 'a'.\n", "source echoed back unchanged (the library returns the input when the body is empty)"); return JSON.stringify(short(r, 60)); }
  });

  // ---- quick fixes ------------------------------------------------------------
  add("fixProposals", "quickfix", async c => {
    const src = (ctx.progSource || "").replace("DATA lv_sum TYPE i.", "DATA lv_sum TYPE i.\n  lv_undeclared = 1.");
    const p = position(src, "lv_undeclared");
    ctx.fixSource = src;
    return (ctx.fixes = await c.fixProposals(PROG_MAIN, src, p.line, p.column + 1));
  }, { check: nonEmptyArray("proposals") });
  add("fixEdits", "quickfix", c => c.fixEdits(ctx.fixes && ctx.fixes.length ? ctx.fixes[0] : {
    "adtcore:uri": "/sap/bc/adt/quickfixes/evaluation/abap/declare_local_variable", "adtcore:type": "quickfix/proposal",
    "adtcore:name": "Declare local variable", "adtcore:description": "", uri: PROG_MAIN, line: 13, column: 3, userContent: ""
  }, ctx.fixSource || ctx.progSource || ""), { check: nonEmptyArray("deltas") });

  // ---- revisions ---------------------------------------------------------------
  add("revisions(class)", "revisions", async c => (ctx.revs = await c.revisions(CLS)), { check: nonEmptyArray("revisions") });
  add("revisions(class, definitions include)", "revisions", c => c.revisions(CLS, "definitions"), { check: nonEmptyArray("revisions") });
  add("revisions(program)", "revisions", c => c.revisions(PROG), { check: nonEmptyArray("revisions") });
  add("getObjectSource(revision uri)", "revisions", c => c.getObjectSource(ctx.revs && ctx.revs.length ? ctx.revs[0].uri :
    `${CLS_MAIN}/versions/19700101000000/00000/content`), { method: "getObjectSource (revision)", check: r => `${r.length} chars` });

  // ---- ABAP Unit ------------------------------------------------------------------
  add("unitTestRun(class)", "aunit", async c => (ctx.tests = await c.unitTestRun(COUNTER)), { check: nonEmptyArray("test classes") });
  add("unitTestEvaluation", "aunit", c => c.unitTestEvaluation(ctx.tests && ctx.tests.length ? ctx.tests[0] : {
    "adtcore:uri": `${COUNTER}/includes/testclasses#type=CLAS%2FOCL;name=LTCL_COUNTER`, "adtcore:type": "CLAS/OCL", "adtcore:name": "LTCL_COUNTER",
    uriType: "semantic", durationCategory: "short", riskLevel: "harmless", alerts: [],
    testmethods: [{ "adtcore:uri": `${COUNTER}/includes/testclasses#type=CLAS%2FOLD;name=LTCL_COUNTER%20%20%20%20%20%20%20%20%20%20%20%20%20%20%20%20%20%20%20%20%20%20COUNTS_UP`, "adtcore:type": "CLAS/OLD", "adtcore:name": "COUNTS_UP", executionTime: 0, uriType: "semantic", unit: "s", alerts: [] }]
  }), { check: nonEmptyArray("methods") });
  // as abap-adt-api's own test: the first test method's navigation URI and its include's text
  add("unitTestOccurrenceMarkers", "aunit", async c => {
    const run = await c.unitTestRun(COUNTER);
    const method = run[0].testmethods[0];
    ctx.markerMethod = method["adtcore:name"];
    const src = await c.getObjectSource(`${COUNTER}/includes/testclasses`);
    return c.unitTestOccurrenceMarkers(method.navigationUri || method["adtcore:uri"], src);
  }, {
    check: r => {
      expectShape(r.length >= 2, `markers of ${ctx.markerMethod}: ${JSON.stringify(r).slice(0, 200)}`);
      return `${r.length} markers of ${ctx.markerMethod}: ${r.map(m => `${m.kind}@${m.location.range.start.line}`).join(", ")}`;
    }
  });

  // ---- ATC -----------------------------------------------------------------------
  add("atcCustomizing", "atc", c => c.atcCustomizing(), { check: r => `${r.properties.length} properties, ${r.excemptions.length} exemption reasons` });
  add("atcCheckVariant", "atc", async c => (ctx.worklist = await c.atcCheckVariant("DEFAULT")), { check: r => { expectShape(r, "empty worklist id"); return `worklist ${r}`; } });
  add("createAtcRun", "atc", async c => (ctx.atcRun = await c.createAtcRun(ctx.worklist || "DEFAULT", CLS)), { check: r => `run ${r.id} ts ${r.timestamp}` });
  add("atcWorklists", "atc", c => c.atcWorklists(ctx.atcRun ? ctx.atcRun.id : (ctx.worklist || "0000000000000000000000000001"), ctx.atcRun ? ctx.atcRun.timestamp : 0, "99999999999999999999999999999999"), {
    check: r => `${r.objects.length} objects`
  });
  add("atcUsers", "atc", c => c.atcUsers(), { check: nonEmptyArray("users") });
  add("atcExemptProposal", "atc", c => c.atcExemptProposal("MARKER"), { check: r => shape(r) });
  add("atcRequestExemption", "atc", c => c.atcRequestExemption({
    finding: "MARKER", package: "$ZDEMO", subObject: "", subObjectType: "", subObjectTypeDescr: "", objectTypeDescr: "", approver: "DEVELOPER",
    reason: "FPOS", justification: "conformance", notify: "never",
    restriction: { enabled: true, singlefinding: true, rangeOfFindings: { enabled: false, restrictByObject: { object: false, package: false, subobject: false, target: "" }, restrictByCheck: { check: false, message: false, target: "" } } }
  }), { check: r => shape(r) });
  add("atcDocumentation", "atc", c => c.atcDocumentation("/sap/bc/adt/documentation/atc/documents/itemid/0001/index/1"), { check: r => `status ${r.status}` });
  add("atcContactUri", "atc", c => c.atcContactUri("/sap/bc/adt/atc/findings/itemid/0001/index/1"), { check: r => r });
  add("atcChangeContact", "atc", c => c.atcChangeContact("/sap/bc/adt/atc/items/itemid/0001", "DEVELOPER"));

  // ---- transports -------------------------------------------------------------
  add("transportInfo(transportable program)", "transports", c => c.transportInfo(`${TRPROG}/source/main`, "ZDEMO_TR"), {
    check: r => `RECORDING=${r.RECORDING} DLVUNIT=${r.DLVUNIT} TRANSPORTS=${(r.TRANSPORTS || []).length}`
  });
  add("transportInfo(local program)", "transports", c => c.transportInfo(PROG_MAIN, "$ZDEMO"), { check: r => `DEVCLASS=${r.DEVCLASS} TRANSPORTS=${(r.TRANSPORTS || []).length}` });
  add("createTransport", "transports", async c => (ctx.transport = await c.createTransport(TRPROG, "abap-adt-api conformance", "ZDEMO_TR")), {
    check: r => { expectShape(/^[A-Z0-9]{3}K\d{6}$/.test(r), `not a transport number: ${r}`); return r; }
  });
  add("userTransports", "transports", c => c.userTransports(OPTS.user), { check: r => `workbench targets=${r.workbench.length}, customizing=${r.customizing.length}` });
  // a user has no saved search until one is created (A4H answers the empty list first)
  add("createTransportsConfig", "transports", c => c.createTransportsConfig(), {
    check: r => { expectShape(r && r.User === OPTS.user && r.WorkbenchRequests === true, `defaults ${JSON.stringify(r)}`); return shape(r); }
  });
  add("transportConfigurations", "transports", async c => (ctx.tconfs = await c.transportConfigurations()), {
    check: r => {
      expectShape(Array.isArray(r) && r.length > 0, "configurations: empty array after createTransportsConfig");
      expectShape(r.every(x => x.link && x.etag), `configuration without link or etag: ${JSON.stringify(r[0])}`);
      return `${r.length} configurations`;
    }
  });
  const confUri = () => (ctx.tconfs && ctx.tconfs.length ? ctx.tconfs[0].link : "/sap/bc/adt/cts/transportrequests/searchconfiguration/configurations/0001");
  add("getTransportConfiguration", "transports", c => c.getTransportConfiguration(confUri()), {
    check: r => { expectShape(r && r.User === OPTS.user, `configuration ${JSON.stringify(r)}`); return shape(r); }
  });
  add("setTransportsConfig", "transports", c => c.setTransportsConfig(confUri(), (ctx.tconfs && ctx.tconfs[0] && ctx.tconfs[0].etag) || "1", {
    WorkbenchRequests: true, CustomizingRequests: false, TransportOfCopies: false, DateFilter: 2, Modifiable: true, Released: false, User: OPTS.user, FromDate: new Date(), ToDate: new Date()
  }), {
    check: r => { expectShape(r && r.Released === false && r.CustomizingRequests === false, `not changed: ${JSON.stringify(r)}`); return shape(r); }
  });
  add("transportsByConfig", "transports", c => c.transportsByConfig(confUri()), { check: r => `workbench targets=${r.workbench.length}` });
  const trnum = () => ctx.transport || "A4HK900101";
  add("transportDetails", "transports", c => c.transportDetails(trnum()), { check: r => shape(r) });
  add("transportSetOwner", "transports", c => c.transportSetOwner(trnum(), OPTS.user), { check: r => shape(r) });
  add("transportAddUser", "transports", c => c.transportAddUser(trnum(), OPTS.user), { check: r => shape(r) });
  add("transportRelease", "transports", c => c.transportRelease(trnum()), { check: r => `${r.length} reports` });
  add("transportDelete", "transports", c => c.transportDelete(trnum()));
  add("systemUsers", "transports", c => c.systemUsers(), { check: nonEmptyArray("users") });
  add("transportReference", "transports", c => c.transportReference("R3TR", "PROG", "ZDEMO_TR_REPORT"), { check: r => `${r}` });
  // SSCR registration was removed in S/4HANA 1909 (abap-adt-api's own test calls it only when
  // the discovery lists /sscr/registration/objects); the emulator models a newer release
  add("objectRegistrationInfo", "create", c => c.objectRegistrationInfo(CLS), { check: r => shape(r), oos: true });

  // ---- validation / creation / deletion -------------------------------------
  add("validateNewObject(PROG/P)", "create", c => c.validateNewObject({ objtype: "PROG/P", objname: "ZCONF_ADTAPI_PROG", packagename: "$ZDEMO", description: "conformance" }), { check: r => JSON.stringify(r) });
  add("validateNewObject(CLAS/OC)", "create", c => c.validateNewObject({ objtype: "CLAS/OC", objname: "ZCL_CONF_ADTAPI", packagename: "$ZDEMO", description: "conformance" }), { check: r => JSON.stringify(r) });
  add("validateNewObject(FUGR/FF)", "create", c => c.validateNewObject({ objtype: "FUGR/FF", objname: "Z_CONF_ADTAPI_FM", fugrname: "ZDEMO_FG", description: "conformance" }), { check: r => JSON.stringify(r) });
  add("createObject(PROG/P in $ZDEMO)", "create", async c => {
    await c.createObject({ objtype: "PROG/P", name: "ZCONF_ADTAPI_PROG", parentName: "$ZDEMO", parentPath: "/sap/bc/adt/packages/%24zdemo", description: "abap-adt-api conformance" });
    ctx.created = `${ADT}/programs/programs/zconf_adtapi_prog`;
  });
  add("createObject(FUGR/FF in ZDEMO_FG)", "create", c => c.createObject({ objtype: "FUGR/FF", name: "Z_CONF_ADTAPI_FM", parentName: "ZDEMO_FG", parentPath: FUGR, description: "abap-adt-api conformance" }));
  add("deleteObject [stateful]", "create", async c => {
    const target = ctx.created || LARGE;
    const h = (await c.lock(target)).LOCK_HANDLE;
    try { await c.deleteObject(target, h); } finally { await c.unLock(target, h).catch(() => {}); }
    return target;
  }, { stateful: true, check: r => `deleted ${r}` });

  // ---- refactoring --------------------------------------------------------------
  add("renameEvaluate", "refactor", async c => { const p = position(ctx.clsSource || "", "mv_salutation"); return (ctx.rename = await c.renameEvaluate(CLS_MAIN, p.line, p.column + 1, p.endColumn)); }, { check: r => `${r.oldName} affected=${r.affectedObjects.length}` });
  add("renamePreview", "refactor", c => c.renamePreview(ctx.rename ? Object.assign({}, ctx.rename, { newName: "MV_GREETING" }) : {
    oldName: "MV_SALUTATION", newName: "MV_GREETING", adtObjectUri: { uri: CLS_MAIN, range: { start: { line: 20, column: 9 }, end: { line: 20, column: 22 } }, query: undefined, hashparms: undefined },
    transport: "", ignoreSyntaxErrorsAllowed: false, ignoreSyntaxErrors: false, userContent: "", affectedObjects: []
  }, ""), { check: r => shape(r) });
  add("renameExecute", "refactor", c => c.renameExecute({ oldName: "MV_SALUTATION", newName: "MV_GREETING", adtObjectUri: { uri: CLS_MAIN, range: { start: { line: 20, column: 9 }, end: { line: 20, column: 22 } }, query: undefined, hashparms: undefined }, transport: "", ignoreSyntaxErrorsAllowed: false, ignoreSyntaxErrors: false, userContent: "", affectedObjects: [] }), { check: r => shape(r) });
  add("extractMethodEvaluate", "refactor", async c => (ctx.extract = await c.extractMethodEvaluate(CLS_MAIN, { start: { line: 29, column: 4 }, end: { line: 29, column: 34 } })), { check: r => shape(r) });
  add("extractMethodPreview", "refactor", c => c.extractMethodPreview(ctx.extract ? Object.assign({}, ctx.extract, { name: "set_salutation" }) : { name: "NEW_METHOD", isStatic: false, visibility: "PRIVATE", classBasedExceptions: true, parameters: [], exceptions: [], content: "", className: "ZCL_DEMO_GREETER", isEventAllowed: false, isEvent: false, isForTesting: false, userContent: "",
    genericRefactoring: { title: "Extract Method", adtObjectUri: { uri: CLS_MAIN, range: { start: { line: 29, column: 4 }, end: { line: 29, column: 34 } }, query: undefined, hashparms: undefined }, affectedObjects: [], transport: "", ignoreSyntaxErrorsAllowed: false, ignoreSyntaxErrors: false, userContent: "" } }), { check: r => shape(r) });
  add("extractMethodExecute", "refactor", c => c.extractMethodExecute({ title: "Extract Method", adtObjectUri: { uri: CLS_MAIN, range: { start: { line: 29, column: 4 }, end: { line: 29, column: 34 } }, query: undefined, hashparms: undefined }, affectedObjects: [], transport: "", ignoreSyntaxErrorsAllowed: false, ignoreSyntaxErrors: false, userContent: "" }), { check: r => shape(r) });
  add("changePackagePreview", "oos", c => c.changePackagePreview({ oldPackage: "$ZDEMO", newPackage: "$TMP", adtObjectUri: PROG, transport: "", ignoreSyntaxErrorsAllowed: false, ignoreSyntaxErrors: false, userContent: "",
    affectedObjects: { uri: PROG, type: "PROG/P", name: "ZDEMO_REPORT", oldPackage: "$ZDEMO", newPackage: "$TMP", parentUri: "" } }, ""), OOS);
  add("changePackageExecute", "oos", c => c.changePackageExecute({ oldPackage: "$ZDEMO", newPackage: "$TMP", adtObjectUri: PROG, transport: "", ignoreSyntaxErrorsAllowed: false, ignoreSyntaxErrors: false, userContent: "",
    affectedObjects: { uri: PROG, type: "PROG/P", name: "ZDEMO_REPORT", oldPackage: "$ZDEMO", newPackage: "$TMP", parentUri: "" } }), OOS);

  // ---- out of scope for a source editor ---------------------------------------
  add("runClass", "oos", c => c.runClass("ZCL_DEMO_GREETER"), OOS);
  add("objectEnhancements", "oos", c => c.objectEnhancements(CLS_MAIN), OOS);
  add("getDomainProperties", "oos", c => c.getDomainProperties("/sap/bc/adt/ddic/domains/zconf_domain"), OOS);
  add("setDomainProperties [stateful]", "oos", c => c.setDomainProperties("/sap/bc/adt/ddic/domains/zconf_domain",
    { typeInformation: { datatype: "CHAR", length: 10, decimals: 0 }, outputInformation: { length: 10, signExists: false, lowercase: false, ampmFormat: false } },
    { name: "ZCONF_DOMAIN", description: "x", language: "EN", masterLanguage: "EN", masterSystem: "A4H", responsible: OPTS.user, packageName: "$ZDEMO" }, "NONE"),
  Object.assign({ stateful: true }, OOS));
  add("getDataElementProperties", "oos", c => c.getDataElementProperties("/sap/bc/adt/ddic/dataelements/zconf_dtel"), OOS);
  add("setDataElementProperties [stateful]", "oos", c => c.setDataElementProperties("/sap/bc/adt/ddic/dataelements/zconf_dtel",
    { typeName: "", dataType: "CHAR", dataTypeLength: 10, fieldLabels: { shortFieldLabel: "s", mediumFieldLabel: "m", longFieldLabel: "l", headingFieldLabel: "h" } },
    { name: "ZCONF_DTEL", description: "x", language: "EN", masterLanguage: "EN", masterSystem: "A4H", responsible: OPTS.user, packageName: "$ZDEMO" }, "NONE"),
  Object.assign({ stateful: true }, OOS));
  add("annotationDefinitions", "oos", c => c.annotationDefinitions(), OOS);
  add("ddicElement", "oos", c => c.ddicElement("t000"), OOS);
  add("ddicRepositoryAccess", "oos", c => c.ddicRepositoryAccess("t00*"), OOS);
  add("syntaxCheck(CDS url)", "oos", c => c.syntaxCheck("/sap/bc/adt/ddic/ddl/sources/zconf_cds", "/sap/bc/adt/ddic/ddl/sources/zconf_cds/source/main", "define view entity Zconf as select from t000 { key mandt }"), Object.assign({ method: "syntaxCheck (CDS)" }, OOS));
  add("publishServiceBinding", "oos", c => c.publishServiceBinding("ZCONF_SRVB", "0001"), OOS);
  add("unPublishServiceBinding", "oos", c => c.unPublishServiceBinding("ZCONF_SRVB", "0001"), OOS);
  add("bindingDetails", "oos", c => c.bindingDetails({ releaseSupported: false, published: false, repair: false, bindingCreated: false, responsible: "", masterLanguage: "EN", masterSystem: "A4H", name: "ZCONF_SRVB", type: "SRVB/SVB", changedAt: "", version: "active", createdAt: "", changedBy: "", createdBy: "", description: "", descriptionTextLimit: 0, language: "EN",
    packageRef: { uri: "", type: "DEVC/K", name: "$ZDEMO" }, links: [{ href: "/sap/bc/adt/businessservices/odatav2/ZCONF", rel: "http://www.sap.com/categories/odatav2", type: "", title: "" }],
    services: [{ name: "ZCONF", version: "0001", releaseState: "", serviceDefinition: { uri: "", type: "SRVD/SRV", name: "ZCONF_SRVD" } }], binding: { type: "ODATA", version: "V2", category: "0", implementation: { name: "ZCONF" } } }), OOS);
  add("tableContents", "oos", c => c.tableContents("T000", 5), OOS);
  add("runQuery", "oos", c => c.runQuery("select * from t000", 5), OOS);
  add("feeds", "oos", c => c.feeds(), OOS);
  add("dumps", "oos", c => c.dumps(), OOS);
  add("gitRepos", "oos", c => c.gitRepos(), OOS);
  add("gitExternalRepoInfo", "oos", c => c.gitExternalRepoInfo("https://example.invalid/repo.git"), OOS);
  add("gitCreateRepo", "oos", c => c.gitCreateRepo("$ZDEMO", "https://example.invalid/repo.git"), OOS);
  add("gitPullRepo", "oos", c => c.gitPullRepo("000000000001"), OOS);
  add("gitUnlinkRepo", "oos", c => c.gitUnlinkRepo("000000000001"), OOS);
  const repo = { key: "000000000001", sapPackage: "$ZDEMO", url: "https://example.invalid/repo.git", branch_name: "refs/heads/main", created_by: "", created_at: new Date(), created_email: "", deserialized_by: "", deserialized_at: new Date(), deserialized_email: "", status: "", status_text: "",
    links: [{ href: "/sap/bc/adt/abapgit/repos/000000000001/stage", rel: "", type: "stage_link" }, { href: "/sap/bc/adt/abapgit/repos/000000000001/push", rel: "", type: "push_link" }, { href: "/sap/bc/adt/abapgit/repos/000000000001/checks", rel: "", type: "check_link" }] };
  add("stageRepo", "oos", c => c.stageRepo(repo), OOS);
  add("pushRepo", "oos", c => c.pushRepo(repo, { staged: [], unstaged: [], ignored: [], comment: "x", author: { name: "a", email: "a@example.invalid" }, committer: { name: "a", email: "a@example.invalid" } }), OOS);
  add("checkRepo", "oos", c => c.checkRepo(repo), OOS);
  add("remoteRepoInfo", "oos", c => c.remoteRepoInfo(repo), OOS);
  add("switchRepoBranch", "oos", c => c.switchRepoBranch(repo, "refs/heads/dev"), OOS);
  add("debuggerListeners", "oos", c => c.debuggerListeners("user", "conf-terminal", "conf-ide", OPTS.user), OOS);
  add("debuggerListen", "oos", c => c.debuggerListen("user", "conf-terminal", "conf-ide", OPTS.user), OOS);
  add("debuggerDeleteListener", "oos", c => c.debuggerDeleteListener("user", "conf-terminal", "conf-ide", OPTS.user), OOS);
  add("debuggerSetBreakpoints", "oos", c => c.debuggerSetBreakpoints("user", "conf-terminal", "conf-ide", "conf-client", [`${PROG_MAIN}#start=16`], OPTS.user), OOS);
  add("debuggerDeleteBreakpoints", "oos", c => c.debuggerDeleteBreakpoints({ kind: "line", clientId: "conf-client", id: "KIND=0", nonAbapFlavour: "", uri: { uri: PROG_MAIN, range: { start: { line: 16, column: 0 }, end: { line: 16, column: 0 } } }, type: "", name: "" }, "user", "conf-terminal", "conf-ide", OPTS.user), OOS);
  add("debuggerAttach", "oos", c => c.debuggerAttach("user", "DEBUGGEE", OPTS.user), OOS);
  add("debuggerSaveSettings", "oos", c => c.debuggerSaveSettings({}), OOS);
  add("debuggerStackTrace", "oos", c => c.debuggerStackTrace(), OOS);
  add("debuggerVariables", "oos", c => c.debuggerVariables(["SY-SUBRC"]), OOS);
  add("debuggerChildVariables", "oos", c => c.debuggerChildVariables(), OOS);
  add("debuggerStep", "oos", c => c.debuggerStep("stepOver"), OOS);
  add("debuggerGoToStack", "oos", c => c.debuggerGoToStack("/sap/bc/adt/debugger/stack/type/ABAP/position/1"), OOS);
  add("debuggerSetVariableValue", "oos", c => c.debuggerSetVariableValue("LV_SUM", "1"), OOS);
  add("tracesList", "oos", c => c.tracesList(), OOS);
  add("tracesListRequests", "oos", c => c.tracesListRequests(), OOS);
  add("tracesHitList", "oos", c => c.tracesHitList("CONFTRACE"), OOS);
  add("tracesDbAccess", "oos", c => c.tracesDbAccess("CONFTRACE"), OOS);
  add("tracesStatements", "oos", c => c.tracesStatements("CONFTRACE"), OOS);
  add("tracesSetParameters", "oos", c => c.tracesSetParameters({ allMiscAbapStatements: false, allProceduralUnits: true, allInternalTableEvents: false, allDynproEvents: false, description: "conformance", aggregate: true, explicitOnOff: false, withRfcTracing: false, allSystemKernelEvents: false, sqlTrace: false, allDbEvents: true, maxSizeForTraceFile: 30, amdpTrace: false, maxTimeForTracing: 30 }), OOS);
  add("tracesCreateConfiguration", "oos", c => c.tracesCreateConfiguration({ objectType: "URL", processType: "HTTP", description: "conformance", server: "*", expires: new Date(Date.now() + 3600e3), maximalExecutions: 1, parametersId: "/sap/bc/adt/runtime/traces/abaptraces/parameters/CONF" }), OOS);
  add("tracesDeleteConfiguration", "oos", c => c.tracesDeleteConfiguration("CONFTRACE"), OOS);
  add("tracesDelete", "oos", c => c.tracesDelete("CONFTRACE"), OOS);
  add("rapGenIsAvailable", "oos", c => c.rapGenIsAvailable(), OOS);
  add("rapGenValidateInitial", "oos", c => c.rapGenValidateInitial("uiservice", "/sap/bc/adt/ddic/tables/zconf", "$ZDEMO"), OOS);
  add("rapGenGetSchema", "oos", c => c.rapGenGetSchema("uiservice", "/sap/bc/adt/ddic/tables/zconf", "$ZDEMO"), OOS);
  add("rapGenGetContent", "oos", c => c.rapGenGetContent("uiservice", "/sap/bc/adt/ddic/tables/zconf", "$ZDEMO"), OOS);
  add("rapGenGetUiConfig", "oos", c => c.rapGenGetUiConfig("uiservice", "/sap/bc/adt/ddic/tables/zconf", "$ZDEMO"), OOS);
  add("rapGenValidateContent", "oos", c => c.rapGenValidateContent("uiservice", "/sap/bc/adt/ddic/tables/zconf", {}), OOS);
  add("rapGenPreview", "oos", c => c.rapGenPreview("uiservice", "/sap/bc/adt/ddic/tables/zconf", {}), OOS);
  add("rapGenGenerate", "oos", c => c.rapGenGenerate("uiservice", "/sap/bc/adt/ddic/tables/zconf", "", {}), OOS);
  add("rapGenPublishService", "oos", c => c.rapGenPublishService("ZCONF_SRVB"), OOS);

  // ---- session end ------------------------------------------------------------
  add("dropSession() then a request", "session", async c => {
    c.stateful = session_types.stateful;
    await c.searchObject("ZDEMO*");
    await c.dropSession();
    return c.searchObject("ZDEMO*");
  }, { check: r => `${r.length} hits` });
  add("logout", "session", c => c.logout());
  return s;
}

function categorize(step, ok, http, error) {
  if (step.oos) return "OUT-OF-SCOPE";
  if (ok) return "WORKS";
  const statuses = http.map(h => h.status).filter(x => x);
  const last = statuses.length ? statuses[statuses.length - 1] : 0;
  if (last === 404 && error && error.kind !== "ShapeError") return "404-MISSING";
  if (error && error.kind === "ShapeError" && http.some(h => h.status === 404)) return "404-MISSING";
  return "BROKEN";
}

async function survey() {
  const S = "survey";
  const ctx = {};
  ctx.any = newClient();
  const counts = { WORKS: 0, "404-MISSING": 0, BROKEN: 0, "OUT-OF-SCOPE": 0 };
  let stateful = null;
  const statefulClient = async () => {
    if (!stateful) {
      stateful = newClient();
      await stateful.login();
      stateful.stateful = session_types.stateful;
    }
    return stateful;
  };
  for (const step of surveySteps(ctx)) {
    let client;
    if (step.fresh === false) client = ctx.any;
    else if (step.stateful) client = await statefulClient().catch(() => newClient());
    else {
      client = newClient();
      await client.login().catch(() => {});
    }
    const res = await runStep(S, step.id, () => step.run(client), {
      check: step.check,
      extra: () => ({ method: step.method || step.id.split(/[ (\[]/)[0], area: AREAS[step.area] || step.area }),
      classify: (ok, http, error) => categorize(step, ok, http, error)
    });
    counts[res.line.detail.category]++;
  }
  if (stateful) await stateful.logout().catch(() => {});
  emit({ scenario: S, step: "summary", ok: true, detail: { counts, total: Object.values(counts).reduce((a, b) => a + b, 0) } });
}

function lastStatus(http) {
  const st = http.map(h => h.status).filter(x => x !== undefined);
  return st.length ? st[st.length - 1] : null;
}

// ---------------------------------------------------------------------------------
// scenario: defects
// ---------------------------------------------------------------------------------
async function defects() {
  const S = "defects";
  const hits = r => { expectShape(Array.isArray(r) && r.length > 0, "no hits"); return `${r.length} hits`; };

  // (i) the echoed deletion cookie: sap-contextid=0 means "no context", not a dead one
  const c = newClient();
  const jar = () => ({ jarContextId: jarContextId(c) === undefined ? null : jarContextId(c) });
  await runStep(S, "(i) login", () => c.login(), { extra: jar });
  c.stateful = session_types.stateful;
  await runStep(S, "(i) stateful request opens a context", () => c.searchObject("ZDEMO*"), {
    check: r => { expectShape(liveContext(c), "no sap-contextid cookie"); return hits(r); }, extra: jar
  });
  c.stateful = session_types.stateless;
  await runStep(S, "(i) first stateless request ends it (200 + sap-contextid=0; expires=1970)", () => c.searchObject("ZDEMO*"), {
    check: r => { expectShape(jarContextId(c) === "0", `no deletion cookie (jar: ${jarContextId(c)})`); return hits(r); }, extra: jar
  });
  await runStep(S, "(i) next request echoes sap-contextid=0 and is served", () => c.searchObject("ZDEMO*"), { check: hits, extra: jar });
  await runStep(S, "(i) and so is every request after that", () => c.getObjectSource(CLS_MAIN), {
    check: r => { expectShape(/CLASS zcl_demo_greeter DEFINITION/i.test(r), "not the class source"); return `${r.length} chars`; }, extra: jar
  });
  await c.logout().catch(() => {});

  // (ii) core discovery: one collection per workspace, each with atom:category
  const d = newClient();
  await d.login().catch(() => {});
  await runStep(S, "(ii) adtCoreDiscovery", () => d.adtCoreDiscovery(), {
    check: r => {
      expectShape(r.length > 0, "no workspaces");
      expectShape(r.every(w => w.collection && w.collection.href && w.collection.category), `collection without href/category: ${JSON.stringify(r).slice(0, 200)}`);
      return `${r.length} workspaces: ${r.map(w => `${w.title} (${w.collection.category})`).join(", ")}`;
    }
  });
  await runStep(S, "(ii) raw GET /sap/bc/adt/core/discovery", async () => {
    const r = await d.httpClient.request("/sap/bc/adt/core/discovery");
    const first = /<app:collection[\s\S]*?<\/app:collection>/.exec(r.body);
    return { status: r.status, contentType: r.headers["content-type"], hasAtomCategory: /atom:category/.test(r.body), firstCollection: first ? first[0] : null };
  }, {
    check: r => {
      expectShape(r.status === 200 && /^application\/atomsvc\+xml/.test(r.contentType || "") && r.hasAtomCategory, `unexpected answer: ${JSON.stringify(r).slice(0, 200)}`);
      return JSON.stringify(r);
    },
    quietHttp: true
  });

  // (iii) a package holding only sub-packages
  await runStep(S, "(iii) nodeContents(DEVC/K, $TMP)", () => d.nodeContents("DEVC/K", "$TMP"), {
    check: r => {
      const subs = r.nodes.filter(n => n.OBJECT_TYPE === "DEVC/K" && n.OBJECT_NAME).map(n => n.OBJECT_NAME);
      expectShape(subs.includes("$ZDEMO"), `sub-package $ZDEMO not listed: nodes=${JSON.stringify(r.nodes.map(n => n.OBJECT_NAME))}`);
      return `nodes=${r.nodes.length}, sub-packages ${subs.join(", ")}`;
    }
  });
  await runStep(S, "(iii) GET /sap/bc/adt/packages/$TMP (the package exists)", async () => {
    const r = await d.httpClient.request("/sap/bc/adt/packages/%24tmp", { headers: { Accept: "application/vnd.sap.adt.packages.v1+xml" } });
    const subs = (r.body.match(/<pak:packageRef[^>]*>/g) || []);
    return { status: r.status, subPackageRefs: subs.length, subPackages: /<pak:subPackages\s*\/>/.test(r.body) ? "empty element" : "has content" };
  }, { check: r => { expectShape(r.status === 200 && r.subPackageRefs > 0, `no sub-packages: ${JSON.stringify(r)}`); return JSON.stringify(r); } });
  await runStep(S, "(iii) quick search sees the sub-packages", () => d.searchObject("*ZDEMO*", "DEVC/K"), {
    check: r => {
      expectShape(r.some(x => x["adtcore:name"] === "$ZDEMO") && r.some(x => x["adtcore:name"] === "ZDEMO_TR"), "$ZDEMO or ZDEMO_TR not found");
      return r.map(x => `${x["adtcore:type"]} ${x["adtcore:name"]} pkg=${x["adtcore:packageName"]}`).join("; ");
    }
  });

  // (iv) package value helps
  for (const t of ["applicationcomponents", "softwarecomponents", "transportlayers", "translationrelevances"])
    await runStep(S, `(iv) packageSearchHelp(${t})`, () => d.packageSearchHelp(t), {
      check: r => { expectShape(Array.isArray(r) && r.length > 0, "no values"); return `${r.length} values: ${r.map(v => v.name).join(", ")}`; }
    });
  await d.logout().catch(() => {});
}


// ---------------------------------------------------------------------------------
// scenario: cds (the emulator seeded with tests/fixtures/kinds: CDS, RAP and dictionary)
// ---------------------------------------------------------------------------------
const DDLS = `${ADT}/ddic/ddl/sources/zi_kinds_trip`;
const NS_DDLS = `${ADT}/ddic/ddl/sources/%2fzns%2fi_gadget`;
const KINDS_PACKAGE = "$ZKINDS";
/** objtype → [new name, collection, first source (null: metadata kind)] */
const CDS_CREATIONS = [
  ["DDLS/DF", "ZI_CONF_VIEW", "ddic/ddl/sources", "define view entity ZI_CONF_VIEW as select from zkinds_trip { key trip_id }"],
  ["DDLX/EX", "ZC_CONF_VIEW", "ddic/ddlx/sources", "@Metadata.layer: #CORE\nannotate entity ZI_CONF_VIEW with\n{\n}"],
  ["DCLS/DL", "ZI_CONF_VIEW", "acm/dcl/sources", "@MappingRole: true\ndefine role ZI_CONF_VIEW {\n  grant select on ZI_CONF_VIEW;\n}"],
  ["SRVD/SRV", "ZUI_CONF", "ddic/srvd/sources", "define service ZUI_CONF {\n  expose ZI_CONF_VIEW;\n}"],
  ["TABL/DT", "ZCONF_TAB", "ddic/tables", "@EndUserText.label : 'conformance'\n@AbapCatalog.tableCategory : #TRANSPARENT\n@AbapCatalog.deliveryClass : #A\n@AbapCatalog.dataMaintenance : #RESTRICTED\ndefine table zconf_tab {\n  key client : abap.clnt not null;\n  key id     : abap.numc(8) not null;\n  name       : abap.char(40);\n}"],
  ["TABL/DS", "ZCONF_STRUC", "ddic/structures", "@EndUserText.label : 'conformance'\ndefine structure zconf_struc {\n  id   : abap.numc(8);\n  name : abap.char(40);\n}"],
  ["DTEL/DE", "ZCONF_DTEL", "ddic/dataelements", null],
  ["MSAG/N", "ZCONF_MSG", "messageclass", null],
];

async function cds() {
  const S = "cds";
  const c = newClient();
  await runStep(S, "login", () => c.login());
  for (const [url, file] of [[DDLS, "zi_kinds_trip.ddls.asddls"], [NS_DDLS, "#zns#i_gadget.ddls.asddls"]]) {
    await runStep(S, `getObjectSource (${file})`, () => c.getObjectSource(`${url}/source/main`), {
      check: r => {
        const expected = require("fs").readFileSync(require("path").join(OPTS.fixture, file), "utf8");
        expectShape(r === expected, `not the abapGit file byte for byte (${r.length} vs ${expected.length} characters)`);
        return `${r.length} characters, identical`;
      }
    });
  }
  await runStep(S, "objectStructure (DDLS)", () => c.objectStructure(DDLS), {
    check: r => { expectShape(r.metaData["adtcore:type"] === "DDLS/DF", `type ${r.metaData["adtcore:type"]}`); return r.metaData["adtcore:description"]; }
  });
  await runStep(S, "searchObject (DDLS /ZNS/*)", () => c.searchObject("/ZNS/*", "DDLS"), {
    check: r => { expectShape(r.length === 1 && r[0]["adtcore:uri"] === NS_DDLS, JSON.stringify(r)); return r[0]["adtcore:name"]; }
  });
  // data preview (the seeded rows of ZKINDS_TRIP, see test_abap_adt_api.py): a table, a CDS
  // view narrowed by a WHERE, and a free-style SELECT
  await runStep(S, "tableContents (ZKINDS_TRIP, 2 rows)", () => c.tableContents("ZKINDS_TRIP", 2), {
    check: r => {
      const names = r.columns.map(col => col.name);
      expectShape(r.values.length === 2, `${r.values.length} rows`);
      // the include ZKINDS_S_ADMIN adds its fields at the end
      expectShape(names.join() === "CLIENT,TRIP_ID,STATUS,PRICE,CURRENCY,CHANGED_BY,CHANGED_AT", names.join());
      expectShape(r.columns.find(col => col.name === "TRIP_ID").keyAttribute === true, "TRIP_ID is no key");
      expectShape(r.values[0].TRIP_ID === "00000001" && r.values[1].STATUS === "A", JSON.stringify(r.values));
      return `${r.values.length} rows of ${names.length} columns`;
    }
  });
  await runStep(S, "tableContents (ZI_KINDS_TRIP, WHERE)", () => c.tableContents("ZI_KINDS_TRIP", 10, true, "SELECT * FROM ZI_KINDS_TRIP WHERE Status = 'O'"), {
    check: r => {
      expectShape(r.values.length === 2 && r.values.every(row => row.STATUS === "O"), JSON.stringify(r.values));
      expectShape(r.values.map(row => row.TRIPID).join() === "00000001,00000003", JSON.stringify(r.values));
      return `${r.values.length} rows with Status O`;
    }
  });
  await runStep(S, "runQuery (SELECT FROM zkinds_trip)", () => c.runQuery("SELECT trip_id, currency FROM zkinds_trip WHERE currency = 'USD'", 10), {
    check: r => {
      expectShape(r.columns.map(col => col.name).join() === "TRIP_ID,CURRENCY", JSON.stringify(r.columns));
      expectShape(r.values.length === 1 && r.values[0].TRIP_ID === "00000002", JSON.stringify(r.values));
      return "1 row";
    }
  });
  for (const [objtype, name, collection, source] of CDS_CREATIONS) {
    const url = `${ADT}/${collection}/${name.toLowerCase()}`;
    await runStep(S, `validateNewObject (${objtype})`, () => c.validateNewObject({ objtype, objname: name, packagename: KINDS_PACKAGE, description: "conformance" }), {
      check: r => { expectShape(r && r.success === true, JSON.stringify(r)); return "free"; }
    });
    await runStep(S, `createObject (${objtype})`, () => c.createObject({ objtype, name, parentName: KINDS_PACKAGE, parentPath: `${ADT}/packages/%24zkinds`, description: "conformance" }));
    await runStep(S, `objectStructure (${objtype}, inactive)`, () => c.objectStructure(url), {
      check: r => { expectShape(r.metaData["adtcore:version"] === "inactive", r.metaData["adtcore:version"]); return `${r.metaData["adtcore:type"]} ${r.metaData["adtcore:name"]}`; }
    });
    if (source === null) continue;
    c.stateful = session_types.stateful;
    let handle = "";
    await runStep(S, `lock (${objtype})`, async () => (handle = (await c.lock(url)).LOCK_HANDLE));
    await runStep(S, `setObjectSource (${objtype})`, () => c.setObjectSource(`${url}/source/main`, source, handle));
    await runStep(S, `unLock (${objtype})`, () => c.unLock(url, handle));
    c.stateful = session_types.stateless;
    await runStep(S, `activate (${objtype})`, () => c.activate(name, url), {
      check: r => { expectShape(r.success, JSON.stringify(r.messages)); return "activated"; }
    });
    await runStep(S, `getObjectSource (${objtype}, active)`, () => c.getObjectSource(`${url}/source/main`, { version: "active" }), {
      check: r => {
        // the CDS family is kept byte for byte; a table's source is served as ABAP source is,
        // with CRLF line ends: the same lines
        const back = objtype.startsWith("TABL/") ? r.replace(/\r\n/g, "\n") : r;
        expectShape(back === source, `read back ${JSON.stringify(r)}`);
        return "as written";
      }
    });
  }
  await c.dropSession().catch(() => {});
  await runStep(S, "logout", () => c.logout());
}

// ---------------------------------------------------------------------------------
async function main() {
  if (OPTS.list) {
    const names = surveySteps({}).map(s => `${s.oos ? "OOS " : "    "}${s.id}`);
    process.stdout.write(`scenarios: ${SCENARIOS.join(", ")}\nsurvey steps (${names.length}):\n${names.join("\n")}\n`);
    return;
  }
  const run = { "edit-cycle": editCycle, "dev-loop": devLoop, survey, defects, cds };
  for (const name of OPTS.scenarios) {
    try {
      await run[name]();
    } catch (e) {
      emit({ scenario: name, step: "driver", ok: false, error: errorInfo(e) });
    }
  }
}

main().then(() => process.exit(0), e => {
  process.stderr.write(`drive.js: ${e && e.stack ? e.stack : e}\n`);
  process.exit(1);
});
