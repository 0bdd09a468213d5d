// @ts-check
'use strict';

/**
 * The ABAP Transports view in the Explorer: the user's open requests of each system
 * (`adt.transportRequests`), their tasks and the objects of each (an object opens as its
 * `adt://` document); releasing a task or a request runs the transport checks first
 * (`adt.checkRelease`) and shows what they found, refusing when they found something; "ABAP:
 * Reveal in Transports" selects the request the open object is on. The decisions are in
 * transportTree.js (tested without VS Code).
 */

const vscode = require('vscode');
const { adtDocument } = require('./commands');
const { toEditorUri, toServerUri } = require('./editorUris');
const {
  CHECK_RELEASE_COMMAND,
  EXECUTE_COMMAND,
  OBJECT_TRANSPORT_COMMAND,
  RELEASE_TRANSPORT_COMMAND,
  TRANSPORT_REQUESTS_COMMAND,
} = require('./protocol');
const { errorMessage } = require('./results');
const {
  checkVerdict,
  childNodes,
  notOnRequest,
  presentation,
  requestNodes,
  requestOf,
} = require('./transportTree');
const { objectLabel } = require('./uris');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./transportTree').TransportNode} TransportNode */
/** @typedef {import('./transportTree').RequestNode} RequestNode */
/** @typedef {import('./transportTree').TransportRequestsResult} TransportRequestsResult */
/** @typedef {import('./transportTree').ReleaseCheckResult} ReleaseCheckResult */

/** @implements {vscode.TreeDataProvider<TransportNode>} */
class TransportTree {
  /** @param {ServerConnection} connection */
  constructor(connection) {
    this.connection = connection;
    /** @type {vscode.EventEmitter<TransportNode | undefined>} */
    this.changed = new vscode.EventEmitter();
    this.onDidChangeTreeData = this.changed.event;
    /** @type {Promise<RequestNode[]> | undefined} the roots as last listed */
    this.roots = undefined;
    /** Children and parents as handed to the view: reveal() needs the same nodes. */
    /** @type {Map<TransportNode, TransportNode[]>} */
    this.children = new Map();
    /** @type {Map<TransportNode, TransportNode>} */
    this.parents = new Map();
    /** @type {vscode.TreeView<TransportNode> | undefined} */
    this.view = undefined;
  }

  /** @param {vscode.TreeView<TransportNode>} view */
  attach(view) {
    this.view = view;
  }

  /** List the requests again. */
  refresh() {
    this.roots = undefined;
    this.children.clear();
    this.parents.clear();
    this.changed.fire(undefined);
  }

  /**
   * @param {TransportNode} node
   * @returns {vscode.TreeItem}
   */
  getTreeItem(node) {
    const shown = presentation(node, this.connection.systems().length > 1);
    const item = new vscode.TreeItem(
      shown.label,
      node.kind === 'object'
        ? vscode.TreeItemCollapsibleState.None
        : node.kind === 'request'
          ? vscode.TreeItemCollapsibleState.Expanded
          : vscode.TreeItemCollapsibleState.Collapsed,
    );
    item.id =
      node.kind === 'object'
        ? `${node.system}/${node.parent}/${node.entry.pgmid}/${node.entry.type}/${node.entry.name}`
        : `${node.system}/${node.number}`;
    item.description = shown.description;
    item.tooltip = shown.tooltip;
    item.contextValue = shown.contextValue;
    item.iconPath = new vscode.ThemeIcon(shown.icon);
    if (node.kind === 'object' && node.entry.documentUri) {
      const uri = toEditorUri(node.entry.documentUri);
      item.resourceUri = uri;
      item.command = { command: 'vscode.open', title: 'Open', arguments: [uri] };
    }
    return item;
  }

  /**
   * @param {TransportNode} [node]
   * @returns {Promise<TransportNode[]>}
   */
  async getChildren(node) {
    if (!node) {
      return this.listRoots();
    }
    const known = this.children.get(node);
    if (known) {
      return known;
    }
    const found = childNodes(node);
    this.children.set(node, found);
    found.forEach((child) => this.parents.set(child, node));
    return found;
  }

  /** @param {TransportNode} node */
  getParent(node) {
    return this.parents.get(node);
  }

  /**
   * The roots, listed once until the next refresh (the view and a reveal share one listing).
   * @returns {Promise<RequestNode[]>}
   */
  listRoots() {
    this.roots ??= this.fetchRoots();
    return this.roots;
  }

  /** @returns {Promise<RequestNode[]>} */
  async fetchRoots() {
    const names = this.connection.systems().map((system) => system.name);
    /** @type {TransportRequestsResult[]} */
    const results = [];
    for (const system of names.length ? names : [undefined]) {
      try {
        results.push(
          await this.connection.request(EXECUTE_COMMAND, {
            command: TRANSPORT_REQUESTS_COMMAND,
            arguments: system ? [system] : [],
          }),
        );
      } catch (error) {
        void vscode.window.showErrorMessage(
          `Cannot list your transport requests${system ? ` of ${system}` : ''}: ${errorMessage(error)}`,
        );
      }
    }
    return requestNodes(results);
  }

  /**
   * Release a task or a request: the checks first; their findings refuse it, else the user
   * confirms what is released.
   * @param {TransportNode} node
   */
  async release(node) {
    if (node.kind === 'object') {
      return;
    }
    /** @type {ReleaseCheckResult} */
    const check = await this.connection.request(EXECUTE_COMMAND, {
      command: CHECK_RELEASE_COMMAND,
      arguments: [node.number, node.system],
    });
    const verdict = checkVerdict(check);
    if (!verdict.releasable) {
      await vscode.window.showErrorMessage(verdict.message, {
        modal: true,
        detail: verdict.detail,
      });
      return;
    }
    const release = 'Release';
    const answer = await vscode.window.showWarningMessage(
      verdict.message,
      { modal: true, detail: verdict.detail },
      release,
    );
    if (answer !== release) {
      return;
    }
    try {
      // the server says what was released (a message)
      await this.connection.request(EXECUTE_COMMAND, {
        command: RELEASE_TRANSPORT_COMMAND,
        arguments: [node.number, node.system],
      });
    } finally {
      this.refresh();
    }
  }

  /**
   * Select the request (and task) the document's object is on.
   * @param {unknown} resource
   */
  async reveal(resource) {
    const document = await adtDocument(resource, 'find its transport request');
    if (!document) {
      return;
    }
    /** @type {{system: string, lockedIn: string, required: boolean, local: boolean}} */
    const on = await this.connection.request(EXECUTE_COMMAND, {
      command: OBJECT_TRANSPORT_COMMAND,
      arguments: [toServerUri(document.uri)],
    });
    const label = objectLabel(document.uri.path);
    const none = notOnRequest(on, label);
    if (none) {
      void vscode.window.showInformationMessage(none);
      return;
    }
    this.refresh();
    const request = requestOf(await this.listRoots(), on.system, on.lockedIn);
    if (!request) {
      void vscode.window.showInformationMessage(
        `${label} is on ${on.lockedIn}, which is not one of your open requests.`,
      );
      return;
    }
    const name = label.split(' ')[0].toUpperCase();
    const tasks = await this.getChildren(request);
    const task = tasks.find(
      (child) =>
        child.kind === 'task' && child.objects.some((entry) => entry.name.toUpperCase() === name),
    );
    const entries = task ? await this.getChildren(task) : [];
    const entry = entries.find(
      (child) => child.kind === 'object' && child.entry.name.toUpperCase() === name,
    );
    await this.view?.reveal(entry ?? task ?? request, { select: true, focus: true, expand: true });
    void vscode.window.showInformationMessage(`${label} is on transport request ${on.lockedIn}.`);
  }
}

module.exports = { TransportTree };
