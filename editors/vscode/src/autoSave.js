// @ts-check
'use strict';

/** Tell once when auto save is on for an `adt://` document (see autoSaveAdvice.js). */

const vscode = require('vscode');
const { KEEP, TURN_OFF, autoSaveWarning } = require('./autoSaveAdvice');
const { systemNames } = require('./editorUris');
const { SCHEME, objectLabel } = require('./uris');

const ACCEPTED_KEY = 'abapAdt.autoSaveKept';

class AutoSaveAdvice {
  #told = false;

  /** @param {vscode.Memento} state the extension's global state */
  constructor(state) {
    this.state = state;
  }

  /**
   * Check a document that was just opened (once per session).
   * @param {vscode.TextDocument} document
   */
  async opened(document) {
    if (this.#told || document.uri.scheme !== SCHEME) {
      return;
    }
    const mode = vscode.workspace.getConfiguration('files', document).get('autoSave');
    const label = objectLabel(document.uri.path);
    const system = systemNames.spell(document.uri.authority);
    const warning = autoSaveWarning(mode, label, system, this.state.get(ACCEPTED_KEY));
    if (!warning) {
      return;
    }
    this.#told = true;
    const answer = await vscode.window.showWarningMessage(warning, TURN_OFF, KEEP);
    if (answer === TURN_OFF) {
      await vscode.workspace
        .getConfiguration('files', { languageId: document.languageId })
        .update('autoSave', 'off', vscode.ConfigurationTarget.Global, true);
    } else if (answer === KEEP) {
      await this.state.update(ACCEPTED_KEY, mode);
    }
  }
}

module.exports = { AutoSaveAdvice };
