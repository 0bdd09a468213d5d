// @ts-check
'use strict';

/**
 * Documents the server wrote for the editor: a rename, an extract method or an agent's edit
 * is applied to the editor's text and then written by the server, so VS Code still marks the
 * tab unsaved although its text is the system's version. `adt/baseVersion` says so
 * (`clean` at the document `version` the server had then); saving such a document sends
 * `adt/saveDocument`, which answers `unchanged` without writing, and clears the mark. A
 * document typed in since (another version) is left alone: that save is the user's.
 */

/**
 * @typedef {object} WrittenBase the fields of `adt/baseVersion` used here
 * @property {string} uri
 * @property {number | null} [version]
 * @property {boolean | null} [clean]
 */

/**
 * @typedef {object} SavableDocument
 * @property {boolean} isDirty
 * @property {number} version
 * @property {() => Thenable<boolean>} save
 */

/**
 * Save the document `base` names when the server says it is clean at the version it shows.
 * @param {WrittenBase} base
 * @param {(uri: string) => SavableDocument | undefined} find the open document of a server URI
 * @returns {Promise<boolean>} whether it was saved
 */
async function saveWritten(base, find) {
  if (base.clean !== true || typeof base.version !== 'number') {
    return false;
  }
  const document = find(base.uri);
  if (!document || !document.isDirty || document.version !== base.version) {
    return false;
  }
  return document.save();
}

module.exports = { saveWritten };
