// @ts-check
'use strict';

/**
 * restoring.js with a stand-in for the `vscode` module (only what it touches): in a reloaded
 * window the first save starts the language server, which opens the document during its
 * start; the save must wait until the server took the document's base back.
 */

const assert = require('node:assert/strict');
const Module = require('node:module');
const { describe, it } = require('node:test');

const noEvent = () => ({ dispose: () => undefined });
const fakeVscode = {
  workspace: {
    onDidChangeTextDocument: noEvent,
    onDidSaveTextDocument: noEvent,
    onDidCloseTextDocument: noEvent,
    textDocuments: [],
  },
  window: { showWarningMessage: () => undefined },
};

/** @type {any} */
const loader = Module;
const load = loader._load;
loader._load = function (/** @type {string} */ request, /** @type {unknown[]} */ ...rest) {
  return request === 'vscode' ? fakeVscode : load.call(this, request, ...rest);
};
const { Restoring } = require('../src/restoring');
const { toServerUri } = require('../src/editorUris');
loader._load = load;

const PATH = '/sap/bc/adt/programs/programs/zdemo_report/source/main';
const editorUri = {
  scheme: 'adt',
  authority: 'A4H',
  path: PATH,
  toString: () => `adt://A4H${PATH}`,
};
const URI = toServerUri(/** @type {any} */ (editorUri));
const BASE = '1764240000_0123456789abcdef';

/** A promise and the function that resolves it. */
function deferred() {
  /** @type {(value?: any) => void} */
  let resolve = () => undefined;
  /** @type {Promise<any>} */
  const promise = new Promise((done) => {
    resolve = done;
  });
  return { promise, resolve };
}

const settle = () => new Promise((resolve) => setImmediate(resolve));

describe('Restoring after a window reload', () => {
  it('makes a save that started the server wait for the restored base', async () => {
    const state = {
      get: () => ({ [URI]: { token: BASE, generation: 0 } }), // kept by the reloaded window
      update: async () => undefined,
      keys: () => [],
    };
    const restoring = new Restoring(
      /** @type {any} */ (state),
      /** @type {any} */ ({ appendLine: () => undefined }),
    );
    restoring.bases.nextGeneration(); // the server starts (initializationOptions)
    /** @type {unknown[]} */
    const sent = [];
    const answer = deferred();
    restoring.send = (method, params) => {
      sent.push([method, params]);
      return answer.promise;
    };
    const opened = deferred();
    const document = { uri: editorUri, getText: () => '* mine\n', isDirty: true };
    // the client hands the document over while it starts; the notification goes out later
    void restoring.didOpen(/** @type {any} */ (document), () => opened.promise);
    let saved = false;
    const save = restoring.settled(URI).then(() => {
      saved = true;
    });
    await settle();
    assert.equal(saved, false, 'no save before the document is open');
    opened.resolve();
    await settle();
    assert.deepEqual(sent, [['adt/restoreDocument', { uri: URI, baseToken: BASE }]]);
    assert.equal(saved, false, 'no save before the server took the base');
    answer.resolve({ status: 'changed', changedBy: 'COLLEAGUE' });
    await save;
    assert.equal(saved, true);
  });

  it('lets a save go when the document could not be opened', async () => {
    const state = {
      get: () => ({ [URI]: { token: BASE, generation: 0 } }),
      update: async () => {},
    };
    const restoring = new Restoring(
      /** @type {any} */ (state),
      /** @type {any} */ ({ appendLine: () => undefined }),
    );
    restoring.bases.nextGeneration();
    restoring.send = async () => assert.fail('nothing to restore into a server without it');
    const document = { uri: editorUri, getText: () => '* mine\n', isDirty: true };
    const failed = restoring.didOpen(/** @type {any} */ (document), () =>
      Promise.reject(new Error('the server ended')),
    );
    await assert.rejects(failed);
    await restoring.settled(URI);
  });
});
