// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { announceReady, languageClientChannel, relabelExit } = require('../src/output');

describe('relabelExit', () => {
  it('writes a normal stop as information', () => {
    assert.equal(
      relabelExit('[Error - 10:41:07 AM] Server process exited with code 0.'),
      '[Info  - 10:41:07 AM] The language server stopped normally (exit code 0).',
    );
  });

  it('keeps a real failure an error', () => {
    for (const line of [
      '[Error - 10:41:07 AM] Server process exited with code 1.',
      '[Error - 10:41:07 AM] Server process exited with signal SIGKILL.',
      '[Info  - 10:41:07 AM] Server process exited with code 0.',
      'Server process exited with code 0.',
    ]) {
      assert.equal(relabelExit(line), line);
    }
  });
});

describe('languageClientChannel', () => {
  it('passes lines on, relabelled, and leaves disposing to the extension', () => {
    /** @type {string[]} */
    const lines = [];
    let disposed = false;
    const channel = /** @type {import('vscode').OutputChannel} */ (
      /** @type {unknown} */ ({
        name: 'ABAP ADT',
        appendLine: (/** @type {string} */ line) => lines.push(line),
        dispose: () => {
          disposed = true;
        },
      })
    );
    const wrapped = languageClientChannel(channel);
    wrapped.appendLine('[Error - 1:00:00 PM] Server process exited with code 0.');
    wrapped.appendLine('[Trace - 1:00:00 PM] Sending request');
    wrapped.dispose();
    assert.equal(wrapped.name, 'ABAP ADT');
    assert.deepEqual(lines, [
      '[Info  - 1:00:00 PM] The language server stopped normally (exit code 0).',
      '[Trace - 1:00:00 PM] Sending request',
    ]);
    assert.equal(disposed, false);
  });
});

describe('announceReady', () => {
  it('says ready only once the window answered, naming the systems', async () => {
    /** @type {string[]} */
    const lines = [];
    /** @type {(value?: unknown) => void} */
    let answer = () => undefined;
    const answered = new Promise((resolve) => {
      answer = resolve;
    });
    const announcing = announceReady(() => answered, { appendLine: (l) => lines.push(l) }, [
      'A4H',
      'S4D',
    ]);
    await new Promise((resolve) => setImmediate(resolve));
    assert.deepEqual(lines, [], 'nothing before the window took the registrations');
    answer();
    await announcing;
    assert.deepEqual(lines, ['ABAP ADT is ready (systems A4H, S4D).']);
  });

  it('says so when no system is configured', async () => {
    /** @type {string[]} */
    const lines = [];
    await announceReady(async () => undefined, { appendLine: (l) => lines.push(l) }, []);
    assert.deepEqual(lines, ['ABAP ADT is ready (no ABAP system configured).']);
  });
});
