// @ts-check
'use strict';

/**
 * The extension's commands. Each one asks the user what is needed, sends one `adt/*` request
 * (or `adt.activate`) and shows the answer; failures become error messages (see `guarded`).
 */

const vscode = require('vscode');
const { dependencyOffer, togetherOutcome } = require('./activation');
const { toEditorUri, toServerUri } = require('./editorUris');
const {
  ACTIVATE_COMMAND,
  EXECUTE_COMMAND,
  OBJECT_STRUCTURE,
  OPEN_OBJECT,
  RESOLVE_CONFLICT,
  SEARCH_OBJECTS,
} = require('./protocol');
const {
  CONFLICT_CHOICES,
  activationOutcome,
  candidateChoice,
  errorMessage,
  includeItems,
  isLogonRefused,
  nameObjects,
  resolveOutcome,
  searchItems,
  searchPattern,
} = require('./results');
const { needsPassword } = require('./settings');
const { SCHEME, objectLabel } = require('./uris');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./protocol').OpenObjectResult} OpenObjectResult */
/** @typedef {import('./protocol').SaveResult} SaveResult */
/** @typedef {import('./protocol').SearchHit} SearchHit */
/** @typedef {import('./protocol').ActivationResult} ActivationResult */
/** @typedef {import('./protocol').ObjectStructure} ObjectStructure */
/** @typedef {import('./results').Outcome} Outcome */

/**
 * Name → `adt/openObject` → editor. Several or no exact matches: pick among the candidates
 * that have a source.
 * @param {ServerConnection} connection
 */
async function openObject(connection) {
  const name = (
    await vscode.window.showInputBox({
      title: 'Open ABAP Object',
      prompt: 'Object name, e.g. ZCL_DEMO, ZDEMO_REPORT or /ABC/CL_X',
    })
  )?.trim();
  if (!name) {
    return;
  }
  const system = await systemParam(connection);
  if (!system) {
    return;
  }
  /** @type {OpenObjectResult} */
  const result = await connection.request(OPEN_OBJECT, { name, ...system });
  if (result.found) {
    await openDocument(result.uri);
    return;
  }
  const choice = candidateChoice(name, result.candidates);
  if (!choice.items.length) {
    void vscode.window.showInformationMessage(choice.message ?? nameObjects(result.message));
    return;
  }
  const pick = await vscode.window.showQuickPick(choice.items, {
    title: `${nameObjects(result.message)}: pick one`,
    matchOnDescription: true,
  });
  if (pick) {
    await openDocument(pick.documentUri);
  }
}

/**
 * Pattern → `adt/searchObjects` → pick an object with a source → editor.
 * @param {ServerConnection} connection
 */
async function searchObjects(connection) {
  const query = (
    await vscode.window.showInputBox({
      title: 'Search ABAP Objects',
      prompt:
        'Name or pattern (* is the wildcard; a name without * matches names starting with it)',
    })
  )?.trim();
  if (!query) {
    return;
  }
  const system = await systemParam(connection);
  if (!system) {
    return;
  }
  const pattern = searchPattern(query);
  /** @type {SearchHit[]} */
  const hits = await connection.request(SEARCH_OBJECTS, { query: pattern, ...system });
  const items = searchItems(hits);
  if (!items.length) {
    void vscode.window.showInformationMessage(`No ABAP source matches ${pattern}.`);
    return;
  }
  const pick = await vscode.window.showQuickPick(items, {
    title: `ABAP objects matching ${pattern}`,
    matchOnDescription: true,
    matchOnDetail: true,
  });
  if (pick) {
    await openDocument(pick.documentUri);
  }
}

/**
 * Another source of the given or active document's object: a class include (local types,
 * local classes, macros, test classes) or the main source.
 * @param {ServerConnection} connection
 * @param {unknown} resource
 */
async function openInclude(connection, resource) {
  const document = await adtDocument(resource, 'open its includes');
  if (!document) {
    return;
  }
  /** @type {ObjectStructure} */
  const structure = await connection.request(OBJECT_STRUCTURE, {
    uri: toServerUri(document.uri),
  });
  const items = includeItems(structure);
  if (items.length < 2) {
    void vscode.window.showInformationMessage(`${structure.name} has no includes.`);
    return;
  }
  const pick = await vscode.window.showQuickPick(items, { title: `Sources of ${structure.name}` });
  if (pick) {
    await openDocument(pick.documentUri);
  }
}

/**
 * Activate the object of the given or active `adt://` document (saving it first on request).
 * @param {ServerConnection} connection
 * @param {unknown} resource the editor's URI when run from the editor title
 */
async function activate(connection, resource) {
  const document = await adtDocument(resource, 'activate it');
  if (!document) {
    return;
  }
  const label = objectLabel(document.uri.path);
  if (document.isDirty) {
    const saveFirst = 'Save and Activate';
    const answer = await vscode.window.showWarningMessage(
      `${label} has unsaved changes; the system activates the saved version.`,
      saveFirst,
    );
    if (answer !== saveFirst || !(await document.save())) {
      return;
    }
  }
  await activateWithDependencies(connection, document, label);
}

/**
 * `adt.activate` of a saved document; when the system refuses because the object builds on
 * inactive objects, say which and offer to activate them together (in dependency order).
 * The outcome is shown; the last answer is returned.
 * @param {ServerConnection} connection
 * @param {vscode.TextDocument} document
 * @param {string} label
 * @returns {Promise<ActivationResult>}
 */
async function activateWithDependencies(connection, document, label) {
  const uri = toServerUri(document.uri);
  /** @type {ActivationResult} */
  const result = await connection.request(EXECUTE_COMMAND, {
    command: ACTIVATE_COMMAND,
    arguments: [uri],
  });
  const offer = dependencyOffer(result, label);
  if (!offer) {
    show(activationOutcome(result, label));
    return result;
  }
  const answer = await vscode.window.showWarningMessage(offer.message, offer.choice);
  if (answer !== offer.choice) {
    return result;
  }
  /** @type {ActivationResult} */
  const together = await connection.request(EXECUTE_COMMAND, {
    command: ACTIVATE_COMMAND,
    arguments: [uri, offer.together],
  });
  show(togetherOutcome(together, label, offer));
  return together;
}

/**
 * Answer a pending save conflict with `adt/resolveConflict` (for when the server's question
 * was dismissed). On success the editor is saved, which only clears its dirty mark.
 * @param {ServerConnection} connection
 * @param {unknown} resource
 */
async function resolveConflict(connection, resource) {
  const document = await adtDocument(resource, 'resolve its save conflict');
  if (!document) {
    return;
  }
  const label = objectLabel(document.uri.path);
  const pick = await vscode.window.showQuickPick(CONFLICT_CHOICES, {
    title: `${label} changed on the server: what should happen?`,
  });
  if (!pick) {
    return;
  }
  /** @type {SaveResult} */
  const result = await connection.request(RESOLVE_CONFLICT, {
    uri: toServerUri(document.uri),
    choice: pick.choice,
  });
  const outcome = resolveOutcome(result, label);
  show(outcome);
  if (outcome.saveEditor) {
    await document.save();
  }
}

/** @param {ServerConnection} connection */
async function restartServer(connection) {
  await connection.restart();
  void vscode.window.showInformationMessage('The ABAP language server was restarted.');
}

/**
 * Forget the stored password of a system and restart, which asks for it again.
 * @param {ServerConnection} connection
 */
async function forgetPassword(connection) {
  const systems = connection.systems().filter(needsPassword);
  if (!systems.length) {
    void vscode.window.showInformationMessage(
      'No configured ABAP system keeps its password in VS Code (abapAdt.systems).',
    );
    return;
  }
  const pick = await vscode.window.showQuickPick(
    systems.map((system) => ({ label: system.name, description: system.url, system })),
    { title: 'Forget the stored password of' },
  );
  if (!pick) {
    return;
  }
  await connection.forgetPassword(pick.system);
  await connection.restart();
}

/** @type {{refused: () => boolean}} */
const logons = { refused: () => false };

/**
 * Who speaks for a refused logon: the connection, which already offers to type the password
 * again; a command that failed for it then adds no second message.
 * @param {() => boolean} refused whether the refusal is being told (false: tell it here)
 */
function onLogonRefused(refused) {
  logons.refused = refused;
}

/**
 * Wrap a command so that a failure is shown instead of only logged.
 * @template {unknown[]} A
 * @param {(...args: A) => Promise<void>} run
 * @returns {(...args: A) => Promise<void>}
 */
function guarded(run) {
  return async (...args) => {
    try {
      await run(...args);
    } catch (error) {
      if (!(isLogonRefused(error) && logons.refused())) {
        void vscode.window.showErrorMessage(errorMessage(error));
      }
    }
  };
}

/**
 * The `{system}` parameter: asked only when several systems are configured.
 * @param {ServerConnection} connection
 * @returns {Promise<{system?: string} | undefined>} undefined when the user cancelled
 */
async function systemParam(connection) {
  const systems = connection.systems();
  if (systems.length < 2) {
    return {};
  }
  const pick = await vscode.window.showQuickPick(
    systems.map((system) => ({
      label: system.name,
      description: `${system.user} · ${system.url}`,
    })),
    { title: 'ABAP system' },
  );
  return pick && { system: pick.label };
}

/**
 * The `adt://` document of the command: the given URI, else the active editor's.
 * @param {unknown} resource
 * @param {string} purpose for the message when there is none
 * @returns {Promise<vscode.TextDocument | undefined>}
 */
async function adtDocument(resource, purpose) {
  const uri =
    resource instanceof vscode.Uri ? resource : vscode.window.activeTextEditor?.document.uri;
  if (uri?.scheme !== SCHEME) {
    void vscode.window.showWarningMessage(`Open an ABAP object (adt://) to ${purpose}.`);
    return undefined;
  }
  return vscode.workspace.openTextDocument(uri);
}

/** @param {string} uri a document URI from the server */
async function openDocument(uri) {
  await vscode.window.showTextDocument(toEditorUri(uri), { preview: false });
}

/** @param {Outcome} outcome */
function show(outcome) {
  switch (outcome.level) {
    case 'info':
      void vscode.window.showInformationMessage(outcome.message);
      break;
    case 'warning':
      void vscode.window.showWarningMessage(outcome.message);
      break;
    default:
      void vscode.window.showErrorMessage(outcome.message);
  }
}

module.exports = {
  activateWithDependencies,
  adtDocument,
  openDocument,
  show,
  systemParam,
  openObject,
  searchObjects,
  openInclude,
  activate,
  resolveConflict,
  restartServer,
  forgetPassword,
  guarded,
  onLogonRefused,
};
