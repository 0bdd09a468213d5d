// @ts-check
'use strict';

/**
 * Conversion between the server's `adt://` strings and VS Code `Uri`s, keeping `%2f` and the
 * server's spelling of the authority, and adding or dropping the name segment of tab titles
 * (see uris.js).
 * Also the language client's `uriConverters`.
 */

const vscode = require('vscode');
const {
  SCHEME,
  SystemNames,
  editorPath,
  formatAdtUri,
  parseAdtUri,
  serverPath,
} = require('./uris');

/** The server's spelling of system names (see uris.js); the connection adds the configured. */
const systemNames = new SystemNames();

/**
 * The string the server knows a document by.
 * @param {vscode.Uri} uri
 * @returns {string}
 */
function toServerUri(uri) {
  return uri.scheme === SCHEME
    ? formatAdtUri({ authority: systemNames.spell(uri.authority), path: serverPath(uri.path) })
    : uri.toString();
}

/**
 * The editor's `Uri` of a server string; the path is taken as it is, not decoded.
 * @param {string} value
 * @returns {vscode.Uri}
 */
function toEditorUri(value) {
  const parts = parseAdtUri(value);
  if (parts) {
    systemNames.learn(parts.authority);
  }
  return parts
    ? vscode.Uri.from({
        scheme: SCHEME,
        authority: parts.authority,
        path: editorPath(parts.path, systemNames.several ? parts.authority : undefined),
      })
    : vscode.Uri.parse(value);
}

const uriConverters = Object.freeze({ code2Protocol: toServerUri, protocol2Code: toEditorUri });

module.exports = { toServerUri, toEditorUri, uriConverters, systemNames };
