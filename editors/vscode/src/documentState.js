// @ts-check
'use strict';

/**
 * The status bar's words for a document's state (`adt/documentState`): its system, whether
 * the object is locked for editing, and whether the source has an inactive version (saved,
 * not activated: the system still runs the active one). Pure, so that it is tested without
 * VS Code.
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
 * @property {boolean | null} [inactive] the source has an inactive version (null: not known)
 */

/**
 * @param {DocumentState} state
 * @param {string} label the object, e.g. `ZCL_FOO (implementations)`
 * @returns {{text: string, tooltip: string}}
 */
function statusText(state, label) {
  const shown = lockText(state, label);
  if (!state.inactive) {
    return shown;
  }
  return {
    text: `${shown.text} $(circle-outline) inactive`,
    tooltip:
      `${shown.tooltip} Saved but not activated: the system still runs the active version ` +
      '("ABAP: Activate"; "ABAP: Compare with Active Version" shows the difference).',
  };
}

/**
 * @param {DocumentState} state
 * @param {string} label
 * @returns {{text: string, tooltip: string}}
 */
function lockText(state, label) {
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
