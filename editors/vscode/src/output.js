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

module.exports = { relabelExit, languageClientChannel };
