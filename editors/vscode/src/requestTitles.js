// @ts-check
'use strict';

/**
 * What the extension is waiting for, in words: the title of the progress notification shown
 * when a request to the language server takes longer than a second (a slow system, one that
 * is down and being retried). Requests whose progress the server reports itself (activation,
 * unit tests, ATC), which ask questions meanwhile (new objects, transports) or which run in
 * the background (the status bar) have none. Pure, so that it is tested without VS Code.
 */

const { objectLabel, parseAdtUri } = require('./uris');

/** After this long without an answer, the progress shows. */
const PROGRESS_DELAY_MS = 1000;

/**
 * @param {unknown} uri a document URI of the server
 * @returns {string}
 */
function named(uri) {
  const parts = typeof uri === 'string' ? parseAdtUri(uri) : undefined;
  return parts
    ? `${objectLabel(parts.path)} on ${decodeURIComponent(parts.authority)}`
    : 'the object';
}

/** @type {Record<string, ((params: Record<string, any>) => string) | undefined>} */
const TITLES = {
  'adt/saveDocument': (params) => `Saving ${named(params.uri)}…`,
  'adt/readDocument': (params) => `Reading ${named(params.uri)}…`,
  'adt/restoreDocument': (params) => `Checking ${named(params.uri)} on the server…`,
  'adt/resolveConflict': (params) => `${named(params.uri)}: ${params.choice ?? 'resolving'}…`,
  'adt/openObject': (params) =>
    `Looking for ${params.name ?? 'the object'}${params.system ? ` on ${params.system}` : ''}…`,
  'adt/searchObjects': (params) =>
    `Searching ${params.query ?? 'objects'}${params.system ? ` on ${params.system}` : ''}…`,
  'adt/objectStructure': (params) => `Reading the sources of ${named(params.uri)}…`,
  'adt/versions': (params) => `Reading the versions of ${named(params.uri)}…`,
  'adt/readVersion': (params) => `Reading a version of ${named(params.uri)}…`,
};

/**
 * @param {string} method
 * @param {unknown} params
 * @returns {string | undefined} undefined: no progress for this request
 */
function requestTitle(method, params) {
  const title = TITLES[method];
  return title && params && typeof params === 'object'
    ? title(/** @type {Record<string, any>} */ (params))
    : undefined;
}

module.exports = { PROGRESS_DELAY_MS, requestTitle };
