// @ts-check
'use strict';

/**
 * Browser logons (OAuth for SAP BTP, single sign-on) the language server asks this editor to
 * show: `adt/logon` with `state: "open"` and the URL opens the browser and a progress
 * notification the user can cancel (then `adt/cancelLogon` goes back); `"done"` or
 * `"failed"` ends the progress and says how it went (docs/lsp-protocol.md, "Logging on in
 * the browser"). Free of the `vscode` module, so it runs in unit tests; `serverMessages.js`
 * passes VS Code's functions in.
 */

/** Notification from the server. */
const LOGON = 'adt/logon';
/** Notification to the server: the user gave up a logon. */
const CANCEL_LOGON = 'adt/cancelLogon';
/** The client capability (`experimental`) that makes the server send {@link LOGON}. */
const CAPABILITY = 'adtLogon';

/**
 * @typedef {object} LogonMessage
 * @property {string} id
 * @property {string} system
 * @property {'open' | 'done' | 'failed'} state
 * @property {string} [url] with `open`
 * @property {string} [message] with `failed`: why, in the user's words
 */

/**
 * What the prompts need of the editor.
 * @typedef {object} LogonUi
 * @property {(url: string) => PromiseLike<boolean>} openExternal opens the system browser
 * @property {(title: string, task: (onCancel: (listener: () => void) => void) => Promise<void>) => PromiseLike<void>} withProgress
 *   a cancellable progress notification that lasts as long as `task`
 * @property {(message: string) => unknown} info
 * @property {(message: string) => unknown} error
 */

/**
 * @param {unknown} params
 * @returns {LogonMessage | undefined} the message, when it has the documented shape
 */
function logonMessage(params) {
  if (typeof params !== 'object' || params === null) {
    return undefined;
  }
  const message = /** @type {Record<string, unknown>} */ (params);
  const { id, system, state, url } = message;
  if (typeof id !== 'string' || typeof system !== 'string') {
    return undefined;
  }
  if (state === 'open' && typeof url === 'string' && /^https?:\/\//.test(url)) {
    return { id, system, state, url };
  }
  if (state === 'done' || state === 'failed') {
    const reason = typeof message.message === 'string' ? message.message : 'unknown reason';
    return { id, system, state, message: reason };
  }
  return undefined;
}

class LogonPrompts {
  /** @type {Map<string, () => void>} ends the progress of each open logon */
  #open = new Map();

  /**
   * @param {LogonUi} ui
   * @param {(id: string) => void} cancel sends `adt/cancelLogon`
   */
  constructor(ui, cancel) {
    this.ui = ui;
    this.cancel = cancel;
  }

  /** @param {unknown} params of `adt/logon` */
  handle(params) {
    const message = logonMessage(params);
    if (!message) {
      return;
    }
    if (message.state === 'open') {
      this.#show(message.id, message.system, /** @type {string} */ (message.url));
      return;
    }
    const end = this.#open.get(message.id);
    this.#open.delete(message.id);
    end?.();
    if (message.state === 'done') {
      void this.ui.info(`Logged on to ${message.system}.`);
    } else {
      void this.ui.error(`Logon to ${message.system} failed: ${message.message}`);
    }
  }

  /** Logons still waiting for the browser. */
  get waiting() {
    return [...this.#open.keys()];
  }

  /**
   * @param {string} id
   * @param {string} system
   * @param {string} url
   */
  #show(id, system, url) {
    /** @type {Promise<void>} */
    const ended = new Promise((resolve) => this.#open.set(id, resolve));
    void this.ui.withProgress(`Log on to ${system} in your browser…`, (onCancel) => {
      onCancel(() => {
        if (this.#open.has(id)) {
          this.cancel(id);
        }
      });
      return ended;
    });
    void Promise.resolve(this.ui.openExternal(url)).then(
      (opened) => {
        if (!opened) {
          void this.ui.error(`Could not open the browser. Open this address to log on: ${url}`);
        }
      },
      () => void this.ui.error(`Could not open the browser. Open this address to log on: ${url}`),
    );
  }
}

module.exports = { CANCEL_LOGON, CAPABILITY, LOGON, LogonPrompts, logonMessage };
