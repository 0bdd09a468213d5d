// @ts-check
'use strict';

/**
 * The development loop's commands: run unit tests, run ATC, create an object, choose a
 * transport, compare with the active version or a revision, publish a service binding,
 * change one message of a message class (docs/lsp-protocol.md). Each
 * asks what it needs, sends one command or request and shows the answer; findings and
 * failures also come as diagnostics from the server.
 */

const vscode = require('vscode');
const {
  activateWithDependencies,
  adtDocument,
  openDocument,
  show,
  systemParam,
} = require('./commands');
const {
  OBJECT_KINDS,
  messageNumberProblem,
  createParams,
  objectNameProblem,
  transportMessage,
  versionItems,
} = require('./devloopResults');
const { toServerUri } = require('./editorUris');
const {
  CHOOSE_TRANSPORT_COMMAND,
  CREATE_OBJECT_COMMAND,
  EXECUTE_COMMAND,
  PUBLISH_COMMAND,
  READ_VERSION,
  RUN_ATC_COMMAND,
  RUN_UNIT_TESTS_COMMAND,
  SET_MESSAGE_COMMAND,
  VERSIONS,
} = require('./protocol');
const { objectLabel, parseAdtUri } = require('./uris');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
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
 * @param {ServerConnection} connection
 * @param {unknown} resource
 */
async function runUnitTests(connection, resource) {
  const document = await adtDocument(resource, 'run its unit tests');
  if (document && (await activeFirst(connection, document, 'ABAP Unit'))) {
    // the server reports the run (a message, progress) and places failures in Problems
    await execute(connection, RUN_UNIT_TESTS_COMMAND, [toServerUri(document.uri)]);
  }
}

/**
 * @param {ServerConnection} connection
 * @param {unknown} resource
 */
async function runAtc(connection, resource) {
  const document = await adtDocument(resource, 'run ATC on it');
  if (document && (await activeFirst(connection, document, 'ATC'))) {
    await execute(connection, RUN_ATC_COMMAND, [toServerUri(document.uri)]);
  }
}

/**
 * Kind → name → description → package (→ function group; → what a CDS template builds on)
 * → `adt.createObject` → editor. From the ABAP Packages view, the package (and its system)
 * come preset and are not asked.
 * @param {ServerConnection} connection
 * @param {{package: string, system?: string}} [preset]
 */
async function createObject(connection, preset) {
  const kind = await vscode.window.showQuickPick(OBJECT_KINDS, {
    title: preset ? `New ABAP Object in ${preset.package}` : 'New ABAP Object',
  });
  if (!kind) {
    return;
  }
  const system = preset
    ? preset.system
      ? { system: preset.system }
      : {}
    : await systemParam(connection);
  const name =
    system &&
    (await vscode.window.showInputBox({
      title: `New ${kind.label}`,
      prompt: `Name, e.g. ${kind.example}`,
      validateInput: (value) => objectNameProblem(kind.objectKind, value),
    }));
  const upper = name ? name.toUpperCase() : '';
  const isModule = kind.objectKind === 'functionModule';
  const group = name && isModule ? await ask(`Function group of ${upper}`) : '';
  const description = name && group !== undefined && (await ask(`Description of ${upper}`));
  const pkg =
    description && !isModule
      ? (preset?.package ?? (await ask(`Package of ${upper}, e.g. $TMP or ZPACKAGE`)))
      : '';
  // the template's basis; empty leaves its placeholders, Escape cancels
  const basedOn =
    pkg && kind.basedOn
      ? await vscode.window.showInputBox({
          title: `${kind.basedOn}, e.g. ZMY_TABLE (empty: fill it in later)`,
        })
      : '';
  if (!system || !name || !description || pkg === undefined || basedOn === undefined) {
    return;
  }
  const params = createParams({
    ...system,
    kind: /** @type {CreateObjectParams['kind']} */ (kind.objectKind),
    name,
    description,
    package: pkg,
    functionGroup: group,
    basedOn,
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
  const chosen = await execute(connection, CHOOSE_TRANSPORT_COMMAND, [toServerUri(document.uri)]);
  void vscode.window.showInformationMessage(
    transportMessage(chosen ?? {}, objectLabel(document.uri.path)),
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
 * The system tests and checks the active version: offer to save and activate unsaved changes
 * first.
 * @param {ServerConnection} connection
 * @param {vscode.TextDocument} document
 * @param {string} what `ABAP Unit` or `ATC`
 * @returns {Promise<boolean>} whether to go on
 */
async function activeFirst(connection, document, what) {
  if (!document.isDirty) {
    return true;
  }
  const activate = 'Save and Activate';
  const anyway = 'Run on the Active Version';
  const answer = await vscode.window.showWarningMessage(
    `${objectLabel(document.uri.path)} has unsaved changes; ${what} runs the active version.`,
    activate,
    anyway,
  );
  if (answer !== activate) {
    return answer === anyway;
  }
  if (!(await document.save())) {
    return false;
  }
  const result = await activateWithDependencies(
    connection,
    document,
    objectLabel(document.uri.path),
  );
  return result.activated;
}

/**
 * @param {string} title
 * @returns {Promise<string | undefined>}
 */
async function ask(title) {
  return (await vscode.window.showInputBox({ title }))?.trim() || undefined;
}

/**
 * Publish (or unpublish) the service binding the editor shows; the server says how it went.
 * @param {ServerConnection} connection
 * @param {unknown} resource
 * @param {boolean} publish
 */
async function publishBinding(connection, resource, publish) {
  const document = await adtDocument(resource, publish ? 'publish it' : 'unpublish it');
  if (document) {
    await execute(connection, PUBLISH_COMMAND, [toServerUri(document.uri), publish]);
  }
}

/**
 * Add a message to the message class the editor shows, or change one: number, then text.
 * @param {ServerConnection} connection
 * @param {unknown} resource
 */
async function setMessage(connection, resource) {
  const document = await adtDocument(resource, 'change a message');
  const number =
    document &&
    (await vscode.window.showInputBox({
      title: 'Message number (a new one is added)',
      prompt: 'e.g. 001',
      validateInput: messageNumberProblem,
    }));
  const text = number && (await ask(`Text of message ${number.trim()}`));
  if (document && number && text) {
    await execute(connection, SET_MESSAGE_COMMAND, [
      toServerUri(document.uri),
      { number: number.trim(), text },
    ]);
  }
}

module.exports = {
  publishBinding,
  setMessage,
  VERSION_SCHEME,
  VersionTexts,
  runUnitTests,
  runAtc,
  createObject,
  chooseTransport,
  compareWithActive,
  compareWithRevision,
};
