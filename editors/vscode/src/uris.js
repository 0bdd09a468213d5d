// @ts-check
'use strict';

/**
 * `adt://SYSTEM/sap/bc/adt/...` document URIs, spelled exactly as the language server spells
 * them.
 *
 * VS Code's `Uri.parse` percent-decodes the path and `Uri.toString()` encodes `%` again and
 * lower-cases the authority, so `adt://A4H/.../classes/%2fabc%2fcl_x/source/main` would reach
 * the server as `adt://a4h/.../classes//abc/cl_x/source/main`. The server repairs that form,
 * but a path with `//` does not survive path normalisation in the editor. The extension
 * therefore never lets VS Code parse or print these URIs: the server's string is split into
 * authority and path here (path kept percent-encoded, so `%2f` is a literal part of it), the
 * editor's `Uri` is built from those parts, and the string sent back is put together from the
 * same parts. The language client's URI converters, the file system provider and the commands
 * all go through these two functions, so the server always sees the URI it issued.
 */

const SCHEME = 'adt';
const ADT_URI = /^adt:\/\/([^/?#]+)(\/[^?#]*)$/;
const SOURCE_SEGMENT = /^(source|includes)$/;

/**
 * @typedef {object} AdtUriParts
 * @property {string} authority the system name, case kept
 * @property {string} path the source URL, still percent-encoded
 */

/**
 * Split a server URI into authority and path, without decoding anything.
 * @param {string} uri
 * @returns {AdtUriParts | undefined} undefined for anything but an `adt://SYSTEM/path` URI
 */
function parseAdtUri(uri) {
  const match = ADT_URI.exec(uri);
  return match ? { authority: match[1], path: match[2] } : undefined;
}

/**
 * The server URI of the parts (a VS Code `Uri` of scheme `adt` is such parts).
 * @param {AdtUriParts} parts
 * @returns {string}
 */
function formatAdtUri(parts) {
  return `${SCHEME}://${parts.authority}${parts.path}`;
}

/**
 * A short name for messages: `ZDEMO_REPORT`, `/ABC/CL_X (definitions)`, `Z_FM`.
 * @param {string} path the path of a document URI
 * @returns {string}
 */
function objectLabel(path) {
  const segments = path.split('/');
  const at = segments.findIndex((segment) => SOURCE_SEGMENT.test(segment));
  if (at < 1) {
    return path;
  }
  const name = safeDecode(segments[at - 1]).toUpperCase();
  const include = segments[at] === 'includes' ? segments[at + 1] : undefined;
  return include ? `${name} (${include})` : name;
}

/**
 * @param {string} segment
 * @returns {string}
 */
function safeDecode(segment) {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

module.exports = { SCHEME, parseAdtUri, formatAdtUri, objectLabel };
