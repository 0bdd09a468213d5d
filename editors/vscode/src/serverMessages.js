// @ts-check
'use strict';

/**
 * The server's messages and questions (`window/showMessage`, `window/showMessageRequest`),
 * shown as the language client would show them, but with objects named instead of their
 * URIs: "ZDEMO_REPORT was changed on the server by COLLEAGUE", not
 * "adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main was changed ...".
 * Registered before the client starts, these handlers take the place of the client's own.
 * Also `adt/agentEditRefused`: an agent's change that the editor's unsaved edits blocked, and
 * `adt/logon`: a browser logon to show (logons.js).
 */

const vscode = require('vscode');
const {
  MessageType,
  ShowMessageNotification,
  ShowMessageRequest,
} = require('vscode-languageclient');
const { CANCEL_LOGON, CAPABILITY, LOGON, LogonPrompts } = require('./logons');
const { AGENT_EDIT_REFUSED } = require('./protocol');
const { agentRefusalMessage, nameObjects } = require('./results');

/**
 * @param {number} type LSP's MessageType
 * @returns {typeof vscode.window.showInformationMessage}
 */
function shower(type) {
  switch (type) {
    case MessageType.Error:
      return vscode.window.showErrorMessage;
    case MessageType.Warning:
      return vscode.window.showWarningMessage;
    default:
      return vscode.window.showInformationMessage;
  }
}

/** @param {import('vscode-languageclient/node').LanguageClient} client */
function nameObjectsInServerMessages(client) {
  client.onNotification(ShowMessageNotification.type, (params) => {
    void shower(params.type)(nameObjects(params.message));
  });
  client.onRequest(ShowMessageRequest.type, async (params) => {
    const chosen = await shower(params.type)(
      nameObjects(params.message),
      ...(params.actions ?? []),
    );
    return chosen ?? null;
  });
  // an agent's change was refused because of this editor's unsaved edits: the user unblocks it
  client.onNotification(AGENT_EDIT_REFUSED, (/** @type {unknown} */ params) => {
    const message = agentRefusalMessage(params);
    if (message) {
      void vscode.window.showWarningMessage(message);
    }
  });
}

/**
 * Show the server's browser logons: declare the client capability `experimental.adtLogon`
 * (so the server sends `adt/logon` instead of opening a browser itself) and answer each with
 * the system browser and a cancellable progress notification. Call before the client starts.
 * @param {import('vscode-languageclient/node').LanguageClient} client
 */
function showLogons(client) {
  const prompts = new LogonPrompts(
    {
      // the address as a string: a vscode.Uri would encode the redirect address in its query
      // a second time (microsoft/vscode#85930), and the system would not find our listener
      openExternal: (url) =>
        vscode.env.openExternal(/** @type {vscode.Uri} */ (/** @type {unknown} */ (url))),
      withProgress: (title, task) =>
        vscode.window.withProgress(
          { location: vscode.ProgressLocation.Notification, title, cancellable: true },
          (_progress, token) =>
            task((listener) => {
              token.onCancellationRequested(listener);
            }),
        ),
      info: (message) => vscode.window.showInformationMessage(message),
      error: (message) => vscode.window.showErrorMessage(message),
    },
    (id) => void client.sendNotification(CANCEL_LOGON, { id }),
  );
  client.registerFeature({
    fillClientCapabilities(capabilities) {
      capabilities.experimental = { ...(capabilities.experimental ?? {}), [CAPABILITY]: true };
    },
    initialize() {},
    getState: () => ({ kind: 'static' }),
    clear() {},
  });
  client.onNotification(LOGON, (/** @type {unknown} */ params) => prompts.handle(params));
}

module.exports = { nameObjectsInServerMessages, showLogons };
