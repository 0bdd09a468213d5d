// @ts-check
'use strict';

/**
 * The ABAP Packages view's decisions, without VS Code: which packages are roots (the user's
 * favourites, else `$TMP`), what a package's children are from `adt/packageContents`, and the
 * favourites kept in the extension's global state. packageView.js turns these nodes into tree
 * items; a package's children are asked for only when it is expanded.
 */

/** @typedef {import('./protocol').PackageContentsResult} PackageContentsResult */

/** The view's id in package.json (contributes.views.explorer). */
const VIEW_ID = 'abapAdt.packages';
/** The key of the favourites in `ExtensionContext.globalState`. */
const FAVOURITES_KEY = 'abapAdt.favouritePackages';
/** The root shown while there are no favourites: every user's local objects. */
const DEFAULT_PACKAGE = '$TMP';
/** Package names as ADT spells them: `$TMP`, `ZDEMO`, `/DMO/FLIGHT`. */
const PACKAGE_NAME = /^(?:\/[A-Z0-9_]+\/)?[$A-Z0-9_]{1,30}$/;

/**
 * @typedef {object} PackageRef
 * @property {string} name upper case
 * @property {string} [system] absent: the default system
 */

/**
 * @typedef {object} PackageNode
 * @property {'package'} kind
 * @property {string} name
 * @property {string} [system]
 * @property {string} description
 * @property {boolean} favourite a root the user added
 *
 * @typedef {object} ObjectNode
 * @property {'object'} kind
 * @property {string} name
 * @property {string} type e.g. `CLAS/OC`
 * @property {string} [system]
 * @property {string} description
 * @property {string} [documentUri] the server's document URI; absent: nothing to open
 *
 * @typedef {PackageNode | ObjectNode} TreeNode
 */

/**
 * The name of a package as typed, or undefined when it cannot be one.
 * @param {string} text
 * @returns {string | undefined}
 */
function packageName(text) {
  const name = text.trim().toUpperCase();
  return PACKAGE_NAME.test(name) ? name : undefined;
}

/**
 * What to say about a typed package name (for an input box's validation).
 * @param {string} text
 * @returns {string | undefined}
 */
function packageNameProblem(text) {
  return packageName(text)
    ? undefined
    : 'A package name: letters, digits, _ and $, up to 30, e.g. $TMP, ZPACKAGE or /NS/ZPACKAGE';
}

/**
 * @param {PackageRef} a
 * @param {PackageRef} b
 */
function samePackage(a, b) {
  return a.name === b.name && (a.system ?? '') === (b.system ?? '');
}

/** The user's favourite packages, kept in a Memento (VS Code's globalState). */
class Favourites {
  /** @param {{get<T>(key: string, fallback: T): T, update(key: string, value: unknown): Thenable<void>}} state */
  constructor(state) {
    this.state = state;
  }

  /** @returns {PackageRef[]} */
  list() {
    const stored = this.state.get(FAVOURITES_KEY, /** @type {unknown[]} */ ([]));
    return (Array.isArray(stored) ? stored : []).flatMap((entry) => {
      const ref = /** @type {Partial<PackageRef>} */ (entry ?? {});
      const name = typeof ref.name === 'string' ? packageName(ref.name) : undefined;
      if (!name) {
        return [];
      }
      return [
        typeof ref.system === 'string' && ref.system ? { name, system: ref.system } : { name },
      ];
    });
  }

  /**
   * @param {PackageRef} ref
   * @returns {Promise<boolean>} false when it was one already
   */
  async add(ref) {
    const list = this.list();
    if (list.some((entry) => samePackage(entry, ref))) {
      return false;
    }
    await this.state.update(FAVOURITES_KEY, [...list, ref]);
    return true;
  }

  /** @param {PackageRef} ref */
  async remove(ref) {
    await this.state.update(
      FAVOURITES_KEY,
      this.list().filter((entry) => !samePackage(entry, ref)),
    );
  }
}

/**
 * The view's roots: the favourites in the order they were added, else `$TMP`.
 * @param {PackageRef[]} favourites
 * @returns {PackageNode[]}
 */
function rootNodes(favourites) {
  if (favourites.length === 0) {
    return [{ kind: 'package', name: DEFAULT_PACKAGE, description: '', favourite: false }];
  }
  return favourites.map((ref) => ({
    kind: 'package',
    name: ref.name,
    ...(ref.system ? { system: ref.system } : {}),
    description: '',
    favourite: true,
  }));
}

/**
 * A package's children as the server listed them: sub-packages first, then the objects.
 * @param {PackageContentsResult} result
 * @param {string} [system] the system the package was asked on (absent: the default)
 * @returns {TreeNode[]}
 */
function childNodes(result, system) {
  const on = system ? { system } : {};
  /** @type {TreeNode[]} */
  const packages = (result.packages ?? []).map((entry) => ({
    kind: 'package',
    name: entry.name,
    ...on,
    description: entry.description ?? '',
    favourite: false,
  }));
  /** @type {TreeNode[]} */
  const objects = (result.objects ?? []).map((entry) => ({
    kind: 'object',
    name: entry.name,
    type: entry.type,
    ...on,
    description: entry.description ?? '',
    ...(entry.documentUri ? { documentUri: entry.documentUri } : {}),
  }));
  return [...packages, ...objects];
}

/**
 * The `adt/packageContents` parameters of a package node.
 * @param {PackageNode} node
 */
function contentsParams(node) {
  return node.system ? { package: node.name, system: node.system } : { package: node.name };
}

/**
 * How a node shows: its label, the text beside it, the context value menus match on
 * (`package`, `favouritePackage`, `object`, `sourcelessObject`) and its codicon.
 * @param {TreeNode} node
 * @returns {{label: string, description: string, contextValue: string, icon: string, tooltip: string}}
 */
function presentation(node) {
  if (node.kind === 'package') {
    const label = node.favourite && node.system ? `${node.system}: ${node.name}` : node.name;
    return {
      label,
      description: node.description,
      contextValue: node.favourite ? 'favouritePackage' : 'package',
      icon: 'package',
      tooltip: node.description ? `${node.name} – ${node.description}` : node.name,
    };
  }
  const main = node.type.split('/')[0];
  return {
    label: node.name,
    description: node.description ? `${node.type} · ${node.description}` : node.type,
    contextValue: node.documentUri ? 'object' : 'sourcelessObject',
    icon: OBJECT_ICONS[main] ?? 'symbol-file',
    tooltip: node.documentUri
      ? `${node.type} ${node.name}`
      : `${node.type} ${node.name} has no source to open in an editor`,
  };
}

/** Codicons by the main part of an ADT object type. */
const OBJECT_ICONS = Object.freeze(
  /** @type {Record<string, string>} */ ({
    CLAS: 'symbol-class',
    INTF: 'symbol-interface',
    PROG: 'file-code',
    FUGR: 'symbol-module',
    DDLS: 'database',
    TABL: 'table',
    BDEF: 'symbol-event',
    SRVD: 'globe',
    DTEL: 'symbol-field',
  }),
);

module.exports = {
  DEFAULT_PACKAGE,
  FAVOURITES_KEY,
  VIEW_ID,
  Favourites,
  childNodes,
  contentsParams,
  packageName,
  packageNameProblem,
  presentation,
  rootNodes,
};
