// @ts-check
'use strict';

/**
 * Names and result shapes of the language server's protocol extension
 * (docs/lsp-protocol.md). Only types and constants: no behaviour.
 */

const READ_DOCUMENT = 'adt/readDocument';
const SAVE_DOCUMENT = 'adt/saveDocument';
const RESOLVE_CONFLICT = 'adt/resolveConflict';
/** After didOpen in a newly started server (and after a revert): the document's base. */
const RESTORE_DOCUMENT = 'adt/restoreDocument';
const OPEN_OBJECT = 'adt/openObject';
const OBJECT_STRUCTURE = 'adt/objectStructure';
const SEARCH_OBJECTS = 'adt/searchObjects';
const PACKAGE_CONTENTS = 'adt/packageContents';
const DOCUMENT_STATE = 'adt/documentState';
/** Notification: the server version a document is based on changed, or was activated. */
const BASE_VERSION = 'adt/baseVersion';
/** Notification: an agent's write to an open document was refused for its unsaved edits. */
const AGENT_EDIT_REFUSED = 'adt/agentEditRefused';
const EXECUTE_COMMAND = 'workspace/executeCommand';
const WORKSPACE_SYMBOL = 'workspace/symbol';
const DID_CHANGE_CONFIGURATION = 'workspace/didChangeConfiguration';
const ACTIVATE_COMMAND = 'adt.activate';
const RUN_UNIT_TESTS_COMMAND = 'adt.runUnitTests';
const RUN_PACKAGE_TESTS_COMMAND = 'adt.runPackageTests';
const TRANSPORT_REQUESTS_COMMAND = 'adt.transportRequests';
const CHECK_RELEASE_COMMAND = 'adt.checkRelease';
const RELEASE_TRANSPORT_COMMAND = 'adt.releaseTransport';
const OBJECT_TRANSPORT_COMMAND = 'adt.objectTransport';
const RUN_ATC_COMMAND = 'adt.runAtc';
const CREATE_OBJECT_COMMAND = 'adt.createObject';
const CHOOSE_TRANSPORT_COMMAND = 'adt.chooseTransport';
const SET_MESSAGE_COMMAND = 'adt.setMessage';
const PUBLISH_COMMAND = 'adt.publishServiceBinding';
const VERSIONS = 'adt/versions';
const READ_VERSION = 'adt/readVersion';

/** JSON-RPC error code of an ABAP/ADT failure; its `data` is an {@link AdtError}. */
const ADT_FAILURE = -32001;
/** JSON-RPC error code of bad parameters (for example a URI that names no source). */
const INVALID_PARAMS = -32602;

/**
 * The V2 error object (docs/source-operations.md).
 * @typedef {object} AdtError
 * @property {string} error the message
 * @property {number} code 4000-4018
 * @property {string} name e.g. `VERSION_CONFLICT`
 * @property {Record<string, unknown>} [details]
 * @property {boolean} [retry]
 * @property {string | null} [retryAction]
 */

/**
 * @typedef {object} ReadDocumentResult
 * @property {string} uri
 * @property {string} text
 * @property {string} token
 * @property {number} lineCount
 * @property {number | null} changedAt milliseconds since the epoch
 * @property {string | null} changedBy
 * @property {string} objectUrl
 * @property {string} sourceUrl
 * @property {string} objectType
 * @property {string | null} includeType
 * @property {string} system
 */

/**
 * `adt/saveDocument`, and also `adt/resolveConflict`, which adds `reloaded`, `merged`,
 * `mergeConflicts` and `noConflict`.
 * @typedef {object} SaveResult
 * @property {'saved' | 'unchanged' | 'conflict' | 'error' | 'reloaded' | 'merged'
 *   | 'mergeConflicts' | 'noConflict'} status
 * @property {string} [uri]
 * @property {string} [token]
 * @property {number} [lineCount]
 * @property {number} [hunks]
 * @property {number | null} [changedAt]
 * @property {AdtError} [conflict] with `status: 'conflict'`
 * @property {AdtError | {error: string, code: number}} [error] with `status: 'error'`
 * @property {Array<[number, number]>} [conflicts] with `status: 'mergeConflicts'`
 * @property {{changedBy?: string | null}} [rebasedOver] with `status: 'merged'` from a save
 *   (`mergeOnSave: auto`): who changed the source since the document's base
 */

/**
 * `adt/restoreDocument`: whether the server's version is still the document's base.
 * @typedef {object} RestoreResult
 * @property {string} uri
 * @property {'current' | 'changed' | 'baseUnknown'} status
 * @property {string} token the server's current version
 * @property {string | null} [changedBy]
 * @property {number | null} [changedAt]
 */

/**
 * One hit of `adt/searchObjects` (and a candidate of `adt/openObject`).
 * @typedef {object} SearchHit
 * @property {string} uri the object URL
 * @property {string} type e.g. `CLAS/OC`
 * @property {string} name
 * @property {string} [package]
 * @property {string} [description]
 * @property {string} [documentUri] present for objects with a source
 */

/**
 * @typedef {{found: true, name: string, type: string, objectUrl: string, uri: string}
 *   | {found: false, candidates: SearchHit[], message: string}} OpenObjectResult
 */

/**
 * `adt/objectStructure` (the fields used here).
 * @typedef {object} ObjectStructure
 * @property {string} name
 * @property {string} type
 * @property {string} uri the main source's document URI
 * @property {Array<{includeType: string, uri: string, changedBy?: string | null}>} includes
 */

/**
 * @typedef {object} Finding
 * @property {string} severity `E`, `W`, `I`, `A` or `X`
 * @property {string} text
 * @property {number} [line]
 */

/**
 * @typedef {object} ActivationResult
 * @property {boolean} activated
 * @property {string} [reason] why nothing was tried (unsaved changes)
 * @property {Finding[]} [findings]
 * @property {Array<{name: string, type: string, objectUrl: string}>} [inactiveDependencies]
 *   refused: the inactive objects it builds on, dependencies first
 */

/**
 * `adt.runUnitTests` (docs/lsp-protocol.md): failures are also published as diagnostics.
 * @typedef {object} UnitTestResult
 * @property {string} uri
 * @property {string} objectUrl
 * @property {number} tests
 * @property {number} passed
 * @property {number} failed
 * @property {string[]} [notes]
 * @property {Array<{testClass: string, method: string, message: string, uri?: string,
 *   line?: number}>} failures
 */

/**
 * `adt.runAtc`: findings are also published as diagnostics (source `atc`).
 * @typedef {object} AtcResult
 * @property {string} uri
 * @property {string} objectUrl
 * @property {string} [variant]
 * @property {Array<{priority: number, check: string, message: string, line?: number}>} findings
 * @property {Record<string, number>} counts
 * @property {string[]} [notes]
 */

/**
 * `adt.createObject` parameters and result.
 * @typedef {object} CreateObjectParams
 * @property {string} [system]
 * @property {'class' | 'interface' | 'program' | 'include' | 'functionGroup'
 *   | 'functionModule' | 'dataDefinition' | 'metadataExtension' | 'accessControl'
 *   | 'behaviorDefinition' | 'serviceDefinition' | 'table' | 'structure' | 'dataElement'
 *   | 'domain' | 'tableType' | 'messageClass' | 'serviceBinding'} kind
 * @property {string} name
 * @property {string} description
 * @property {string} [package] not for a function module (it lives in its group's package)
 * @property {string} [transport]
 * @property {string} [functionGroup] for a function module
 * @property {string} [basedOn] what the template builds on: a view's data source, the entity
 *   a service definition exposes or an access control protects
 */

/**
 * @typedef {{uri: string, objectUrl: string, name: string, kind: string, system: string,
 *   transport?: string}} CreateObjectResult
 */

/**
 * `adt/packageContents`: a package's direct children.
 * @typedef {{name: string, description?: string}} PackageEntry
 * @typedef {{name: string, type: string, description?: string, uri: string,
 *   documentUri?: string}} PackageObject
 * @typedef {{package: string, system: string, packages: PackageEntry[],
 *   objects: PackageObject[]}} PackageContentsResult
 */

/**
 * `adt/versions` and `adt/readVersion`.
 * @typedef {{id: string, label: string, author?: string, date?: string,
 *   transport?: string}} Revision
 * @typedef {{inactive: boolean, revisions: Revision[]}} VersionsResult
 * @typedef {{text: string, label: string}} VersionText
 */

/** The settings the running server takes over through `workspace/didChangeConfiguration`.
 * @typedef {object} LiveSettings
 * @property {'onSave' | 'onEdit'} lockMode
 * @property {number} pollInterval
 * @property {number} checkDelay
 * @property {'ask' | 'auto'} mergeOnSave
 */

module.exports = {
  READ_DOCUMENT,
  SAVE_DOCUMENT,
  RESOLVE_CONFLICT,
  RESTORE_DOCUMENT,
  OPEN_OBJECT,
  OBJECT_STRUCTURE,
  SEARCH_OBJECTS,
  PACKAGE_CONTENTS,
  DOCUMENT_STATE,
  BASE_VERSION,
  AGENT_EDIT_REFUSED,
  EXECUTE_COMMAND,
  WORKSPACE_SYMBOL,
  DID_CHANGE_CONFIGURATION,
  ACTIVATE_COMMAND,
  RUN_UNIT_TESTS_COMMAND,
  RUN_PACKAGE_TESTS_COMMAND,
  TRANSPORT_REQUESTS_COMMAND,
  CHECK_RELEASE_COMMAND,
  RELEASE_TRANSPORT_COMMAND,
  OBJECT_TRANSPORT_COMMAND,
  RUN_ATC_COMMAND,
  CREATE_OBJECT_COMMAND,
  CHOOSE_TRANSPORT_COMMAND,
  SET_MESSAGE_COMMAND,
  PUBLISH_COMMAND,
  VERSIONS,
  READ_VERSION,
  ADT_FAILURE,
  INVALID_PARAMS,
};
