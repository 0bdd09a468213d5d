// @ts-check
'use strict';

/**
 * What `stat` reports for each document: modification time (the object's `changedAt`) and
 * size, remembered from the first read and updated by our own saves only.
 *
 * VS Code compares the `mtime` it saw when reading with a fresh `stat` before every save and,
 * when the file looks newer, shows its own "file is newer" dialog instead of saving. Conflicts
 * with other users are the server's job (every save is checked against the version token and
 * ends in "Reload theirs / Overwrite with mine / Merge"), so the values here never move behind
 * VS Code's back, and `stat` costs no request once a document is known.
 */

/** @typedef {import('./protocol').ReadDocumentResult} ReadDocumentResult */
/** @typedef {import('./protocol').SaveResult} SaveResult */

/**
 * @typedef {object} DocumentStat
 * @property {number} mtime milliseconds since the epoch (0 when the server does not know)
 * @property {number} size bytes (UTF-8)
 */

class DocumentStats {
  /** @type {Map<string, DocumentStat>} */
  #entries = new Map();

  /**
   * @param {string} uri
   * @returns {DocumentStat | undefined}
   */
  get(uri) {
    return this.#entries.get(uri);
  }

  /**
   * Values kept from an earlier window (a reload), taken when nothing newer is known: VS Code
   * compares them with what it kept in its backup of the unsaved editor.
   * @param {string} uri
   * @param {{mtime?: number, size?: number} | undefined} kept
   * @returns {DocumentStat | undefined}
   */
  kept(uri, kept) {
    if (typeof kept?.mtime !== 'number' || typeof kept.size !== 'number') {
      return undefined;
    }
    const entry = { mtime: kept.mtime, size: kept.size };
    this.#entries.set(uri, entry);
    return entry;
  }

  /**
   * The remembered values, or those of this read when the document is new.
   * @param {string} uri
   * @param {ReadDocumentResult} read
   * @returns {DocumentStat}
   */
  learn(uri, read) {
    let entry = this.#entries.get(uri);
    if (!entry) {
      entry = { mtime: read.changedAt ?? 0, size: Buffer.byteLength(read.text, 'utf8') };
      this.#entries.set(uri, entry);
    }
    return entry;
  }

  /**
   * After a successful save: the new size, and the new `changedAt` when something was written.
   * @param {string} uri
   * @param {SaveResult} result `saved` or `unchanged`
   * @param {number} size bytes written
   */
  saved(uri, result, size) {
    const previous = this.#entries.get(uri)?.mtime ?? 0;
    const mtime =
      result.status === 'saved' && typeof result.changedAt === 'number'
        ? result.changedAt
        : previous;
    this.#entries.set(uri, { mtime, size });
  }
}

module.exports = { DocumentStats };
