// @ts-check
'use strict';

/**
 * The "ABAP ADT" output channel as the language client writes to it. vscode-languageclient
 * logs every end of the server process as an error, also the exit code 0 of a normal stop or
 * restart; that line is written as what it is.
 */

/** @typedef {import('vscode').OutputChannel} OutputChannel */

const NORMAL_EXIT = /^\[Error\s*- ([^\]]+)\] Server process exited with code 0\.$/;

/**
 * @param {string} line a line the language client logs
 * @returns {string}
 */
function relabelExit(line) {
  return line.replace(
    NORMAL_EXIT,
    '[Info  - $1] The language server stopped normally (exit code 0).',
  );
}

/**
 * The channel, with normal exits relabelled (everything else passes unchanged).
 * @param {OutputChannel} channel
 * @returns {OutputChannel}
 */
function languageClientChannel(channel) {
  return {
    get name() {
      return channel.name;
    },
    append: (value) => channel.append(value),
    appendLine: (value) => channel.appendLine(relabelExit(value)),
    replace: (value) => channel.replace(value),
    clear: () => channel.clear(),
    show: (/** @type {any} */ ...args) => channel.show(...args),
    hide: () => channel.hide(),
    dispose: () => undefined, // the extension disposes the channel, not the client
  };
}

/**
 * Say in the channel that the extension is ready: its commands, its file system and Ctrl+T
 * answer from now on. VS Code logs an extension's activation before it loads it (seconds
 * earlier on a busy machine), and a Ctrl+T query typed in between finds no provider and is not
 * asked again, so that log line is no readiness signal; this one is. It is written only after
 * `windowRoundTrip` was answered: the window takes the extension's messages in order, so it
 * knows every provider registered before by then.
 * @param {() => PromiseLike<unknown>} windowRoundTrip a request the window answers
 * @param {{appendLine(value: string): void}} channel
 * @param {string[]} systems the configured systems' names
 * @returns {Promise<void>}
 */
async function announceReady(windowRoundTrip, channel, systems) {
  await windowRoundTrip();
  const named = systems.length ? `systems ${systems.join(', ')}` : 'no ABAP system configured';
  channel.appendLine(`ABAP ADT is ready (${named}).`);
}

module.exports = { announceReady, relabelExit, languageClientChannel };
