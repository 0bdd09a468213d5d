// @ts-check
'use strict';

/**
 * The server's messages and questions (`window/showMessage`, `window/showMessageRequest`),
 * shown as the language client would show them, but with objects named instead of their
 * URIs: "ZDEMO_REPORT was changed on the server by COLLEAGUE", not
 * "adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main was changed ...".
 * Registered before the client starts, these handlers take the place of the client's own.
 * Also `adt/agentEditRefused`: an agent's change that the editor's unsaved edits blocked.
 */

const vscode = require('vscode');
const {
  MessageType,
  ShowMessageNotification,
  ShowMessageRequest,
} = require('vscode-languageclient');
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

module.exports = { nameObjectsInServerMessages };
