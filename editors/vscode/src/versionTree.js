// @ts-check
'use strict';

/**
 * The ABAP Versions view's decisions, without VS Code: the versions of the active object's
 * source (`adt/versions`, newest first) as nodes with their author, date and transport, and the
 * titles of a version opened read-only or compared with the editor, and the same versions as
 * items of VS Code's Timeline. versionView.js shows the nodes in a view of its own, which
 * works everywhere; versionTimeline.js gives them to the Timeline, whose provider API is a
 * proposal that VS Code grants only when started with `--enable-proposed-api` (README).
 */

/** @typedef {import('./protocol').Revision} Revision */
/** @typedef {import('./protocol').VersionsResult} VersionsResult */

/** The view's id in package.json (contributes.views.explorer). */
const VERSIONS_VIEW_ID = 'abapAdt.versions';

/** The command a click on a version runs: it opens the version read-only. */
const OPEN_VERSION = 'abapAdt.openVersion';

/** The Timeline's source id of the versions (also its filter's entry). */
const TIMELINE_SOURCE = 'abapAdt.versions';

/** A version's `contextValue` in the Timeline (package.json: `timeline/item/context`). */
const TIMELINE_ITEM = 'abapAdt.version';

/**
 * @typedef {object} VersionNode
 * @property {string} uri the server's document URI whose versions these are
 * @property {string} object its label (`ZCL_X (testclasses)`)
 * @property {Revision} revision
 * @property {'inactive' | 'active' | 'older'} state the unactivated draft, the active
 *   version (the newest other), or an older one
 */

/**
 * A date as the system gives it, shown as `YYYY-MM-DD HH:MM` (UTC) when it is ISO 8601.
 * @param {string | undefined} date
 * @returns {string}
 */
function shownDate(date) {
  const match = /^(\d{4}-\d{2}-\d{2})T(\d{2}:\d{2})/.exec(date ?? '');
  return match ? `${match[1]} ${match[2]}` : (date ?? '');
}

/**
 * @param {VersionsResult} result
 * @param {string} uri
 * @param {string} object
 * @returns {VersionNode[]}
 */
function versionNodes(result, uri, object) {
  const active = result.inactive ? 1 : 0;
  return result.revisions.map((revision, index) => ({
    uri,
    object,
    revision,
    state: index < active ? 'inactive' : index === active ? 'active' : 'older',
  }));
}

/**
 * How a version shows: its label, then author · date · transport.
 * @param {VersionNode} node
 * @returns {{label: string, description: string, tooltip: string, icon: string,
 *   contextValue: string}}
 */
function presentation(node) {
  const { revision } = node;
  const parts = [revision.author, shownDate(revision.date), revision.transport].filter(Boolean);
  return {
    label: revision.label,
    description: parts.join(' · '),
    tooltip: [
      `${node.object}: ${revision.label}`,
      revision.author && `by ${revision.author}`,
      revision.date && `on ${shownDate(revision.date)}`,
      revision.transport && `in transport ${revision.transport}`,
    ]
      .filter(Boolean)
      .join('\n'),
    icon: { inactive: 'edit', active: 'pass', older: 'history' }[node.state],
    contextValue: 'version',
  };
}

/**
 * Titles of a version's read-only document and of its diff with the editor.
 * @param {VersionNode} node
 * @param {string} label what `adt/readVersion` named it
 */
function versionTitles(node, label) {
  const when = shownDate(node.revision.date);
  const read = `${node.object} (${label}${when ? `, ${when}` : ''})`;
  return { document: read, diff: `${node.object}: ${label} ↔ editor` };
}

/**
 * @typedef {object} TimelineEntry a version as VS Code's Timeline shows it
 * @property {string} id unique among the document's versions
 * @property {string} label
 * @property {number} timestamp the version's date (ms); the Timeline shows it and orders by it
 * @property {string} description the author and the transport (the date is the timestamp's)
 * @property {string} tooltip
 * @property {string} icon a codicon name
 * @property {string} contextValue
 * @property {{command: string, title: string, arguments: [VersionNode]}} command on a click
 * @property {VersionNode} node what the commands of the item's context menu take
 */

/**
 * The versions as Timeline items, in the view's words. A version without a readable date
 * stays in its place: it takes `now` when it is the newest, else a moment before the newer
 * version's timestamp (the Timeline orders by timestamp).
 * @param {VersionNode[]} nodes newest first (versionNodes)
 * @param {number} now
 * @returns {TimelineEntry[]}
 */
function timelineEntries(nodes, now) {
  /** @type {number | undefined} */
  let newer;
  return nodes.map((node) => {
    const { revision } = node;
    const dated = Date.parse(revision.date ?? '');
    const timestamp = Number.isNaN(dated) ? (newer === undefined ? now : newer - 1) : dated;
    newer = timestamp;
    const shown = presentation(node);
    return {
      id: `${node.uri}#${revision.id}`,
      label: shown.label,
      timestamp,
      description: [revision.author, revision.transport].filter(Boolean).join(' · '),
      tooltip: shown.tooltip,
      icon: shown.icon,
      contextValue: TIMELINE_ITEM,
      command: { command: OPEN_VERSION, title: 'Open Version', arguments: [node] },
      node,
    };
  });
}

/**
 * The version a command was run on: a node of the view, or a Timeline item (VS Code passes
 * the item the provider gave, which carries its node).
 * @param {VersionNode | {node: VersionNode}} target
 * @returns {VersionNode}
 */
function versionOf(target) {
  return 'node' in target ? target.node : target;
}

module.exports = {
  OPEN_VERSION,
  TIMELINE_ITEM,
  TIMELINE_SOURCE,
  VERSIONS_VIEW_ID,
  presentation,
  shownDate,
  timelineEntries,
  versionNodes,
  versionOf,
  versionTitles,
};
