// @ts-check
'use strict';

/**
 * The server version each open `adt://` document is based on: its token and, where the
 * extension can be sure of it, its text. A language server started again (after a crash,
 * "ABAP: Restart Language Server", a window reload) knows only the *current* server version;
 * without this, unsaved edits would be saved against that one and turn a colleague's change
 * made meanwhile back into the editor's old lines. The records are handed to the new server
 * with `adt/restoreDocument`, so a save is still checked against the version the edits were
 * made on. A document's text is its base text only when its content hash is the one in the
 * token (`<changedAt>_<first 16 hex digits of sha256(text with LF)>`); a base whose text the
 * extension cannot be sure of is sent with its token alone.
 *
 * Pure (no VS Code), so that it is tested with Node alone; restoring.js wires it up.
 */

const { createHash } = require('node:crypto');

const EMPTY_TOKEN = '0_empty';
const TOKEN = /^(\d{1,16})_([0-9a-f]{16})$/;
/** Changes of a document checked for the base text after its base moved (an edit the server
 * applies arrives with one of the next changes, not with the notification). */
const CHANGES_TO_WATCH = 3;

/**
 * Whether `text` is the content a version token names.
 * @param {string} text
 * @param {string} token
 * @returns {boolean}
 */
function textMatchesToken(text, token) {
  if (token === EMPTY_TOKEN) {
    return text === '';
  }
  const match = TOKEN.exec(token);
  if (!match) {
    return false;
  }
  const canonical = text.replace(/\r\n?/g, '\n');
  return createHash('sha256').update(canonical, 'utf8').digest('hex').slice(0, 16) === match[2];
}

/**
 * @typedef {object} BaseRecord
 * @property {string} token the version the document is based on
 * @property {string} [text] that version's text, when known for sure
 * @property {number} generation the server start it was learnt in (0: an earlier window)
 * @property {number} [mtime] what the file system reported for it (kept across a reload,
 *   so that VS Code does not take a changed server version for a newer file)
 * @property {number} [size]
 * @property {number} [watch] changes left to find the base text in
 * @property {{token: string, text: string, mtime?: number, size?: number}} [reread] a read
 *   while the document is open: its base once the document shows that text, clean (VS Code
 *   reverted it); "Compare with Saved" reads too, and that must not move the base
 */

/**
 * @typedef {object} RestoreParams `adt/restoreDocument`
 * @property {string} uri
 * @property {string} baseToken
 * @property {string} [baseText]
 */

class DocumentBases {
  /** @type {Map<string, BaseRecord>} */
  #records = new Map();
  /** The current server start (1 for the first). */
  generation = 0;

  /**
   * @param {Record<string, BaseRecord>} [persisted] records of an earlier window (a reload):
   *   they are restored into the first server
   */
  constructor(persisted = {}) {
    for (const [uri, record] of Object.entries(persisted)) {
      if (record && typeof record.token === 'string') {
        this.#records.set(uri, { ...record, generation: 0, watch: undefined });
      }
    }
  }

  /** A server (re)starts: documents it opens from now on are restored. */
  nextGeneration() {
    this.generation += 1;
  }

  /**
   * @param {string} uri
   * @returns {BaseRecord | undefined}
   */
  get(uri) {
    return this.#records.get(uri);
  }

  /**
   * A read of the document (opening it, or reverting it). A record of an earlier server that
   * was not restored yet is kept: VS Code may read a file while it restores an editor with
   * unsaved edits, whose base is the old one.
   * @param {string} uri
   * @param {{token: string, text: string}} read
   * @param {{mtime: number, size: number}} [stat]
   * @param {boolean} [open] the document is open already: VS Code reverts it
   * @returns {boolean} whether the read is the document's base now
   */
  read(uri, read, stat, open = false) {
    const known = this.#records.get(uri);
    if (known && open) {
      known.reread = { token: read.token, text: read.text, ...stat };
      return false;
    }
    if (known && known.generation < this.generation) {
      return false;
    }
    this.#records.set(uri, {
      token: read.token,
      text: read.text,
      generation: this.generation,
      ...stat,
    });
    return true;
  }

  /**
   * The base moved (a save, a reload, a merge, an agent's edit: `adt/baseVersion`, or the
   * answer of a save). The document's text is the new base's when their hashes agree, now or
   * in one of the next few changes.
   * @param {string} uri
   * @param {string} token
   * @param {string | undefined} text the document's text now
   * @param {{mtime: number, size: number}} [stat]
   */
  moved(uri, token, text, stat) {
    const known = this.#records.get(uri);
    if (known?.token === token && known.text !== undefined) {
      Object.assign(known, stat);
      return;
    }
    const sure = text !== undefined && textMatchesToken(text, token);
    this.#records.set(uri, {
      ...(known ?? {}),
      ...stat,
      token,
      text: sure ? text : undefined,
      generation: this.generation,
      watch: sure ? undefined : CHANGES_TO_WATCH,
    });
  }

  /**
   * The document's text changed: it may now show the base whose text was not known, or the
   * text it was read again with (a revert), which the server must take as the base too.
   * @param {string} uri
   * @param {() => string} text
   * @param {boolean} dirty
   * @returns {RestoreParams | undefined} the base the server must take now
   */
  changed(uri, text, dirty) {
    const known = this.#records.get(uri);
    const reread = known?.reread;
    if (known && reread) {
      known.reread = undefined;
      if (!dirty && text() === reread.text) {
        const { token, text: base, ...stat } = reread;
        Object.assign(known, stat, { token, text: base, watch: undefined });
        return { uri, baseToken: token, baseText: base };
      }
    }
    if (!known?.watch) {
      return undefined;
    }
    const now = text();
    if (textMatchesToken(now, known.token)) {
      known.text = now;
      known.watch = undefined;
    } else {
      known.watch -= 1;
    }
    return undefined;
  }

  /**
   * What to send after the server opened the document, if anything: documents whose base was
   * learnt from an earlier server start. A clean document whose text is not its recorded base
   * was read again meanwhile (the record is stale) and needs nothing.
   * @param {string} uri
   * @param {string} text the document's text as the server got it in didOpen
   * @param {boolean} dirty
   * @returns {RestoreParams | undefined}
   */
  restoreParams(uri, text, dirty) {
    const known = this.#records.get(uri);
    if (!known || known.generation >= this.generation) {
      return undefined;
    }
    known.generation = this.generation;
    if (!dirty && !textMatchesToken(text, known.token)) {
      this.#records.delete(uri);
      return undefined;
    }
    return known.text === undefined
      ? { uri, baseToken: known.token }
      : { uri, baseToken: known.token, baseText: known.text };
  }

  /** @param {string} uri */
  forget(uri) {
    this.#records.delete(uri);
  }

  /**
   * The records a window reload needs: those of documents with unsaved edits (a clean one is
   * read again).
   * @param {(uri: string) => boolean} dirty
   * @returns {Record<string, BaseRecord>}
   */
  persistable(dirty) {
    /** @type {Record<string, BaseRecord>} */
    const kept = {};
    for (const [uri, record] of this.#records) {
      if (dirty(uri)) {
        const { watch: _watch, reread: _reread, ...rest } = record;
        kept[uri] = rest;
      }
    }
    return kept;
  }
}

module.exports = { DocumentBases, textMatchesToken, EMPTY_TOKEN };
