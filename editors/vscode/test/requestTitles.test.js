// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { PROGRESS_DELAY_MS, requestTitle } = require('../src/requestTitles');

const URI = 'adt://A4H/sap/bc/adt/oo/classes/zcl_demo/includes/testclasses';

describe('requestTitle', () => {
  it('names the object and the system of what is being waited for', () => {
    assert.equal(
      requestTitle('adt/saveDocument', { uri: URI }),
      'Saving ZCL_DEMO (testclasses) on A4H…',
    );
    assert.equal(
      requestTitle('adt/readDocument', { uri: URI, fresh: true }),
      'Reading ZCL_DEMO (testclasses) on A4H…',
    );
    assert.equal(
      requestTitle('adt/openObject', { name: 'ZDEMO_REPORT', system: 'QAS' }),
      'Looking for ZDEMO_REPORT on QAS…',
    );
    assert.equal(requestTitle('adt/searchObjects', { query: 'ZCL*' }), 'Searching ZCL*…');
  });

  it('shows none for requests the server reports itself or that run in the background', () => {
    assert.equal(requestTitle('workspace/executeCommand', { command: 'adt.activate' }), undefined);
    assert.equal(requestTitle('adt/documentState', { uri: URI }), undefined);
    assert.equal(requestTitle('adt/saveDocument', undefined), undefined);
  });

  it('waits a second before showing it', () => {
    assert.equal(PROGRESS_DELAY_MS, 1000);
  });
});
