// @ts-check
'use strict';

/**
 * `adt://SYSTEM/sap/bc/adt/...` document URIs: the server's spelling and the editor's.
 *
 * VS Code's `Uri.parse` percent-decodes the path and `Uri.toString()` encodes `%` again and
 * lower-cases the authority, so `adt://A4H/.../classes/%2fabc%2fcl_x/source/main` would reach
 * the server as `adt://a4h/.../classes//abc/cl_x/source/main`. The server repairs that form,
 * but a path with `//` does not survive path normalisation in the editor. The extension
 * therefore never lets VS Code parse or print these URIs: the server's string is split into
 * authority and path here (path kept percent-encoded, so `%2f` is a literal part of it), the
 * editor's `Uri` is built from those parts, and the string sent back is put together from the
 * same parts.
 *
 * VS Code titles a tab with the last path segment, which would be `main` or
 * `implementations` for every class. The editor's path therefore has one more segment, the
 * object's name (`.../zcl_foo/includes/implementations/ZCL_FOO (implementations)`), which
 * is dropped again on the way back. When more than one system is configured, the segment
 * also names the system (`ZDEMO_REPORT · QAS`): the same object of two systems would
 * otherwise open in two tabs titled alike. The language client's URI converters, the file system
 * provider and the commands all go through editorUris.js, so the server always sees the URI
 * it issued.
 */

const SCHEME = 'adt';
const ADT_URI = /^adt:\/\/([^/?#]+)(\/[^?#]*)$/;
/** A source path: an object's `/source/main`, or a class include `/includes/<type>`. */
const SOURCE_PATH = /\/(?:([^/]+)\/source\/main|classes\/([^/]+)\/includes\/([a-z]+))$/;
/** Looks like `/` in a tab title; a path segment cannot hold `/` itself. */
const NAME_SLASH = '\u2215';
/** Between the object and its system in a tab title. */
const SYSTEM_MARK = ' \u00b7 ';

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
 * A short name for messages and tab titles: `ZDEMO_REPORT`, `/ABC/CL_X (definitions)`,
 * `Z_FM`, `ZDEMO_INCLUDE`. Takes the path of a server URI or of an editor URI; another path
 * is named by its last segment (`ZPKG` for a package).
 * @param {string} path
 * @returns {string}
 */
function objectLabel(path) {
  const match = SOURCE_PATH.exec(serverPath(path));
  if (!match) {
    const last = path.split('/').filter(Boolean).pop();
    return last ? decodeName(last) : path;
  }
  const [, name, className, include] = match;
  return className ? `${decodeName(className)} (${include})` : decodeName(name);
}

/**
 * The editor's path of a server path: the server path plus one segment with the object's
 * name, so that VS Code's tab reads `ZCL_FOO (implementations)` instead of `implementations`
 * (and `ZCL_FOO (implementations) · QAS` with `system`). Paths that are no source paths are
 * kept as they are.
 * @param {string} path a server path
 * @param {string} [system] named in the title too (when several systems are configured)
 * @returns {string}
 */
function editorPath(path, system) {
  if (!SOURCE_PATH.test(path)) {
    return path;
  }
  const title = titleSegment(path);
  return `${path}/${system ? `${title}${SYSTEM_MARK}${system.replaceAll('/', NAME_SLASH)}` : title}`;
}

/**
 * The server's path of an editor path: without the name segment {@link editorPath} added
 * (with or without the system). A path without it (a server path, or one VS Code restored
 * from an older session) is kept.
 * @param {string} path
 * @returns {string}
 */
function serverPath(path) {
  const cut = path.lastIndexOf('/');
  const parent = path.slice(0, cut);
  if (cut <= 0 || !SOURCE_PATH.test(parent)) {
    return path;
  }
  const last = path.slice(cut + 1);
  const title = titleSegment(parent);
  return last === title || last.startsWith(`${title}${SYSTEM_MARK}`) ? parent : path;
}

/**
 * @param {string} path a server source path
 * @returns {string}
 */
function titleSegment(path) {
  return objectLabel(path).replaceAll('/', NAME_SLASH);
}

/**
 * `%2fabc%2fcl_x` → `/ABC/CL_X` (a bad escape is kept).
 * @param {string} segment
 * @returns {string}
 */
function decodeName(segment) {
  try {
    return decodeURIComponent(segment).toUpperCase();
  } catch {
    return segment.toUpperCase();
  }
}

/**
 * System names as the server spells them. VS Code lower-cases the authority of a URI on some
 * of its ways (a document opened by `showTextDocument` reaches the language client as
 * `adt://a4h/...`, one opened from Ctrl+T as `adt://A4H/...`), while the server knows a
 * document by its exact URI. The extension learns every name the server uses and the
 * configured ones, and writes the authority of every URI it sends in that spelling.
 */
class SystemNames {
  /** @type {Map<string, string>} */
  #names = new Map();
  /** Whether more than one system is configured: tab titles then name the system. */
  several = false;

  /**
   * The configured systems (settings): their spelling, and whether there are several.
   * @param {string[]} names
   */
  configure(names) {
    names.forEach((name) => this.learn(name));
    this.several = new Set(names.map((name) => name.toLowerCase())).size > 1;
  }

  /** @param {string} name */
  learn(name) {
    this.#names.set(name.toLowerCase(), name);
  }

  /**
   * @param {string} authority
   * @returns {string} the learnt spelling, else the authority as it is
   */
  spell(authority) {
    return this.#names.get(authority.toLowerCase()) ?? authority;
  }
}

module.exports = {
  SCHEME,
  SystemNames,
  parseAdtUri,
  formatAdtUri,
  objectLabel,
  editorPath,
  serverPath,
};
