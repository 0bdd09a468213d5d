// @ts-check
'use strict';

/**
 * A status bar item for the active `adt://` editor: the system, whether the object is
 * locked for editing, and whether its source has an inactive version. Asked from the server (`adt/documentState`) when the editor, its dirty
 * state, the settings or the server change; a change of the text asks again after a pause,
 * because the server locks (onEdit) right after the first change.
 */

const vscode = require('vscode');
const { statusText } = require('./documentState');
const { toServerUri } = require('./editorUris');
const { DOCUMENT_STATE } = require('./protocol');
const { SCHEME, objectLabel } = require('./uris');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./documentState').DocumentState} DocumentState */

const SETTLE_MS = 700;

class DocumentStatus {
  /** @type {NodeJS.Timeout | undefined} */
  #timer;
  #asked = 0;

  /** @param {ServerConnection} connection */
  constructor(connection) {
    this.connection = connection;
    this.item = vscode.window.createStatusBarItem(
      'abapAdt.documentState',
      vscode.StatusBarAlignment.Left,
      50,
    );
    this.item.name = 'ABAP System and Lock';
    this.disposables = [
      this.item,
      vscode.window.onDidChangeActiveTextEditor(() => this.refresh()),
      vscode.workspace.onDidChangeTextDocument((event) => this.#changed(event.document)),
      vscode.workspace.onDidSaveTextDocument((document) => this.#changed(document)),
      vscode.workspace.onDidChangeConfiguration(() => this.refresh()),
      connection.onDidChangeState(() => this.refresh()),
      connection.onDidChangeBase(() => this.refresh()), // saved (inactive now), activated
    ];
  }

  /** Ask the server about the active editor's document now. */
  async refresh() {
    clearTimeout(this.#timer);
    const document = vscode.window.activeTextEditor?.document;
    if (document?.uri.scheme !== SCHEME || !this.connection.running) {
      this.item.hide();
      return;
    }
    const asked = ++this.#asked;
    try {
      /** @type {DocumentState} */
      const state = await this.connection.request(DOCUMENT_STATE, {
        uri: toServerUri(document.uri),
      });
      if (asked === this.#asked) {
        Object.assign(this.item, statusText(state, objectLabel(document.uri.path)));
        this.item.show();
      }
    } catch {
      this.item.hide(); // a server without the request, or a document it does not know
    }
  }

  /** @param {vscode.TextDocument} document */
  #changed(document) {
    if (document === vscode.window.activeTextEditor?.document && document.uri.scheme === SCHEME) {
      clearTimeout(this.#timer);
      this.#timer = setTimeout(() => void this.refresh(), SETTLE_MS);
    }
  }

  dispose() {
    clearTimeout(this.#timer);
    this.disposables.forEach((disposable) => disposable.dispose());
  }
}

module.exports = { DocumentStatus };
