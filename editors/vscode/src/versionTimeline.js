// @ts-check
'use strict';

/**
 * The versions of an `adt://` document in VS Code's Timeline (Explorer), beside the ABAP
 * Versions view: the same listing (`adt/versions`), each version with its author and
 * transport and its date as the item's time. A click opens the version read-only, and the
 * item's context menu compares it with the editor: the view's commands. The Timeline lists
 * again after a save or an activation of the document, as the view does.
 *
 * `workspace.registerTimelineProvider` is a proposed API: VS Code grants it only to an
 * extension that declares the `timeline` proposal (package.json) and was started with
 * `--enable-proposed-api abap-adt.abap-adt`; otherwise the call throws, the extension says so
 * in its output channel and the versions stay in the view only. The decisions are in
 * versionTree.js.
 */

const vscode = require('vscode');
const { toServerUri } = require('./editorUris');
const { callProposed } = require('./proposedApi');
const { errorMessage } = require('./results');
const { SCHEME, objectLabel } = require('./uris');
const { TIMELINE_SOURCE, timelineEntries } = require('./versionTree');
const { listVersions } = require('./versionView');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./versionTree').TimelineEntry} TimelineEntry */
/** @typedef {import('./versionTree').VersionNode} VersionNode */

/**
 * The shapes of the proposed Timeline API used here (the extension's @types/vscode is the
 * stable API only).
 * @typedef {object} TimelineItem
 * @property {string} id
 * @property {string} label
 * @property {number} timestamp
 * @property {string} description
 * @property {string} tooltip
 * @property {vscode.ThemeIcon} iconPath
 * @property {string} contextValue
 * @property {vscode.Command} command
 * @typedef {{uri?: vscode.Uri, reset?: boolean}} TimelineChangeEvent
 * @typedef {{items: TimelineItem[]}} Timeline
 */

/**
 * A version as a Timeline item. Its node rides along for the commands of the item's context
 * menu (VS Code hands them the provider's own item), not enumerable, so that it is not sent to
 * the window with the item.
 * @param {TimelineEntry} entry
 * @returns {TimelineItem}
 */
function timelineItem(entry) {
  const item = {
    id: entry.id,
    label: entry.label,
    timestamp: entry.timestamp,
    description: entry.description,
    tooltip: entry.tooltip,
    iconPath: new vscode.ThemeIcon(entry.icon),
    contextValue: entry.contextValue,
    command: entry.command,
  };
  return Object.defineProperty(item, 'node', { value: entry.node, enumerable: false });
}

/** The Timeline's source of ABAP versions. */
class VersionTimeline {
  /**
   * @param {ServerConnection} connection
   * @param {{appendLine(value: string): void}} output
   */
  constructor(connection, output) {
    this.id = TIMELINE_SOURCE;
    this.label = 'ABAP Versions';
    this.connection = connection;
    this.output = output;
    /** @type {vscode.EventEmitter<TimelineChangeEvent>} */
    this.changed = new vscode.EventEmitter();
    this.onDidChange = this.changed.event;
    /** @type {Map<string, vscode.Uri>} the editor URIs asked for, by server URI */
    this.asked = new Map();
  }

  /**
   * @param {vscode.Uri} uri the Timeline's document
   * @returns {Promise<Timeline>}
   */
  async provideTimeline(uri) {
    this.asked.set(toServerUri(uri), uri);
    try {
      const nodes = await listVersions(this.connection, uri);
      return { items: timelineEntries(nodes, Date.now()).map(timelineItem) };
    } catch (error) {
      this.output.appendLine(
        `[timeline] no versions of ${objectLabel(uri.path)}: ${errorMessage(error)}`,
      );
      return { items: [] };
    }
  }

  /**
   * List again when a document the Timeline showed was saved or activated.
   * @param {string} serverUri
   */
  refresh(serverUri) {
    const uri = this.asked.get(serverUri);
    if (uri) {
      this.changed.fire({ uri, reset: true });
    }
  }

  dispose() {
    this.changed.dispose();
  }
}

/**
 * Give the versions to the Timeline when VS Code grants the extension its proposed API.
 * @param {VersionTimeline} timeline
 * @param {string} extensionId
 * @param {{appendLine(value: string): void}} output
 * @returns {vscode.Disposable | undefined} the registration, or nothing when refused
 */
function registerVersionTimeline(timeline, extensionId, output) {
  return callProposed(
    vscode.workspace,
    'registerTimelineProvider',
    [SCHEME, timeline],
    ({ reason }) =>
      output.appendLine(
        `[timeline] ABAP versions are shown in the ABAP Versions view only: VS Code refused ` +
          `its Timeline API (${reason}). Start VS Code with --enable-proposed-api ` +
          `${extensionId} to see them in the Timeline too.`,
      ),
  );
}

module.exports = { VersionTimeline, registerVersionTimeline };
