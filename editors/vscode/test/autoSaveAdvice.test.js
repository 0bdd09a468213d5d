// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { autoSaveWarning } = require('../src/autoSaveAdvice');

describe('autoSaveWarning', () => {
  it('says that every pause writes the object to the system', () => {
    assert.equal(
      autoSaveWarning('afterDelay', 'ZDEMO_REPORT', 'A4H', undefined),
      'Auto save is on for ABAP objects: ZDEMO_REPORT will be written to A4H whenever you ' +
        'pause typing (files.autoSave: afterDelay), also with incomplete statements, and every ' +
        'write is a new inactive version on the system.',
    );
    assert.match(
      autoSaveWarning('onFocusChange', 'ZCL_X', 'A4H', undefined) ?? '',
      /whenever the editor loses focus/,
    );
  });

  it('stays quiet when auto save is off or the user kept this mode', () => {
    assert.equal(autoSaveWarning('off', 'Z', 'A4H', undefined), undefined);
    assert.equal(autoSaveWarning(undefined, 'Z', 'A4H', undefined), undefined);
    assert.equal(autoSaveWarning('afterDelay', 'Z', 'A4H', 'afterDelay'), undefined);
    assert.notEqual(autoSaveWarning('onWindowChange', 'Z', 'A4H', 'afterDelay'), undefined);
  });
});
