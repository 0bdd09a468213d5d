// @ts-check
'use strict';

/**
 * Conversion between the server's `adt://` strings and VS Code `Uri`s, keeping `%2f` and the
 * authority's case (see uris.js). Also the language client's `uriConverters`.
 */

const vscode = require('vscode');
const { SCHEME, formatAdtUri, parseAdtUri } = require('./uris');

/**
 * The string the server knows a document by.
 * @param {vscode.Uri} uri
 * @returns {string}
 */
function toServerUri(uri) {
  return uri.scheme === SCHEME ? formatAdtUri(uri) : uri.toString();
}

/**
 * The editor's `Uri` of a server string; the path is taken as it is, not decoded.
 * @param {string} value
 * @returns {vscode.Uri}
 */
function toEditorUri(value) {
  const parts = parseAdtUri(value);
  return parts ? vscode.Uri.from({ scheme: SCHEME, ...parts }) : vscode.Uri.parse(value);
}

const uriConverters = Object.freeze({ code2Protocol: toServerUri, protocol2Code: toEditorUri });

module.exports = { toServerUri, toEditorUri, uriConverters };
