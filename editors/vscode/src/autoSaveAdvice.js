// @ts-check
'use strict';

/**
 * What auto save means for `adt://` documents, as pure decisions. Every save of such a
 * document writes the object to the SAP system (lock, write, unlock; an inactive version
 * the system records), also in the middle of a statement. The extension therefore turns
 * auto save off for the `abap` language by default (`configurationDefaults`); when it is on
 * for an ABAP document all the same (web VS Code saves after a delay unless told otherwise,
 * or a user set it), the user is told once what it does, and may turn it off for ABAP.
 */

/** The `files.autoSave` values and what they mean for an ABAP object. */
const WHEN = Object.freeze({
  afterDelay: 'whenever you pause typing (files.autoSave: afterDelay)',
  onFocusChange: 'whenever the editor loses focus (files.autoSave: onFocusChange)',
  onWindowChange: 'whenever the window loses focus (files.autoSave: onWindowChange)',
});

/**
 * The warning for a document, or undefined when auto save is off (or the user accepted this
 * mode before).
 * @param {unknown} mode the effective `files.autoSave` of the document
 * @param {string} label the object, e.g. `ZDEMO_REPORT`
 * @param {string} system
 * @param {unknown} accepted the mode the user chose to keep earlier
 * @returns {string | undefined}
 */
function autoSaveWarning(mode, label, system, accepted) {
  if (typeof mode !== 'string' || !(mode in WHEN) || mode === accepted) {
    return undefined;
  }
  const when = WHEN[/** @type {keyof typeof WHEN} */ (mode)];
  return (
    `Auto save is on for ABAP objects: ${label} will be written to ${system} ${when}, ` +
    'also with incomplete statements, and every write is a new inactive version on the system.'
  );
}

const TURN_OFF = 'Turn Off for ABAP';
const KEEP = 'Keep Auto Save';

module.exports = { autoSaveWarning, TURN_OFF, KEEP };
