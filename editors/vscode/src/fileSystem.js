// @ts-check
'use strict';

/**
 * The `adt` file system: VS Code reads and saves `adt://` documents through it. Reading is
 * `adt/readDocument`; saving is `adt/saveDocument` (the server already has the edits through
 * `didChange`), and a conflict or failure is thrown, which keeps the editor dirty. Objects
 * cannot be listed, created, deleted or renamed here.
 */

const vscode = require('vscode');
const { toServerUri } = require('./editorUris');
const { READ_DOCUMENT, SAVE_DOCUMENT } = require('./protocol');
const { errorMessage, fileErrorKind, saveOutcome, writeRefusal } = require('./results');
const { DocumentStats } = require('./stats');
const { objectLabel } = require('./uris');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./protocol').ReadDocumentResult} ReadDocumentResult */
/** @typedef {import('./protocol').SaveResult} SaveResult */

/** How long the "Saved …" note stays in the status bar. */
const SAVED_NOTE_MS = 4000;

/** @implements {vscode.FileSystemProvider} */
class AdtFileSystem {
  #stats = new DocumentStats();

  /**
   * @param {ServerConnection} connection
   * @param {import('./restoring').Restoring} [restoring] follows each document's base
   */
  constructor(connection, restoring) {
    this.connection = connection;
    this.restoring = restoring;
    /**
     * Never fires: the server brings open documents up to date itself (workspace/applyEdit).
     * @type {vscode.Event<vscode.FileChangeEvent[]>}
     */
    this.onDidChangeFile = new vscode.EventEmitter().event;
  }

  watch() {
    return new vscode.Disposable(() => undefined);
  }

  /**
   * @param {vscode.Uri} uri
   * @returns {Promise<vscode.FileStat>}
   */
  async stat(uri) {
    const key = toServerUri(uri);
    const known =
      this.#stats.get(key) ??
      this.#stats.kept(key, this.restoring?.bases.get(key)) ?? // an editor of a reloaded window
      this.#stats.learn(key, await this.#read(uri, false));
    return { type: vscode.FileType.File, ctime: known.mtime, mtime: known.mtime, size: known.size };
  }

  /**
   * @param {vscode.Uri} uri
   * @returns {Promise<Uint8Array>}
   */
  async readFile(uri) {
    const read = await this.#read(uri, true);
    const key = toServerUri(uri);
    const stat = this.#stats.learn(key, read);
    const open = vscode.workspace.textDocuments.some((d) => d.uri.toString() === uri.toString());
    this.restoring?.read(key, read, stat, open); // open: a revert, which re-bases it
    return new TextEncoder().encode(read.text);
  }

  /**
   * VS Code saves a document. The server writes what it got through didChange, which must be
   * the bytes VS Code writes; anything but `saved` or `unchanged` is thrown.
   * @param {vscode.Uri} uri
   * @param {Uint8Array} content
   */
  async writeFile(uri, content) {
    const key = toServerUri(uri);
    const label = objectLabel(uri.path);
    const document = vscode.workspace.textDocuments.find(
      (candidate) => candidate.uri.toString() === uri.toString(),
    );
    const refusal = writeRefusal(document?.getText(), content);
    if (refusal) {
      throw vscode.FileSystemError.NoPermissions(`${label}: ${refusal}`);
    }
    /** @type {SaveResult} */
    let result;
    try {
      // a server started for this save (a reloaded window) opens the document and gets its
      // base back first; a restarted one must know the base before the save too
      await this.connection.client();
      await this.restoring?.settled(key);
      result = await this.connection.request(SAVE_DOCUMENT, { uri: key });
    } catch (error) {
      throw fileError(error);
    }
    const outcome = saveOutcome(result, label);
    if (!outcome.ok) {
      throw new vscode.FileSystemError(outcome.message);
    }
    this.#stats.saved(key, result, content.byteLength);
    if ((result.status === 'saved' || result.status === 'merged') && result.token) {
      this.restoring?.moved(key, result.token, this.#stats.get(key));
    }
    vscode.window.setStatusBarMessage(outcome.message, SAVED_NOTE_MS);
  }

  /** @returns {never} */
  readDirectory() {
    throw vscode.FileSystemError.NoPermissions(
      'adt:// has no folders to list: find objects with "ABAP: Search Objects".',
    );
  }

  /** @returns {never} */
  createDirectory() {
    throw vscode.FileSystemError.NoPermissions('Folders cannot be created on an ABAP system.');
  }

  /** @returns {never} */
  delete() {
    throw vscode.FileSystemError.NoPermissions('ABAP objects cannot be deleted from the editor.');
  }

  /** @returns {never} */
  rename() {
    throw vscode.FileSystemError.NoPermissions('ABAP objects cannot be renamed from the editor.');
  }

  /**
   * @param {vscode.Uri} uri
   * @param {boolean} fresh false: the server may answer from its cache
   * @returns {Promise<ReadDocumentResult>}
   */
  async #read(uri, fresh) {
    try {
      return await this.connection.request(READ_DOCUMENT, { uri: toServerUri(uri), fresh });
    } catch (error) {
      throw fileError(error);
    }
  }
}

/**
 * @param {unknown} error a rejected request, or a server that did not start
 * @returns {vscode.FileSystemError}
 */
function fileError(error) {
  const message = errorMessage(error);
  switch (fileErrorKind(error)) {
    case 'notFound':
      return vscode.FileSystemError.FileNotFound(message);
    case 'noPermissions':
      return vscode.FileSystemError.NoPermissions(message);
    case 'unavailable':
      return vscode.FileSystemError.Unavailable(message);
    default:
      return new vscode.FileSystemError(message);
  }
}

module.exports = { AdtFileSystem };
