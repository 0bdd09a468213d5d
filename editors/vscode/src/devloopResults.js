// @ts-check
'use strict';

/**
 * The development loop's answers as the user sees them (new objects, transports, versions;
 * the server itself reports unit test and ATC runs): pure functions, tested without VS Code. The requests and commands
 * are described in docs/lsp-protocol.md.
 */

/** @typedef {import('./protocol').VersionsResult} VersionsResult */
/** @typedef {import('./protocol').CreateObjectParams} CreateObjectParams */

/** What "ABAP: New Object…" can create, with ADT's longest names. */
const OBJECT_KINDS = Object.freeze([
  { label: 'Class', objectKind: 'class', maxLength: 30, example: 'ZCL_MY_CLASS' },
  { label: 'Interface', objectKind: 'interface', maxLength: 30, example: 'ZIF_MY_INTERFACE' },
  { label: 'Program', objectKind: 'program', maxLength: 40, example: 'ZMY_REPORT' },
  { label: 'Include', objectKind: 'include', maxLength: 40, example: 'ZMY_INCLUDE' },
  { label: 'Function Group', objectKind: 'functionGroup', maxLength: 26, example: 'ZMY_GROUP' },
  {
    label: 'Function Module',
    objectKind: 'functionModule',
    maxLength: 30,
    example: 'Z_MY_FUNCTION',
  },
  {
    label: 'Data Definition (CDS)',
    objectKind: 'dataDefinition',
    maxLength: 30,
    example: 'ZI_MY_VIEW',
    basedOn: 'Table or CDS view it selects from (its fields become the elements)',
  },
  {
    label: 'Metadata Extension',
    objectKind: 'metadataExtension',
    maxLength: 30,
    example: 'ZC_MY_VIEW',
  },
  {
    label: 'Access Control',
    objectKind: 'accessControl',
    maxLength: 30,
    example: 'ZI_MY_VIEW',
    basedOn: 'CDS entity it protects',
  },
  {
    label: 'Behavior Definition',
    objectKind: 'behaviorDefinition',
    maxLength: 30,
    example: 'ZI_MY_ROOT',
  },
  {
    label: 'Service Definition',
    objectKind: 'serviceDefinition',
    maxLength: 30,
    example: 'ZUI_MY_SERVICE',
    basedOn: 'CDS entity it exposes',
  },
  { label: 'Database Table', objectKind: 'table', maxLength: 16, example: 'ZMY_TABLE' },
  { label: 'Structure', objectKind: 'structure', maxLength: 30, example: 'ZMY_STRUCTURE' },
  { label: 'Table Type', objectKind: 'tableType', maxLength: 30, example: 'ZMY_TABLE_TYPE' },
  { label: 'Data Element', objectKind: 'dataElement', maxLength: 30, example: 'ZMY_ELEMENT' },
  { label: 'Domain', objectKind: 'domain', maxLength: 30, example: 'ZMY_DOMAIN' },
  { label: 'Message Class', objectKind: 'messageClass', maxLength: 20, example: 'ZMY_MESSAGES' },
  {
    label: 'Service Binding',
    objectKind: 'serviceBinding',
    maxLength: 26,
    example: 'ZUI_MY_SERVICE_O2',
    basedOn: 'Service definition it binds',
  },
]);

/**
 * Why a message number is not one (checked as the user types for `adt.setMessage`).
 * @param {string} number
 * @returns {string | undefined}
 */
function messageNumberProblem(number) {
  return /^\d{1,3}$/.test(number.trim()) ? undefined : 'A message number is 000 to 999.';
}

const NAME = /^(\/[A-Z0-9_]+\/)?[A-Z][A-Z0-9_]*$/;

/**
 * Why a name cannot be an object of this kind, or undefined when it can (checked while the
 * user types; the system checks again).
 * @param {string} kind
 * @param {string} name
 * @returns {string | undefined}
 */
function objectNameProblem(kind, name) {
  const spec = OBJECT_KINDS.find((candidate) => candidate.objectKind === kind);
  const upper = name.trim().toUpperCase();
  if (!spec || !upper) {
    return 'Enter a name.';
  }
  if (upper.length > spec.maxLength) {
    return `A ${spec.label.toLowerCase()} name has at most ${spec.maxLength} characters.`;
  }
  if (!NAME.test(upper)) {
    return 'Letters, digits and _, starting with a letter (or a namespace such as /ABC/).';
  }
  return undefined;
}

/**
 * The parameters of `adt.createObject` from what the user entered (names in upper case).
 * @param {Omit<CreateObjectParams, 'name' | 'package'> & {name: string, package: string}} input
 * @returns {CreateObjectParams}
 */
function createParams(input) {
  /** @type {CreateObjectParams} */
  const params = {
    kind: input.kind,
    name: input.name.trim().toUpperCase(),
    description: input.description.trim(),
  };
  if (input.kind !== 'functionModule') {
    params.package = input.package.trim().toUpperCase(); // a module lives in its group's package
  }
  for (const key of /** @type {const} */ (['system', 'transport', 'functionGroup', 'basedOn'])) {
    const value = input[key]?.trim();
    if (value) {
      params[key] = key === 'system' ? value : value.toUpperCase();
    }
  }
  return params;
}

/**
 * Quick-pick items of an object's versions for "Compare with Revision…", as the server lists
 * them: newest first, the inactive version (when there is one) and the active one included.
 * @param {VersionsResult} versions
 * @returns {Array<{label: string, description: string, detail?: string, version: string}>}
 */
function versionItems(versions) {
  return versions.revisions.map((revision) => ({
    label: revision.label,
    description: [revision.author, revision.date].filter(Boolean).join(' · '),
    detail: revision.transport ? `transport ${revision.transport}` : undefined,
    version: revision.id,
  }));
}

/**
 * What `adt.chooseTransport` settled.
 * @param {{transport?: string | null, required?: boolean, lockedIn?: boolean}} chosen
 * @param {string} label
 * @returns {string}
 */
function transportMessage(chosen, label) {
  if (chosen.required === false) {
    return `${label} is in a local package: its changes need no transport request.`;
  }
  if (!chosen.transport) {
    return `${label}: no transport request chosen; the next save asks again.`;
  }
  return chosen.lockedIn
    ? `${label} is recorded in ${chosen.transport}: its changes go there.`
    : `${label}: changes go to ${chosen.transport} in this session.`;
}

module.exports = {
  messageNumberProblem,
  OBJECT_KINDS,
  objectNameProblem,
  createParams,
  versionItems,
  transportMessage,
};
