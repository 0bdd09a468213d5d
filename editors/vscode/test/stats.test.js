// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { DocumentStats } = require('../src/stats');

/** @typedef {import('../src/protocol').ReadDocumentResult} ReadDocumentResult */

const URI = 'adt://A4H/sap/bc/adt/programs/programs/zdemo/source/main';

/**
 * @param {string} text
 * @param {number | null} changedAt
 * @returns {ReadDocumentResult}
 */
function read(text, changedAt) {
  return {
    uri: URI,
    text,
    token: `${changedAt}_0000000000000000`,
    lineCount: text.split('\n').length,
    changedAt,
    changedBy: null,
    objectUrl: '/sap/bc/adt/programs/programs/zdemo',
    sourceUrl: '/sap/bc/adt/programs/programs/zdemo/source/main',
    objectType: 'PROG/P',
    includeType: null,
    system: 'A4H',
  };
}

describe('DocumentStats', () => {
  it('knows nothing before the first read', () => {
    assert.equal(new DocumentStats().get(URI), undefined);
  });

  it('takes changedAt and the UTF-8 size from the first read', () => {
    const stats = new DocumentStats();
    assert.deepEqual(stats.learn(URI, read('REPORT zdemo. " €', 1700000000000)), {
      mtime: 1700000000000,
      size: 19,
    });
    assert.deepEqual(stats.get(URI), { mtime: 1700000000000, size: 19 });
  });

  it('does not move on later reads, so VS Code never sees a newer file', () => {
    const stats = new DocumentStats();
    stats.learn(URI, read('REPORT zdemo.', 1000));
    assert.deepEqual(stats.learn(URI, read('REPORT zdemo. " changed elsewhere', 2000)), {
      mtime: 1000,
      size: 13,
    });
  });

  it('uses 0 when the server does not know the change time', () => {
    assert.equal(new DocumentStats().learn(URI, read('', null)).mtime, 0);
  });

  it('moves to the saved version, keeping the time when nothing was written', () => {
    const stats = new DocumentStats();
    stats.learn(URI, read('REPORT zdemo.', 1000));
    stats.saved(URI, { status: 'saved', changedAt: 5000, hunks: 1, token: 't' }, 20);
    assert.deepEqual(stats.get(URI), { mtime: 5000, size: 20 });
    stats.saved(URI, { status: 'unchanged', token: 't' }, 21);
    assert.deepEqual(stats.get(URI), { mtime: 5000, size: 21 });
  });
});
