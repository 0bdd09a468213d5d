// @ts-check
'use strict';

/**
 * The ABAP Versions view in the Explorer: the versions of the active `adt://` editor's source
 * (`adt/versions`), each with its author, date and transport. It works in every VS Code; the
 * Timeline (versionTimeline.js, the same listing) only where VS Code grants its proposed API.
 * A version opens read-only (`adt/readVersion`) on a click; "Compare with Editor" shows it
 * beside the editor's text. The view follows the active ABAP editor and lists again after a
 * save or an activation. The decisions are in versionTree.js.
 */

const vscode = require('vscode');
const { toEditorUri, toServerUri } = require('./editorUris');
const { READ_VERSION, VERSIONS } = require('./protocol');
const { errorMessage } = require('./results');
const { OPEN_VERSION, presentation, versionNodes, versionTitles } = require('./versionTree');
const { SCHEME, objectLabel } = require('./uris');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./devloop').VersionTexts} VersionTexts */
/** @typedef {import('./versionTree').VersionNode} VersionNode */
/** @typedef {import('./protocol').VersionsResult} VersionsResult */
/** @typedef {import('./protocol').VersionText} VersionText */

/**
 * The versions of an editor's object, newest first (the view's and the Timeline's listing).
 * @param {ServerConnection} connection
 * @param {vscode.Uri} editorUri an `adt://` editor's document
 * @returns {Promise<VersionNode[]>}
 */
async function listVersions(connection, editorUri) {
  const uri = toServerUri(editorUri);
  /** @type {VersionsResult} */
  const result = await connection.request(VERSIONS, { uri });
  return versionNodes(result, uri, objectLabel(editorUri.path));
}

/** @implements {vscode.TreeDataProvider<VersionNode>} */
class VersionTree {
  /**
   * @param {ServerConnection} connection
   * @param {VersionTexts} texts the read-only documents of versions
   */
  constructor(connection, texts) {
    this.connection = connection;
    this.texts = texts;
    /** @type {vscode.EventEmitter<VersionNode | undefined>} */
    this.changed = new vscode.EventEmitter();
    this.onDidChangeTreeData = this.changed.event;
    /** @type {vscode.Uri | undefined} the editor whose versions are shown */
    this.uri = undefined;
    /** @type {vscode.TreeView<VersionNode> | undefined} */
    this.view = undefined;
  }

  /** @param {vscode.TreeView<VersionNode>} view */
  attach(view) {
    this.view = view;
    this.follow(vscode.window.activeTextEditor);
  }

  /**
   * Show the versions of this editor's object (other editors keep the last ABAP object).
   * @param {vscode.TextEditor | undefined} editor
   */
  follow(editor) {
    const uri = editor?.document.uri;
    if (uri?.scheme !== SCHEME || uri.toString() === this.uri?.toString()) {
      return;
    }
    this.uri = uri;
    if (this.view) {
      this.view.description = objectLabel(uri.path);
    }
    this.refresh();
  }

  /**
   * List again when this document's versions changed (saved, activated).
   * @param {string} [serverUri] the document that changed; absent: list again anyway
   */
  refresh(serverUri) {
    if (serverUri === undefined || (this.uri && toServerUri(this.uri) === serverUri)) {
      this.changed.fire(undefined);
    }
  }

  /** @param {VersionNode} node */
  getTreeItem(node) {
    const shown = presentation(node);
    const item = new vscode.TreeItem(shown.label, vscode.TreeItemCollapsibleState.None);
    item.id = `${node.uri}#${node.revision.id}`;
    item.description = shown.description;
    item.tooltip = shown.tooltip;
    item.contextValue = shown.contextValue;
    item.iconPath = new vscode.ThemeIcon(shown.icon);
    item.command = { command: OPEN_VERSION, title: 'Open Version', arguments: [node] };
    return item;
  }

  /** @returns {Promise<VersionNode[]>} */
  async getChildren() {
    if (!this.uri) {
      if (this.view) {
        this.view.message = 'Open an ABAP object to see its versions.';
      }
      return [];
    }
    try {
      const nodes = await listVersions(this.connection, this.uri);
      if (this.view) {
        this.view.message = undefined;
      }
      return nodes;
    } catch (error) {
      if (this.view) {
        this.view.message = `No versions of ${objectLabel(this.uri.path)}: ${errorMessage(error)}`;
      }
      return [];
    }
  }

  /**
   * The version's text as a read-only document.
   * @param {VersionNode} node
   * @returns {Promise<{uri: vscode.Uri, label: string}>}
   */
  async read(node) {
    /** @type {VersionText} */
    const read = await this.connection.request(READ_VERSION, {
      uri: node.uri,
      version: node.revision.id,
    });
    const titles = versionTitles(node, read.label);
    return { uri: this.texts.add(titles.document, read.text), label: read.label };
  }

  /** @param {VersionNode} node */
  async open(node) {
    const { uri } = await this.read(node);
    await vscode.window.showTextDocument(uri, { preview: true });
  }

  /** @param {VersionNode} node */
  async compare(node) {
    const { uri, label } = await this.read(node);
    await vscode.commands.executeCommand(
      'vscode.diff',
      uri,
      toEditorUri(node.uri),
      versionTitles(node, label).diff,
    );
  }
}

module.exports = { VersionTree, listVersions };
