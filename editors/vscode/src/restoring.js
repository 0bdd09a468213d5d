// @ts-check
'use strict';

/**
 * Unsaved edits survive a language-server restart without overwriting a colleague's change:
 * every document's base (bases.js) is followed while the server runs, kept in the
 * workspace's state for documents with unsaved edits (a window reload restores them from hot
 * exit), and handed to each newly started server with `adt/restoreDocument` right after it
 * opened the document, before any save. A revert (which reads the document again) re-bases it
 * the same way. The user is told when the source changed on the server meanwhile.
 */

const vscode = require('vscode');
const { DocumentBases } = require('./bases');
const { toServerUri } = require('./editorUris');
const { RESTORE_DOCUMENT } = require('./protocol');
const { restoreOutcome } = require('./results');
const { SCHEME, objectLabel, parseAdtUri } = require('./uris');

/** @typedef {import('./protocol').RestoreResult} RestoreResult */
/** @typedef {import('./bases').RestoreParams} RestoreParams */

const STATE_KEY = 'abapAdt.documentBases';
/** JSON-RPC "method not found": a server without `adt/restoreDocument`. */
const METHOD_NOT_FOUND = -32601;

class Restoring {
  /** @type {Map<string, Promise<void>>} */
  #pending = new Map();
  /** @type {NodeJS.Timeout | undefined} */
  #persistTimer;
  /** What was persisted last (documents and their tokens), so typing does not write again. */
  #persisted = '';

  /**
   * @param {vscode.Memento} state the workspace's state (no secrets: token and source text)
   * @param {vscode.OutputChannel} output
   */
  constructor(state, output) {
    this.state = state;
    this.output = output;
    this.bases = new DocumentBases(state.get(STATE_KEY) ?? {});
    /** @type {((method: string, params: unknown) => Promise<unknown>) | undefined} */
    this.send = undefined;
    this.disposables = [
      vscode.workspace.onDidChangeTextDocument((event) => this.#changed(event.document)),
      vscode.workspace.onDidSaveTextDocument(() => this.#persistSoon()),
      vscode.workspace.onDidCloseTextDocument((document) => {
        if (document.uri.scheme === SCHEME) {
          this.bases.forget(toServerUri(document.uri));
          this.#persistSoon();
        }
      }),
    ];
  }

  /**
   * The language client's `didOpen` middleware: after the server opened a document whose base
   * an earlier server knew, restore that base. The restore is awaited by a save
   * ({@link settled}) from the moment the client hands the document over, not only once the
   * notification went out: a save that started the server (the first thing done in a reloaded
   * window) must not overtake it and be checked against the current server version.
   * @param {vscode.TextDocument} document
   * @param {(document: vscode.TextDocument) => Promise<void>} next
   * @returns {Promise<void>}
   */
  didOpen(document, next) {
    const opened = next(document);
    if (document.uri.scheme !== SCHEME) {
      return opened;
    }
    const params = this.bases.restoreParams(
      toServerUri(document.uri),
      document.getText(),
      document.isDirty,
    );
    if (params) {
      const restored = opened.then(
        () => this.#restore(params, document),
        () => undefined, // not opened: nothing to restore
      );
      this.#track(params.uri, restored);
    }
    return opened;
  }

  /**
   * Resolves when the server knows the document's base (a restore or re-base sent for it has
   * been answered); a save must not go out before.
   * @param {string} uri the server's URI
   */
  async settled(uri) {
    await this.#pending.get(uri);
  }

  /**
   * A read of a document by the file system (opening or reverting it).
   * @param {string} uri
   * @param {{token: string, text: string}} read
   * @param {{mtime: number, size: number}} stat
   * @param {boolean} open
   */
  read(uri, read, stat, open) {
    this.bases.read(uri, read, stat, open);
  }

  /**
   * The base moved (`adt/baseVersion`, a save's answer).
   * @param {string} uri
   * @param {string} token
   * @param {{mtime: number, size: number}} [stat]
   */
  moved(uri, token, stat) {
    const document = openDocument(uri);
    this.bases.moved(uri, token, document?.getText(), stat);
    this.#persistSoon();
  }

  /** @param {vscode.TextDocument} document */
  #changed(document) {
    if (document.uri.scheme !== SCHEME) {
      return;
    }
    const uri = toServerUri(document.uri);
    const rebase = this.bases.changed(uri, () => document.getText(), document.isDirty);
    if (rebase) {
      // reverted: the text read again is the base now (else the save is checked against the
      // version the editor had before, which the system may not know any more)
      this.#track(uri, this.#restore(rebase, document));
    }
    // at once (it writes only when a document's base or dirty state changed): a window
    // reloaded right after the first keystroke must find the base of the unsaved edits
    void this.persist();
  }

  /**
   * @param {RestoreParams} params
   * @param {vscode.TextDocument} document
   */
  async #restore(params, document) {
    if (!this.send) {
      return;
    }
    /** @type {RestoreResult} */
    let result;
    try {
      result = /** @type {RestoreResult} */ (await this.send(RESTORE_DOCUMENT, params));
    } catch (error) {
      const rpc = /** @type {{code?: number, message?: string}} */ (error ?? {});
      if (rpc.code !== METHOD_NOT_FOUND) {
        this.output.appendLine(`[restore] ${params.uri}: ${rpc.message ?? String(error)}`);
      }
      return;
    }
    this.output.appendLine(`[restore] ${params.uri}: ${result.status}`);
    const parts = parseAdtUri(params.uri);
    const outcome = restoreOutcome(result, parts ? objectLabel(parts.path) : params.uri, {
      dirty: document.isDirty,
    });
    if (outcome) {
      void vscode.window.showWarningMessage(outcome);
    }
  }

  /**
   * @param {string} uri
   * @param {Promise<void>} work
   */
  #track(uri, work) {
    const done = work.finally(() => {
      if (this.#pending.get(uri) === done) {
        this.#pending.delete(uri);
      }
    });
    this.#pending.set(uri, done);
  }

  /** Keep the bases of documents with unsaved edits for a window reload (once things settle). */
  #persistSoon() {
    clearTimeout(this.#persistTimer);
    this.#persistTimer = setTimeout(() => void this.persist(), 300);
  }

  async persist() {
    clearTimeout(this.#persistTimer);
    const kept = this.bases.persistable((uri) => openDocument(uri)?.isDirty === true);
    const signature = JSON.stringify(
      Object.entries(kept).map(([uri, record]) => [uri, record.token, record.text !== undefined]),
    );
    if (signature !== this.#persisted) {
      this.#persisted = signature;
      await this.state.update(STATE_KEY, Object.keys(kept).length ? kept : undefined);
    }
  }

  dispose() {
    // not persisted here: while a window closes, its documents may be reported closed first
    clearTimeout(this.#persistTimer);
    this.disposables.forEach((disposable) => disposable.dispose());
  }
}

/**
 * @param {string} uri the server's URI
 * @returns {vscode.TextDocument | undefined}
 */
function openDocument(uri) {
  return vscode.workspace.textDocuments.find(
    (document) => document.uri.scheme === SCHEME && toServerUri(document.uri) === uri,
  );
}

module.exports = { Restoring, openDocument };
