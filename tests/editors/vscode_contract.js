// @ts-check
"use strict";

/**
 * The extension's pure modules on real data, for test_vscode.py. JSON in (stdin), JSON out.
 *
 * `node vscode_contract.js options`: `{settings, passwords}` → the initializationOptions the
 * extension would start the server with.
 * `node vscode_contract.js answers`: answers of the real server → what the extension makes of
 * them (URI round trip, labels, stat, save/resolve/activation outcomes, quick-pick items,
 * the ABAP Packages view's nodes of `adt/packageContents` answers).
 * `logon`, `candidates`, `status`: the logon check's verdict on a request's failure, what
 * "Open Object" offers for the server's candidates, the status bar for `adt/documentState`.
 * `failure`: the message of a failed request (`error`) or save (`saved`).
 * `bases`: what the extension sends as `adt/restoreDocument` after the events it saw.
 * `create`: the kinds "ABAP: New Object" offers and the parameters it sends.
 * `activation`: "ABAP: Activate" on the server's answers — the offer after a refusal (what
 * is inactive, what to activate with it), what is said after the set was activated, and
 * the paging of the data preview that follows.
 * `views`: the Transports view's nodes of `adt.transportRequests`, the verdict on
 * `adt.checkRelease`, the Testing view's package items and outcomes of
 * `adt.runPackageTests`, the Versions view's nodes of `adt/versions`.
 */

const { readFileSync } = require("node:fs");
const path = require("node:path");

const src = path.join(__dirname, "..", "..", "editors", "vscode", "src");
const results = require(path.join(src, "results.js"));
const activation = require(path.join(src, "activation.js"));
const { paging } = require(path.join(src, "previewTable.js"));
const { OBJECT_KINDS, createParams } = require(path.join(src, "devloopResults.js"));
const settings = require(path.join(src, "settings.js"));
const packageTree = require(path.join(src, "packageTree.js"));
const testTree = require(path.join(src, "testTree.js"));
const transportTree = require(path.join(src, "transportTree.js"));
const versionTree = require(path.join(src, "versionTree.js"));
const { statusText } = require(path.join(src, "documentState.js"));
const { DocumentStats } = require(path.join(src, "stats.js"));
const { DocumentBases } = require(path.join(src, "bases.js"));
const { formatAdtUri, objectLabel, parseAdtUri } = require(
  path.join(src, "uris.js"),
);

/** @param {{settings: Record<string, unknown>, passwords: Record<string, string>}} input */
function options(input) {
  const read = settings.readSettings((key) => input.settings[key]);
  const { systems, warnings } = settings.checkSystems(read.systems);
  const passwords = new Map(Object.entries(input.passwords));
  return {
    warnings,
    ...settings.initializationOptions(read, systems, passwords),
  };
}

/** @param {Record<string, any>} answers */
function understand(answers) {
  const parts = parseAdtUri(answers.opened.uri);
  if (!parts) {
    throw new Error(`not an adt URI: ${answers.opened.uri}`);
  }
  const label = objectLabel(parts.path);
  return {
    roundTrip: formatAdtUri(parts),
    label,
    stat: new DocumentStats().learn(answers.opened.uri, answers.read),
    saved: results.saveOutcome(answers.saved, label),
    conflict: results.saveOutcome(answers.conflict, label),
    resolved: results.resolveOutcome(answers.resolved, label),
    afterResolving: results.saveOutcome(answers.afterResolving, label),
    searchItems: results.searchItems(answers.hits),
    includeItems: results.includeItems(answers.structure),
    activation: results.activationOutcome(answers.activation, label),
    testing: testing(answers.testing),
    packages: answers.packages.map((/** @type {any} */ listed) =>
      packageTree.childNodes(listed).map((node) => ({
        ...packageTree.presentation(node),
        documentUri: node.kind === "object" ? node.documentUri : undefined,
      })),
    ),
  };
}

/**
 * The Testing view on a test include: its items from the lenses, the outcomes of a run of
 * the whole object.
 * @param {{uri: string, lenses: any[], result: any}} input
 */
function testing(input) {
  const classes = testTree.testsFromLenses(input.lenses);
  const { outcomes, unmatched } = testTree.runOutcomes({ uri: input.uri }, classes, input.result);
  return { classes, outcomes, unmatched };
}

/** @param {{system: string, error?: unknown}} input */
function logon(input) {
  return results.logonOutcome(input.system, input.error);
}

/** @param {{name: string, opened: Record<string, any>}} input */
function candidates(input) {
  return results.candidateChoice(input.name, input.opened.candidates);
}

/** @param {{label: string, error?: unknown, saved?: any}} input */
function failure(input) {
  return {
    error: input.error === undefined ? undefined : results.errorMessage(input.error),
    saved: input.saved === undefined ? undefined : results.saveOutcome(input.saved, input.label),
  };
}

/**
 * The extension's record of a document's base through the events it saw (as in
 * restoring.js and fileSystem.js): `start` (a server starts), `read` (readFile), `saved`
 * (a save's answer, with the editor's text), `base` (adt/baseVersion, with the editor's
 * text), `changed` (the editor's text changed); `opened` (didOpen in the server) answers
 * what is sent as adt/restoreDocument.
 * @param {{events: Array<Record<string, any>>}} input
 */
function bases(input) {
  const records = new DocumentBases();
  const sent = [];
  for (const event of input.events) {
    if (event.kind === "start") {
      records.nextGeneration();
    } else if (event.kind === "read") {
      records.read(event.uri, event.read, undefined, event.open ?? false);
    } else if (event.kind === "saved" || event.kind === "base") {
      records.moved(event.uri, event.token, event.text);
    } else if (event.kind === "changed") {
      sent.push(records.changed(event.uri, () => event.text, event.dirty) ?? null);
    } else if (event.kind === "opened") {
      sent.push(records.restoreParams(event.uri, event.text, event.dirty) ?? null);
    }
  }
  return { sent };
}

/** @param {{result: any, label: string, dirty: boolean}} input */
function restore(input) {
  return {
    message: results.restoreOutcome(input.result, input.label, { dirty: input.dirty }) ?? null,
  };
}

/** @param {{state: any}} input */
function status(input) {
  const parts = parseAdtUri(input.state.uri);
  return statusText(input.state, parts ? objectLabel(parts.path) : "");
}

/** @param {{label: string, alone: any, together: any, page: any}} input */
function activate(input) {
  const offer = activation.dependencyOffer(input.alone, input.label);
  return {
    offer: offer ?? null,
    outcome: offer ? activation.togetherOutcome(input.together, input.label, offer) : null,
    paging: paging(input.page),
  };
}

/**
 * "ABAP: New Object": the kinds offered (and which ask for a template's basis), and the
 * `adt.createObject` parameters of what the user entered.
 * @param {{entered: Array<Record<string, string>>}} input
 */
function create(input) {
  return {
    kinds: OBJECT_KINDS.map((kind) => kind.objectKind),
    asksBasis: OBJECT_KINDS.filter((kind) => kind.basedOn).map((kind) => kind.objectKind),
    params: input.entered.map((entered) => createParams(/** @type {any} */ (entered))),
  };
}

/**
 * The views on the server's answers.
 * @param {Record<string, any>} input
 */
function views(input) {
  const roots = transportTree.requestNodes([input.requests]);
  const tasks = roots.flatMap((root) => transportTree.childNodes(root));
  const objects = tasks.flatMap((task) => transportTree.childNodes(task));
  const { objects: tested, outcomes } = testTree.packageTests(input.run);
  const versions = versionTree.versionNodes(input.versions, input.uri, input.label);
  return {
    requests: roots.map((node) => transportTree.presentation(node)),
    tasks: tasks.map((node) => transportTree.presentation(node)),
    objects: objects.map((node) => ({
      ...transportTree.presentation(node),
      documentUri: node.kind === "object" ? node.entry.documentUri : undefined,
    })),
    refused: transportTree.checkVerdict(input.refused),
    releasable: transportTree.checkVerdict(input.releasable),
    tested,
    outcomes,
    versions: versions.map((node) => versionTree.presentation(node)),
  };
}

const modes = {
  views,
  activation: activate,
  create,
  options,
  understand,
  logon,
  candidates,
  status,
  failure,
  bases,
  restore,
};
const mode = /** @type {keyof typeof modes} */ (process.argv[2]);
if (!(mode in modes)) {
  throw new Error(
    `usage: node vscode_contract.js ${Object.keys(modes).join("|")}`,
  );
}
const input = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(modes[mode](input)));
