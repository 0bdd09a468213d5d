// @ts-check
'use strict';

/**
 * The development loop's answers as the user sees them (unit tests, ATC, new objects,
 * transports, versions): pure functions, tested without VS Code. The requests and commands
 * are described in docs/lsp-protocol.md.
 */

/** @typedef {import('./protocol').UnitTestResult} UnitTestResult */
/** @typedef {import('./protocol').AtcResult} AtcResult */
/** @typedef {import('./protocol').VersionsResult} VersionsResult */
/** @typedef {import('./protocol').CreateObjectParams} CreateObjectParams */
/** @typedef {import('./results').Outcome} Outcome */

/**
 * @param {UnitTestResult} result
 * @param {string} label
 * @returns {Outcome}
 */
function unitTestOutcome(result, label) {
  const skipped = result.skipped ? `, ${result.skipped} skipped` : '';
  const counts = `${result.passed} passed, ${result.failed} failed${skipped}`;
  if (!result.failed) {
    const none = result.passed === 0 && !result.skipped;
    return none
      ? {
          level: 'warning',
          message: `${label}: no unit tests ran (no test class, or none in the chosen scope).`,
        }
      : { level: 'info', message: `${label}: unit tests ${counts}.` };
  }
  const first = result.failures[0];
  const where = first ? ` First: ${first.testClass}->${first.method}: ${first.message}` : '';
  return { level: 'error', message: `${label}: unit tests ${counts} (see Problems).${where}` };
}

/**
 * @param {AtcResult} result
 * @param {string} label
 * @returns {Outcome}
 */
function atcOutcome(result, label) {
  const findings = result.findings ?? [];
  if (!findings.length) {
    return { level: 'info', message: `${label}: ATC found nothing.` };
  }
  const errors = findings.filter((finding) => finding.priority === 1).length;
  const warnings = findings.filter((finding) => finding.priority === 2).length;
  const others = findings.length - errors - warnings;
  const parts = [
    errors && plural(errors, 'error'),
    warnings && plural(warnings, 'warning'),
    others && plural(others, 'note'),
  ].filter(Boolean);
  return {
    level: errors ? 'error' : warnings ? 'warning' : 'info',
    message: `${label}: ATC found ${parts.join(', ')} (see Problems).`,
  };
}

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
]);

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
    package: input.package.trim().toUpperCase(),
  };
  for (const key of /** @type {const} */ (['system', 'transport', 'functionGroup'])) {
    const value = input[key]?.trim();
    if (value) {
      params[key] = key === 'system' ? value : value.toUpperCase();
    }
  }
  return params;
}

/**
 * Quick-pick items of an object's versions for "Compare with Revision…".
 * @param {VersionsResult} versions
 * @returns {Array<{label: string, description: string, detail?: string, version: string}>}
 */
function versionItems(versions) {
  const items = versions.revisions.map((revision) => ({
    label: revision.label,
    description: [revision.author, revision.date].filter(Boolean).join(' · '),
    detail: revision.transport ? `transport ${revision.transport}` : undefined,
    version: revision.id,
  }));
  const active = {
    label: 'active version',
    description: 'what the system runs',
    version: 'active',
  };
  const inactive = {
    label: 'inactive version',
    description: 'saved, not activated yet',
    version: 'inactive',
  };
  return versions.inactive ? [inactive, active, ...items] : [active, ...items];
}

/**
 * @param {number} count
 * @param {string} noun
 * @returns {string}
 */
function plural(count, noun) {
  return `${count} ${noun}${count === 1 ? '' : 's'}`;
}

module.exports = {
  OBJECT_KINDS,
  unitTestOutcome,
  atcOutcome,
  objectNameProblem,
  createParams,
  versionItems,
};
