// @ts-check
'use strict';

/**
 * The ABAP Packages view in the Explorer: a lazy tree of packages (favourites, else `$TMP`),
 * each listed by `adt/packageContents` when it is first expanded; an object opens as its
 * `adt://` document. The decisions are in packageTree.js (tested without VS Code).
 */

const vscode = require('vscode');
const { toEditorUri } = require('./editorUris');
const {
  Favourites,
  childNodes,
  contentsParams,
  packageName,
  packageNameProblem,
  presentation,
  rootNodes,
  VIEW_ID,
} = require('./packageTree');
const { PACKAGE_CONTENTS } = require('./protocol');
const { errorMessage } = require('./results');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./packageTree').TreeNode} TreeNode */
/** @typedef {import('./packageTree').PackageNode} PackageNode */
/** @typedef {import('./protocol').PackageContentsResult} PackageContentsResult */

/** @implements {vscode.TreeDataProvider<TreeNode>} */
class PackageTree {
  /**
   * @param {ServerConnection} connection
   * @param {vscode.Memento} globalState
   */
  constructor(connection, globalState) {
    this.connection = connection;
    this.favourites = new Favourites(globalState);
    /** @type {vscode.EventEmitter<TreeNode | undefined>} */
    this.changed = new vscode.EventEmitter();
    this.onDidChangeTreeData = this.changed.event;
  }

  /** List everything again (the view asks for the expanded packages anew). */
  refresh() {
    this.changed.fire(undefined);
  }

  /**
   * @param {TreeNode} node
   * @returns {vscode.TreeItem}
   */
  getTreeItem(node) {
    const shown = presentation(node);
    const item = new vscode.TreeItem(
      shown.label,
      node.kind === 'package'
        ? vscode.TreeItemCollapsibleState.Collapsed
        : vscode.TreeItemCollapsibleState.None,
    );
    item.description = shown.description;
    item.tooltip = shown.tooltip;
    item.contextValue = shown.contextValue;
    item.iconPath = new vscode.ThemeIcon(shown.icon);
    if (node.kind === 'object' && node.documentUri) {
      const uri = toEditorUri(node.documentUri);
      item.resourceUri = uri;
      item.command = { command: 'vscode.open', title: 'Open', arguments: [uri] };
    }
    return item;
  }

  /**
   * @param {TreeNode} [node]
   * @returns {Promise<TreeNode[]>}
   */
  async getChildren(node) {
    if (!node) {
      return rootNodes(this.favourites.list());
    }
    if (node.kind !== 'package') {
      return [];
    }
    try {
      /** @type {PackageContentsResult} */
      const result = await this.connection.request(PACKAGE_CONTENTS, contentsParams(node));
      return childNodes(result, node.system);
    } catch (error) {
      void vscode.window.showErrorMessage(
        `Cannot list package ${node.name}: ${errorMessage(error)}`,
      );
      return [];
    }
  }

  /**
   * Ask for a package (and its system when several are configured) and add it as a root.
   * @param {PackageNode} [node] the package the command ran on, if any
   */
  async addFavourite(node) {
    let ref = node && { name: node.name, ...(node.system ? { system: node.system } : {}) };
    if (!ref) {
      const typed = await vscode.window.showInputBox({
        title: 'Add a package to ABAP Packages',
        prompt: 'Package, e.g. $TMP, ZPACKAGE or /NS/ZPACKAGE',
        validateInput: packageNameProblem,
      });
      const name = typed && packageName(typed);
      const systems = this.connection.systems();
      const system =
        name && systems.length > 1
          ? await vscode.window.showQuickPick(
              systems.map((entry) => entry.name),
              { title: `System of ${name}` },
            )
          : undefined;
      if (!name || (systems.length > 1 && !system)) {
        return;
      }
      ref = system ? { name, system } : { name };
    }
    await this.favourites.add(ref);
    this.refresh();
  }

  /** @param {PackageNode} node */
  async removeFavourite(node) {
    await this.favourites.remove({
      name: node.name,
      ...(node.system ? { system: node.system } : {}),
    });
    this.refresh();
  }
}

module.exports = { PackageTree, VIEW_ID };
