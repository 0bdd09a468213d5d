// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { LogonPrompts, logonMessage } = require('../src/logons');

const URL_OF_LOGON =
  'https://dev.example.com/sap/bc/sec/reentrance?scenario=FTO1&redirect-url=' +
  'http%3A%2F%2F127.0.0.1%3A50123%2Fcallback%3Fstate%3Dabc';

/** A stand-in for VS Code's window and env that records what the user saw. */
class FakeUi {
  /** @type {string[]} */ opened = [];
  /** @type {string[]} */ infos = [];
  /** @type {string[]} */ errors = [];
  /** @type {Array<{title: string, done: boolean, cancel: () => void}>} */ progresses = [];
  canOpen = true;

  /** @param {string} url */
  async openExternal(url) {
    this.opened.push(url);
    return this.canOpen;
  }

  /**
   * @param {string} title
   * @param {(onCancel: (listener: () => void) => void) => Promise<void>} task
   */
  withProgress(title, task) {
    const progress = { title, done: false, cancel: () => {} };
    this.progresses.push(progress);
    return task((listener) => {
      progress.cancel = listener;
    }).then(() => {
      progress.done = true;
    });
  }

  /** @param {string} message */
  info(message) {
    this.infos.push(message);
  }

  /** @param {string} message */
  error(message) {
    this.errors.push(message);
  }
}

/** Let promise callbacks run. */
const settle = () => new Promise((resolve) => setImmediate(resolve));

function prompts() {
  const ui = new FakeUi();
  /** @type {string[]} */
  const cancelled = [];
  const logons = new LogonPrompts(ui, (id) => cancelled.push(id));
  return { ui, cancelled, logons };
}

describe('LogonPrompts', () => {
  it('opens the browser with the exact URL and shows a progress until the logon is done', async () => {
    const { ui, logons, cancelled } = prompts();
    logons.handle({ id: 'l1', system: 'DEV', state: 'open', url: URL_OF_LOGON });
    await settle();
    assert.deepEqual(ui.opened, [URL_OF_LOGON], 'the address is passed on unchanged');
    assert.equal(ui.progresses.length, 1);
    assert.equal(ui.progresses[0].title, 'Log on to DEV in your browser…');
    assert.equal(ui.progresses[0].done, false);
    assert.deepEqual(logons.waiting, ['l1']);

    logons.handle({ id: 'l1', system: 'DEV', state: 'done' });
    await settle();
    assert.equal(ui.progresses[0].done, true, 'the progress ends with the logon');
    assert.deepEqual(ui.infos, ['Logged on to DEV.']);
    assert.deepEqual(ui.errors, []);
    assert.deepEqual(cancelled, []);
    assert.deepEqual(logons.waiting, []);
  });

  it('sends the cancel to the server when the user cancels the progress', async () => {
    const { ui, logons, cancelled } = prompts();
    logons.handle({ id: 'l2', system: 'BTP', state: 'open', url: URL_OF_LOGON });
    await settle();
    ui.progresses[0].cancel();
    assert.deepEqual(cancelled, ['l2']);
    logons.handle({
      id: 'l2',
      system: 'BTP',
      state: 'failed',
      message: 'logon to BTP in the browser was cancelled',
    });
    await settle();
    assert.equal(ui.progresses[0].done, true);
    assert.deepEqual(ui.errors, ['Logon to BTP failed: logon to BTP in the browser was cancelled']);
  });

  it('does not cancel a logon that has already ended', async () => {
    const { ui, logons, cancelled } = prompts();
    logons.handle({ id: 'l3', system: 'DEV', state: 'open', url: URL_OF_LOGON });
    logons.handle({ id: 'l3', system: 'DEV', state: 'done' });
    await settle();
    ui.progresses[0].cancel();
    assert.deepEqual(cancelled, []);
  });

  it('shows the address when the browser cannot be opened', async () => {
    const { ui, logons } = prompts();
    ui.canOpen = false;
    logons.handle({ id: 'l4', system: 'DEV', state: 'open', url: URL_OF_LOGON });
    await settle();
    assert.deepEqual(ui.errors, [
      `Could not open the browser. Open this address to log on: ${URL_OF_LOGON}`,
    ]);
    assert.deepEqual(logons.waiting, ['l4'], 'the logon still waits: the user may open it');
  });

  it('ignores messages of another shape and URLs that are not web addresses', async () => {
    const { ui, logons } = prompts();
    logons.handle({ id: 'l5', system: 'DEV', state: 'open', url: 'file:///etc/passwd' });
    logons.handle({ id: 'l5', state: 'open', url: URL_OF_LOGON });
    logons.handle(null);
    await settle();
    assert.deepEqual(ui.opened, []);
    assert.deepEqual(ui.progresses, []);
    assert.equal(
      logonMessage({ id: 'x', system: 'S', state: 'failed' })?.message,
      'unknown reason',
    );
  });
});
