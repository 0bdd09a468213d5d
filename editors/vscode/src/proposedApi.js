// @ts-check
'use strict';

/**
 * A proposed VS Code API, used only where VS Code grants it. Whether it does depends on how VS
 * Code was started (`--enable-proposed-api <extension id>`, extension development mode, or a
 * build such as code-server that grants every extension), not on its version: so the call is
 * tried, and a refusal (VS Code throws "… CANNOT use API proposal …", or the function is not
 * there at all) leaves the extension working without it.
 */

/**
 * @typedef {object} Refusal
 * @property {string} api the function's name
 * @property {string} reason the first line of what VS Code said
 */

/**
 * Call `namespace[api](...args)` when VS Code grants it.
 * @template T
 * @param {object} namespace e.g. `vscode.workspace`
 * @param {string} api e.g. `registerTimelineProvider`
 * @param {unknown[]} args
 * @param {(refusal: Refusal) => void} refused told why, when it is not granted
 * @returns {T | undefined} what the call returned (a registration), or nothing when refused
 */
function callProposed(namespace, api, args, refused) {
  const call = /** @type {Record<string, unknown>} */ (namespace)[api];
  try {
    if (typeof call !== 'function') {
      throw new Error(`this VS Code has no ${api}`);
    }
    return call.apply(namespace, args);
  } catch (error) {
    const said = error instanceof Error ? error.message : String(error);
    refused({ api, reason: said.split('\n')[0] });
    return undefined;
  }
}

module.exports = { callProposed };
