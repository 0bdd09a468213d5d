// @ts-check
'use strict';

/**
 * The status bar's words for a document's state (`adt/documentState`): its system and
 * whether the object is locked for editing. Pure, so that it is tested without VS Code.
 */

/**
 * @typedef {object} DocumentState
 * @property {string} uri
 * @property {string} system
 * @property {string} objectUrl
 * @property {'onSave' | 'onEdit'} lockMode
 * @property {boolean} locked the server holds the object's lock for editing
 * @property {boolean} open
 * @property {boolean} dirty
 */

/**
 * @param {DocumentState} state
 * @param {string} label the object, e.g. `ZCL_FOO (implementations)`
 * @returns {{text: string, tooltip: string}}
 */
function statusText(state, label) {
  if (state.locked) {
    return {
      text: `$(lock) ${state.system}`,
      tooltip:
        `${label} on ${state.system}: locked for your edits (lock mode onEdit). ` +
        'The lock is released when you save, undo all changes or close it.',
    };
  }
  const when =
    state.lockMode === 'onEdit'
      ? state.dirty
        ? 'not locked: the lock could not be taken (see the message); saving waits for it.'
        : 'not locked; your first change locks it (lock mode onEdit).'
      : 'locked only while saving (lock mode onSave); every save is checked against the ' +
        'version you started from.';
  return { text: `$(unlock) ${state.system}`, tooltip: `${label} on ${state.system}: ${when}` };
}

module.exports = { statusText };
