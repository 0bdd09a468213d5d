// @ts-check
'use strict';

/**
 * The ABAP Versions view's decisions, without VS Code: the versions of the active object's
 * source (`adt/versions`, newest first) as nodes with their author, date and transport, and the
 * titles of a version opened read-only or compared with the editor. VS Code's own Timeline
 * would show the same, but its provider API is still a proposal that a published extension
 * cannot use (docs in the extension's README); versionView.js shows these nodes instead.
 */

/** @typedef {import('./protocol').Revision} Revision */
/** @typedef {import('./protocol').VersionsResult} VersionsResult */

/** The view's id in package.json (contributes.views.explorer). */
const VERSIONS_VIEW_ID = 'abapAdt.versions';

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

module.exports = { VERSIONS_VIEW_ID, presentation, shownDate, versionNodes, versionTitles };
