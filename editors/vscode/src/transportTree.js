// @ts-check
'use strict';

/**
 * The ABAP Transports view's decisions, without VS Code: the user's open requests (one
 * `adt.transportRequests` per system) as nodes, their tasks and the objects of each, how each
 * shows, which request to reveal for an object, and what the release's checks
 * (`adt.checkRelease`) mean for the user. transportView.js turns these into tree items.
 */

/** The view's id in package.json (contributes.views.explorer). */
const TRANSPORTS_VIEW_ID = 'abapAdt.transports';

/**
 * `adt.transportRequests` and `adt.checkRelease` (docs/lsp-protocol.md).
 * @typedef {{pgmid: string, type: string, name: string, objectUrl?: string,
 *   documentUri?: string}} RequestObject
 * @typedef {{number: string, description: string, owner: string, status: string,
 *   objects: RequestObject[]}} RequestTask
 * @typedef {{number: string, description: string, owner: string, status: string,
 *   tasks: RequestTask[], objects: RequestObject[]}} OpenRequestEntry
 * @typedef {{system: string, requests: OpenRequestEntry[]}} TransportRequestsResult
 * @typedef {{reason: string, message: string, objects?: string[], tasks?: string[]}}
 *   ReleaseFinding
 * @typedef {{number: string, request: string, tasks: string[], objects: string[],
 *   findings: ReleaseFinding[], releasable: boolean}} ReleaseCheckResult
 */

/**
 * @typedef {object} RequestNode
 * @property {'request'} kind
 * @property {string} system
 * @property {string} number
 * @property {string} description
 * @property {string} owner
 * @property {RequestTask[]} tasks
 * @property {RequestObject[]} objects request-level entries
 *
 * @typedef {object} TaskNode
 * @property {'task'} kind
 * @property {string} system
 * @property {string} number
 * @property {string} request
 * @property {string} owner
 * @property {RequestObject[]} objects
 *
 * @typedef {object} ObjectEntryNode
 * @property {'object'} kind
 * @property {string} system
 * @property {string} parent the task (or request) it is recorded in
 * @property {RequestObject} entry
 *
 * @typedef {RequestNode | TaskNode | ObjectEntryNode} TransportNode
 */

/**
 * The view's roots: each system's open requests, newest number last as the server lists them.
 * @param {TransportRequestsResult[]} results one per system
 * @returns {RequestNode[]}
 */
function requestNodes(results) {
  return results.flatMap((result) =>
    result.requests.map((request) => ({
      kind: /** @type {const} */ ('request'),
      system: result.system,
      number: request.number,
      description: request.description,
      owner: request.owner,
      tasks: request.tasks ?? [],
      objects: request.objects ?? [],
    })),
  );
}

/**
 * A node's children: a request's tasks (then its own entries), a task's objects.
 * @param {TransportNode} node
 * @returns {TransportNode[]}
 */
function childNodes(node) {
  /** @param {string} parent @returns {(entry: RequestObject) => ObjectEntryNode} */
  const object = (parent) => (entry) => ({ kind: 'object', system: node.system, parent, entry });
  if (node.kind === 'request') {
    /** @type {TransportNode[]} */
    const tasks = node.tasks.map((task) => ({
      kind: 'task',
      system: node.system,
      number: task.number,
      request: node.number,
      owner: task.owner,
      objects: task.objects ?? [],
    }));
    return [...tasks, ...node.objects.map(object(node.number))];
  }
  if (node.kind === 'task') {
    return node.objects.map(object(node.number));
  }
  return [];
}

/**
 * How a node shows: label, the text beside it, tooltip, codicon, and the context value the
 * menus match on (`request`, `task`, `object`, `sourcelessObject`).
 * @param {TransportNode} node
 * @param {boolean} severalSystems name the system on requests
 * @returns {{label: string, description: string, tooltip: string, icon: string,
 *   contextValue: string}}
 */
function presentation(node, severalSystems = false) {
  if (node.kind === 'request') {
    return {
      label: severalSystems ? `${node.system}: ${node.number}` : node.number,
      description: node.description,
      tooltip: `${node.number} ${node.description} (${node.owner})`,
      icon: 'package',
      contextValue: 'request',
    };
  }
  if (node.kind === 'task') {
    const count = node.objects.length;
    return {
      label: node.number,
      description: `${node.owner} · ${count} object${count === 1 ? '' : 's'}`,
      tooltip: `Task ${node.number} of ${node.request} (${node.owner})`,
      icon: 'checklist',
      contextValue: 'task',
    };
  }
  const { entry } = node;
  return {
    label: entry.name,
    description: `${entry.pgmid} ${entry.type}`,
    tooltip: entry.documentUri
      ? `${entry.type} ${entry.name} in ${node.parent}`
      : `${entry.type} ${entry.name} in ${node.parent} has no source to open in an editor`,
    icon: 'file-code',
    contextValue: entry.documentUri ? 'object' : 'sourcelessObject',
  };
}

/**
 * The request node of `number` (a request's or a task's) on `system`.
 * @param {RequestNode[]} roots
 * @param {string} system
 * @param {string} number
 * @returns {RequestNode | undefined}
 */
function requestOf(roots, system, number) {
  const wanted = number.toUpperCase();
  return roots.find(
    (root) =>
      root.system === system &&
      (root.number === wanted || root.tasks.some((task) => task.number === wanted)),
  );
}

/**
 * What the release's checks mean for the user: refused with every finding, else what the
 * release would release, to be confirmed.
 * @param {ReleaseCheckResult} check
 * @returns {{releasable: boolean, message: string, detail: string}}
 */
function checkVerdict(check) {
  if (!check.releasable) {
    const reasons = check.findings.map((finding) => `• ${finding.message}`);
    return {
      releasable: false,
      message: `${check.number} cannot be released: the transport checks found ${
        check.findings.length === 1 ? 'a problem' : `${check.findings.length} problems`
      }. Nothing was released.`,
      detail: reasons.join('\n'),
    };
  }
  const what =
    check.number === check.request
      ? `request ${check.request}` +
        (check.tasks.length ? ` with its open tasks ${check.tasks.join(', ')}` : '')
      : `task ${check.number} of ${check.request}`;
  const count = check.objects.length;
  return {
    releasable: true,
    message: `The transport checks found nothing. Release ${what}?`,
    detail: count
      ? `${count} object${count === 1 ? '' : 's'}: ${check.objects.join(', ')}`
      : 'It holds no objects.',
  };
}

/**
 * What to say when an object is on no request.
 * @param {{lockedIn: string, required: boolean, local: boolean}} on `adt.objectTransport`
 * @param {string} label
 * @returns {string | undefined} undefined when it is on a request
 */
function notOnRequest(on, label) {
  if (on.lockedIn) {
    return undefined;
  }
  return on.local
    ? `${label} is in a local package: it is on no transport request.`
    : `${label} is on no transport request yet; its next change asks for one.`;
}

module.exports = {
  TRANSPORTS_VIEW_ID,
  checkVerdict,
  childNodes,
  notOnRequest,
  presentation,
  requestNodes,
  requestOf,
};
