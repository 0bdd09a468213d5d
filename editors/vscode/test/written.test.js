// @ts-check
'use strict';

/** written.js: which documents the server wrote are saved to clear VS Code's unsaved mark. */

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { saveWritten } = require('../src/written');

const URI = 'adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main';

/** @param {{isDirty?: boolean, version?: number}} [state] */
function documentAt(state = {}) {
  const document = {
    isDirty: state.isDirty ?? true,
    version: state.version ?? 7,
    saves: 0,
    save: async () => {
      document.saves += 1;
      return true;
    },
  };
  return document;
}

describe('saveWritten', () => {
  it('saves a dirty document the server says is clean at the version it shows', async () => {
    const document = documentAt();
    const saved = await saveWritten({ uri: URI, version: 7, clean: true }, (uri) =>
      uri === URI ? document : undefined,
    );
    assert.equal(saved, true);
    assert.equal(document.saves, 1);
  });

  it('leaves a document typed in since alone: that save is the user’s', async () => {
    const document = documentAt({ version: 8 });
    assert.equal(await saveWritten({ uri: URI, version: 7, clean: true }, () => document), false);
    assert.equal(document.saves, 0);
  });

  it('leaves unsaved edits alone', async () => {
    const document = documentAt();
    assert.equal(await saveWritten({ uri: URI, version: 7, clean: false }, () => document), false);
    assert.equal(document.saves, 0);
  });

  it('does nothing for a clean, closed or unversioned document', async () => {
    const clean = documentAt({ isDirty: false });
    assert.equal(await saveWritten({ uri: URI, version: 7, clean: true }, () => clean), false);
    assert.equal(await saveWritten({ uri: URI, version: 7, clean: true }, () => undefined), false);
    assert.equal(await saveWritten({ uri: URI, clean: true }, () => documentAt()), false);
    assert.equal(clean.saves, 0);
  });
});
