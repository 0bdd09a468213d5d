// @ts-check
'use strict';

/**
 * The development loop's commands: run unit tests, run ATC, create an object, choose a
 * transport, compare with the active version or a revision (docs/lsp-protocol.md). Each
 * asks what it needs, sends one command or request and shows the answer; findings and
 * failures also come as diagnostics from the server.
 */

const vscode = require('vscode');
const { adtDocument, openDocument, show, systemParam } = require('./commands');
const {
  OBJECT_KINDS,
  atcOutcome,
  createParams,
  objectNameProblem,
  unitTestOutcome,
  versionItems,
} = require('./devloopResults');
const { toServerUri } = require('./editorUris');
const {
  CHOOSE_TRANSPORT_COMMAND,
  CREATE_OBJECT_COMMAND,
  EXECUTE_COMMAND,
  READ_VERSION,
  RUN_ATC_COMMAND,
  RUN_UNIT_TESTS_COMMAND,
  VERSIONS,
} = require('./protocol');
const { objectLabel, parseAdtUri } = require('./uris');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./protocol').UnitTestResult} UnitTestResult */
/** @typedef {import('./protocol').AtcResult} AtcResult */
/** @typedef {import('./protocol').CreateObjectResult} CreateObjectResult */
/** @typedef {import('./protocol').CreateObjectParams} CreateObjectParams */
/** @typedef {import('./protocol').VersionsResult} VersionsResult */
/** @typedef {import('./protocol').VersionText} VersionText */

const VERSION_SCHEME = 'adt-version';

/**
 * @param {ServerConnection} connection
 * @param {string} command
 * @param {unknown[]} args
 * @returns {Promise<any>}
 */
function execute(connection, command, args) {
  return connection.request(EXECUTE_COMMAND, { command, arguments: args });
}

/**
 * The label of a server URI (for results of commands the server ran).
 * @param {unknown} uri
 * @returns {string}
 */
function labelOf(uri) {
  const parts = typeof uri === 'string' ? parseAdtUri(uri) : undefined;
  return parts ? objectLabel(parts.path) : 'ABAP object';
}

/**
 * Show the outcome of a development-loop command the server ran, whoever started it (the
 * palette, or a code lens through the language client's middleware).
 * @param {string} command
 * @param {unknown[]} args
 * @param {unknown} result
 */
function showCommandResult(command, args, result) {
  if (!result || typeof result !== 'object') {
    return;
  }
  if (command === RUN_UNIT_TESTS_COMMAND) {
    show(unitTestOutcome(/** @type {UnitTestResult} */ (result), labelOf(args[0])));
  } else if (command === RUN_ATC_COMMAND) {
    show(atcOutcome(/** @type {AtcResult} */ (result), labelOf(args[0])));
  }
}

/**
 * @param {ServerConnection} connection
 * @param {unknown} resource
 */
async function runUnitTests(connection, resource) {
  const document = await adtDocument(resource, 'run its unit tests');
  if (document && (await savedFirst(document, 'the system tests the saved version'))) {
    const args = [toServerUri(document.uri)];
    showCommandResult(
      RUN_UNIT_TESTS_COMMAND,
      args,
      await execute(connection, RUN_UNIT_TESTS_COMMAND, args),
    );
  }
}

/**
 * @param {ServerConnection} connection
 * @param {unknown} resource
 */
async function runAtc(connection, resource) {
  const document = await adtDocument(resource, 'run ATC on it');
  if (document && (await savedFirst(document, 'ATC checks the saved version'))) {
    const args = [toServerUri(document.uri)];
    showCommandResult(RUN_ATC_COMMAND, args, await execute(connection, RUN_ATC_COMMAND, args));
  }
}

/**
 * Kind → name → description → package (→ function group) → `adt.createObject` → editor.
 * @param {ServerConnection} connection
 */
async function createObject(connection) {
  const kind = await vscode.window.showQuickPick(OBJECT_KINDS, { title: 'New ABAP Object' });
  if (!kind) {
    return;
  }
  const system = await systemParam(connection);
  const name =
    system &&
    (await vscode.window.showInputBox({
      title: `New ${kind.label}`,
      prompt: `Name, e.g. ${kind.example}`,
      validateInput: (value) => objectNameProblem(kind.objectKind, value),
    }));
  const group =
    name && kind.objectKind === 'functionModule'
      ? await vscode.window.showInputBox({ title: `Function group of ${name.toUpperCase()}` })
      : '';
  const description =
    name && group !== undefined && (await ask(`Description of ${name.toUpperCase()}`));
  const pkg = description && (await ask(`Package of ${name.toUpperCase()}, e.g. $TMP or ZPACKAGE`));
  if (!system || !name || !description || !pkg) {
    return;
  }
  const params = createParams({
    ...system,
    kind: /** @type {CreateObjectParams['kind']} */ (kind.objectKind),
    name,
    description,
    package: pkg,
    functionGroup: group,
  });
  /** @type {CreateObjectResult} */
  const created = await execute(connection, CREATE_OBJECT_COMMAND, [params]);
  await openDocument(created.uri);
  const transport = created.transport ? ` in transport ${created.transport}` : '';
  void vscode.window.showInformationMessage(`Created ${labelOf(created.uri)}${transport}.`);
}

/**
 * @param {ServerConnection} connection
 * @param {unknown} resource
 */
async function chooseTransport(connection, resource) {
  const document = await adtDocument(resource, 'choose its transport');
  if (!document) {
    return;
  }
  /** @type {{transport?: string | null}} */
  const chosen = await execute(connection, CHOOSE_TRANSPORT_COMMAND, [toServerUri(document.uri)]);
  const label = objectLabel(document.uri.path);
  void vscode.window.showInformationMessage(
    chosen?.transport
      ? `${label}: changes go to transport ${chosen.transport} in this session.`
      : `${label}: no transport chosen (a local object needs none).`,
  );
}

/**
 * Show the editor's text beside the active version.
 * @param {ServerConnection} connection
 * @param {VersionTexts} texts
 * @param {unknown} resource
 */
async function compareWithActive(connection, texts, resource) {
  const document = await adtDocument(resource, 'compare it');
  if (document) {
    await compare(connection, texts, document, 'active');
  }
}

/**
 * Pick a version (inactive, active, a revision) and show the editor's text beside it.
 * @param {ServerConnection} connection
 * @param {VersionTexts} texts
 * @param {unknown} resource
 */
async function compareWithRevision(connection, texts, resource) {
  const document = await adtDocument(resource, 'compare it');
  if (!document) {
    return;
  }
  /** @type {VersionsResult} */
  const versions = await connection.request(VERSIONS, { uri: toServerUri(document.uri) });
  const pick = await vscode.window.showQuickPick(versionItems(versions), {
    title: `Compare ${objectLabel(document.uri.path)} with`,
    matchOnDescription: true,
  });
  if (pick) {
    await compare(connection, texts, document, pick.version);
  }
}

/**
 * @param {ServerConnection} connection
 * @param {VersionTexts} texts
 * @param {vscode.TextDocument} document
 * @param {string} version
 */
async function compare(connection, texts, document, version) {
  /** @type {VersionText} */
  const read = await connection.request(READ_VERSION, { uri: toServerUri(document.uri), version });
  const label = objectLabel(document.uri.path);
  const left = texts.add(`${label} (${read.label})`, read.text);
  await vscode.commands.executeCommand(
    'vscode.diff',
    left,
    document.uri,
    `${label}: ${read.label} ↔ editor`,
  );
}

/**
 * Read-only documents of versions, for the diff editor (`adt-version:` URIs).
 * @implements {vscode.TextDocumentContentProvider}
 */
class VersionTexts {
  /** @type {Map<string, string>} */
  #texts = new Map();
  #next = 0;

  /**
   * @param {string} title shown as the tab title
   * @param {string} text
   * @returns {vscode.Uri}
   */
  add(title, text) {
    const key = String(++this.#next);
    this.#texts.set(key, text);
    // `.abap` gives the version document the ABAP language (colours) of the extension
    return vscode.Uri.from({
      scheme: VERSION_SCHEME,
      path: `/${title.replaceAll('/', '\u2215')}.abap`,
      query: key,
    });
  }

  /** @param {vscode.Uri} uri */
  provideTextDocumentContent(uri) {
    return this.#texts.get(uri.query) ?? '';
  }
}

/**
 * @param {vscode.TextDocument} document
 * @param {string} why
 * @returns {Promise<boolean>} false when the user did not want to save
 */
async function savedFirst(document, why) {
  if (!document.isDirty) {
    return true;
  }
  const save = 'Save and Go On';
  const answer = await vscode.window.showWarningMessage(
    `${objectLabel(document.uri.path)} has unsaved changes; ${why}.`,
    save,
  );
  return answer === save && document.save();
}

/**
 * @param {string} title
 * @returns {Promise<string | undefined>}
 */
async function ask(title) {
  return (await vscode.window.showInputBox({ title }))?.trim() || undefined;
}

module.exports = {
  VERSION_SCHEME,
  VersionTexts,
  showCommandResult,
  runUnitTests,
  runAtc,
  createObject,
  chooseTransport,
  compareWithActive,
  compareWithRevision,
};
