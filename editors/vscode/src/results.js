// @ts-check
'use strict';

/**
 * What the user sees of the server's answers: pure functions from results and errors to
 * messages and decisions, so that they can be tested without VS Code.
 */

const { ADT_FAILURE, INVALID_PARAMS } = require('./protocol');
const { objectLabel } = require('./uris');

/** @typedef {import('./protocol').AdtError} AdtError */
/** @typedef {import('./protocol').SaveResult} SaveResult */
/** @typedef {import('./protocol').SearchHit} SearchHit */
/** @typedef {import('./protocol').ActivationResult} ActivationResult */
/** @typedef {import('./protocol').ObjectStructure} ObjectStructure */
/** @typedef {import('./protocol').RestoreResult} RestoreResult */

/** V2 error codes that mean "there is no such source". */
const NOT_FOUND_CODES = new Set([4007, 4008, 4011, 4018]);
const AUTH_FAILED = 4016;
const NETWORK_ERROR = 4017;
const LOGON_REFUSED =
  'The ABAP system refused the logon: wrong user or password? Nothing more is sent with ' +
  'this password, because repeated failed logons lock the SAP user. Correct it (run ' +
  '"ABAP: Forget Stored Password…" when VS Code keeps it), then restart the language server.';
/** Object URLs and document URIs in a message (ended by blanks, quotes or punctuation). */
const OBJECT_REFERENCE = /(?:adt:\/\/[^/\s'"]+)?(\/sap\/bc\/adt\/[^\s'",;:)]+)/g;

/**
 * @typedef {object} Outcome
 * @property {'info' | 'warning' | 'error'} level
 * @property {string} message
 */

/**
 * How a save ended. `ok: false` makes the file system provider throw, which keeps the editor
 * dirty; the message is what VS Code shows after "Failed to save".
 * @param {SaveResult} result of `adt/saveDocument`
 * @param {string} label the object, e.g. `ZDEMO_REPORT`
 * @returns {{ok: boolean, message: string}}
 */
function saveOutcome(result, label) {
  switch (result.status) {
    case 'saved':
      return {
        ok: true,
        message: `Saved ${label} (${plural(result.hunks ?? 0, 'changed block')}).`,
      };
    case 'unchanged':
      return { ok: true, message: `${label}: nothing to save.` };
    case 'merged': {
      const who = result.rebasedOver?.changedBy;
      const by = typeof who === 'string' && who ? ` by ${who}` : '';
      return { ok: true, message: `Saved ${label}, merged with the change${by} made since.` };
    }
    case 'conflict':
      if (result.conflict?.details?.saved === true) {
        return {
          ok: false,
          message:
            `${label} was saved, merged with the change${changedBy(result.conflict)} made ` +
            'since, but the editor changed meanwhile so the merged text is not shown. Your ' +
            'edits are kept: choose "Merge" (or "Reload theirs") in the question the language ' +
            'server shows, then save again.',
        };
      }
      return {
        ok: false,
        message:
          `Not saved: ${label} was changed on the server${changedBy(result.conflict)} since ` +
          'you opened it. Your edits are kept. Choose "Reload theirs", "Overwrite with mine" ' +
          'or "Merge" in the question the language server shows (or run "ABAP: Resolve Save ' +
          'Conflict"), then save again.',
      };
    case 'error':
      return { ok: false, message: `Not saved: ${adtErrorText(result.error)}` };
    default:
      return { ok: false, message: `Not saved: unexpected answer ${JSON.stringify(result)}` };
  }
}

/**
 * How `adt/resolveConflict` ended. `saveEditor`: the server now holds the editor's text, so
 * saving the editor only clears VS Code's dirty mark (the server answers "unchanged").
 * @param {SaveResult} result
 * @param {string} label
 * @returns {Outcome & {saveEditor: boolean}}
 */
function resolveOutcome(result, label) {
  switch (result.status) {
    case 'reloaded':
      return info(`${label}: the server's version is in the editor.`, true);
    case 'saved':
      return info(`${label}: your version overwrote the server's.`, true);
    case 'merged':
      return info(`${label}: merged with the server's version and saved.`, true);
    case 'unchanged':
      return info(`${label}: your text equals the server's; nothing to write.`, true);
    case 'noConflict':
      return info(`${label}: there is no save conflict to resolve.`, false);
    case 'mergeConflicts': {
      const ranges = (result.conflicts ?? []).map(([start, end]) =>
        start === end ? `${start}` : `${start}-${end}`,
      );
      return {
        level: 'warning',
        message:
          `${label}: merged, but your lines and the server's overlap at ` +
          `${plural(ranges.length, 'place')} (lines ${ranges.join(', ')}). Keep what should ` +
          'stay, delete the conflict markers, then save.',
        saveEditor: false,
      };
    }
    case 'conflict':
      return {
        level: 'warning',
        message:
          `${label} changed on the server again${changedBy(result.conflict)}. Save again, or ` +
          'run "ABAP: Resolve Save Conflict" again, to decide.',
        saveEditor: false,
      };
    case 'error':
      return {
        level: 'error',
        message: `${label}: ${adtErrorText(result.error)}`,
        saveEditor: false,
      };
    default:
      return {
        level: 'error',
        message: `${label}: unexpected answer ${JSON.stringify(result)}`,
        saveEditor: false,
      };
  }
}

/**
 * @param {ActivationResult} result of the `adt.activate` command
 * @param {string} label
 * @returns {Outcome}
 */
function activationOutcome(result, label) {
  const findings = result.findings ?? [];
  const errors = findings.filter((finding) => ['E', 'A', 'X'].includes(finding.severity));
  if (result.activated) {
    const warnings = findings.length - errors.length;
    return warnings
      ? {
          level: 'warning',
          message: `Activated ${label} with ${plural(warnings, 'message')} (see Problems).`,
        }
      : { level: 'info', message: `Activated ${label}.` };
  }
  if (result.reason) {
    return { level: 'warning', message: `${label} was not activated: ${result.reason}` };
  }
  return {
    level: 'error',
    message: `${label} was not activated: ${plural(errors.length, 'error')} (see Problems).`,
  };
}

/**
 * @typedef {object} RpcErrorLike what the language client rejects a request with
 * @property {number} [code]
 * @property {string} [message]
 * @property {unknown} [data]
 */

/**
 * The message of a failed request: the V2 error when there is one.
 * @param {unknown} error
 * @returns {string}
 */
function errorMessage(error) {
  const rpc = /** @type {RpcErrorLike} */ (error ?? {});
  const adt = adtErrorOf(rpc);
  if (adt) {
    return adtErrorText(adt);
  }
  return nameObjects(typeof rpc.message === 'string' && rpc.message ? rpc.message : String(error));
}

/**
 * Whether a request failed because the system refused the logon (wrong user or password).
 * @param {unknown} error
 * @returns {boolean}
 */
function isLogonRefused(error) {
  return adtErrorOf(/** @type {RpcErrorLike} */ (error ?? {}))?.code === AUTH_FAILED;
}

/**
 * Which `FileSystemError` a failed read or save becomes.
 * @param {unknown} error
 * @returns {'notFound' | 'noPermissions' | 'unavailable' | 'other'}
 */
function fileErrorKind(error) {
  const rpc = /** @type {RpcErrorLike} */ (error ?? {});
  if (rpc.code === INVALID_PARAMS) {
    return 'notFound';
  }
  const adt = adtErrorOf(rpc);
  if (!adt) {
    return 'other';
  }
  if (NOT_FOUND_CODES.has(adt.code)) {
    return 'notFound';
  }
  if (adt.code === AUTH_FAILED) {
    return 'noPermissions';
  }
  return adt.code === NETWORK_ERROR ? 'unavailable' : 'other';
}

/**
 * @typedef {object} HitItem a quick-pick item showing a search hit
 * @property {string} label
 * @property {string} description
 * @property {string | undefined} detail
 */

/**
 * Quick-pick items of the hits that have a source to open.
 * @param {SearchHit[]} hits
 * @returns {Array<HitItem & {documentUri: string}>}
 */
function searchItems(hits) {
  return hits.flatMap((hit) =>
    hit.documentUri ? [{ ...hitItem(hit), documentUri: hit.documentUri }] : [],
  );
}

/**
 * What "Open Object" offers when the name was not unique: the candidates with a source
 * (a package has none and could not be opened), or a message when there are none.
 * @param {string} name what the user typed
 * @param {SearchHit[]} candidates of `adt/openObject`
 * @returns {{items: Array<HitItem & {documentUri: string}>, message?: string}}
 */
function candidateChoice(name, candidates) {
  const items = searchItems(candidates);
  if (items.length || !candidates.length) {
    return { items };
  }
  const others = candidates
    .slice(0, 3)
    .map((hit) => `${hit.name} (${hit.type})`)
    .join(', ');
  const more = candidates.length > 3 ? ', …' : '';
  return {
    items,
    message: `No ABAP source is named ${name}; found only objects without a source: ${others}${more}.`,
  };
}

/**
 * Quick-pick items of an object's sources: the main source and the class includes.
 * @param {ObjectStructure} structure
 * @returns {Array<{label: string, description: string, documentUri: string}>}
 */
function includeItems(structure) {
  return structure.includes.map((include) => ({
    label: include.includeType === 'main' ? 'main source' : include.includeType,
    description: include.changedBy ? `last changed by ${include.changedBy}` : '',
    documentUri: include.uri,
  }));
}

/**
 * A search pattern: a query without `*` matches names that start with it.
 * @param {string} query
 * @returns {string}
 */
function searchPattern(query) {
  const trimmed = query.trim();
  return trimmed.includes('*') ? trimmed : `${trimmed}*`;
}

/** The three ways out of a save conflict, in the server's words. */
const CONFLICT_CHOICES = Object.freeze([
  {
    label: 'Reload theirs',
    choice: 'reload',
    detail: "Replace the editor's text with the server's version; your edits are dropped.",
  },
  {
    label: 'Overwrite with mine',
    choice: 'overwrite',
    detail: "Write your text over the server's version (still checked against it).",
  },
  {
    label: 'Merge',
    choice: 'merge',
    detail: 'Apply your changes onto their version; overlapping lines get conflict markers.',
  },
]);

/**
 * Why a write must be refused: the server saves the text it was sent through `didChange`,
 * so the bytes VS Code writes must be that editor's text.
 * @param {string | undefined} editorText the open document's text, undefined when not open
 * @param {Uint8Array} content what VS Code asks to write
 * @returns {string | undefined} the reason, or undefined when the write may go ahead
 */
function writeRefusal(editorText, content) {
  if (editorText === undefined) {
    return 'Only an ABAP source open in an editor can be saved; open it, edit it, then save.';
  }
  if (new TextDecoder('utf-8').decode(content) !== editorText) {
    return (
      "The bytes to write differ from the editor's text (is files.encoding something other " +
      'than utf8?). Nothing was saved.'
    );
  }
  return undefined;
}

/**
 * @param {RpcErrorLike} rpc
 * @returns {AdtError | undefined}
 */
function adtErrorOf(rpc) {
  const data = /** @type {Partial<AdtError> | undefined} */ (rpc.data);
  return rpc.code === ADT_FAILURE && data && typeof data.code === 'number'
    ? /** @type {AdtError} */ (data)
    : undefined;
}

/**
 * @param {{error: string, code: number, name?: string} | undefined} adt
 * @returns {string}
 */
function adtErrorText(adt) {
  if (!adt) {
    return 'the server gave no reason.';
  }
  if (adt.code === AUTH_FAILED) {
    return `${LOGON_REFUSED} (${adt.name ?? 'AUTH_FAILED'} ${adt.code})`;
  }
  const unreachable = adt.code === NETWORK_ERROR ? unreachableText(adt.error) : undefined;
  if (unreachable) {
    return unreachable;
  }
  return `${nameObjects(adt.error)} (${adt.name ?? 'error'} ${adt.code})`;
}

/**
 * A network failure in the user's words: which system could not be reached and what that
 * looked like, instead of `GET /sap/bc/adt/... failed: ConnectError: ...`.
 * @param {string} error the client's message: `<METHOD> <path> on <url> failed: <kind>: ...`
 * @returns {string | undefined} undefined for a message of another form
 */
function unreachableText(error) {
  const match = /\bon (\S+) failed: (\w+)/.exec(error);
  if (!match) {
    return undefined;
  }
  const [, where, kind] = match;
  const what = NETWORK_FAILURES.find(([pattern]) => pattern.test(kind))?.[1];
  return (
    `The ABAP system at ${where} cannot be reached: ${what}. Is it running, and is the URL ` +
    'right? Nothing was changed; try again when it is back.'
  );
}

/** How the HTTP client's failures look to a person, first match wins. */
const NETWORK_FAILURES = /** @type {const} */ ([
  [/^ConnectError$/, 'nothing answers there'],
  [/^ConnectTimeout$/, 'the connection timed out'],
  [/Timeout$/, 'it did not answer in time'],
  [/./, 'the connection broke off'],
]);

/**
 * A message with its object URLs and document URIs replaced by object names:
 * `/sap/bc/adt/programs/programs/zdemo_report` → `ZDEMO_REPORT`.
 * @param {string} text
 * @returns {string}
 */
function nameObjects(text) {
  return text.replace(OBJECT_REFERENCE, (_match, path) => objectLabel(path));
}

/**
 * What to tell after a restarted server took a document's base back (`adt/restoreDocument`):
 * nothing when the source is as the editor read it, else that it changed meanwhile and what
 * the next save does.
 * @param {RestoreResult} result
 * @param {string} label
 * @param {{dirty: boolean}} editor
 * @returns {string | undefined}
 */
function restoreOutcome(result, label, editor) {
  const who = result.changedBy ? ` by ${result.changedBy}` : '';
  switch (result.status) {
    case 'changed':
      return editor.dirty
        ? `${label} was changed on the server${who} since you started editing it. Your ` +
            'unsaved edits are kept; saving asks whether to reload theirs, overwrite or merge.'
        : `${label} was changed on the server${who}; the editor still shows the version ` +
            'before. Revert it ("File: Revert File") to see the current one.';
    case 'baseUnknown':
      return editor.dirty
        ? `${label}: the version your unsaved edits started from is not known any more, and ` +
            'the server has another one now. Saving asks how to combine them; a merge marks ' +
            'every difference.'
        : undefined;
    default:
      return undefined;
  }
}

/** Unexpected ends of the server within this long that stop restarting it. */
const CRASH_WINDOW_MS = 3 * 60 * 1000;
const MAX_CRASHES = 5;

/**
 * Whether to start the server again after it ended unasked (a crash): yes, unless that
 * happened {@link MAX_CRASHES} times within three minutes.
 * @param {number[]} ends the times of earlier ends (updated)
 * @param {number} now
 * @returns {{restart: true} | {restart: false, message: string}}
 */
function restartAfterCrash(ends, now) {
  ends.push(now);
  while (ends.length && now - ends[0] > CRASH_WINDOW_MS) {
    ends.shift();
  }
  if (ends.length < MAX_CRASHES) {
    return { restart: true };
  }
  return {
    restart: false,
    message:
      `The ABAP language server stopped unexpectedly ${ends.length} times within 3 minutes, ` +
      'so it is not started again (see the "ABAP ADT" output). Your unsaved edits stay in the ' +
      'editor; run "ABAP: Restart Language Server" to start it.',
  };
}

/**
 * The warning for `adt/agentEditRefused`: an agent's change to an open document was not
 * written because of its unsaved edits. Undefined for a notification without a message.
 * @param {unknown} params
 * @returns {string | undefined}
 */
function agentRefusalMessage(params) {
  const message = /** @type {{message?: unknown} | null | undefined} */ (params)?.message;
  return typeof message === 'string' && message ? nameObjects(message) : undefined;
}

/**
 * What to tell after checking a newly typed password with a first request to its system.
 * @param {string} system the system's name
 * @param {unknown} error the request's failure, undefined when it worked
 * @returns {{verdict: 'accepted' | 'refused' | 'unknown', message: string}}
 */
function logonOutcome(system, error) {
  if (error === undefined) {
    return { verdict: 'accepted', message: `Logged on to ${system}; the password is stored.` };
  }
  const adt = adtErrorOf(/** @type {RpcErrorLike} */ (error ?? {}));
  if (adt?.code === AUTH_FAILED) {
    return {
      verdict: 'refused',
      message:
        `${system} refused the logon: wrong user or password? The password was not stored. ` +
        'Enter it again?',
    };
  }
  return {
    verdict: 'unknown',
    message:
      `Could not check the logon to ${system}: ${errorMessage(error)} The password is used ` +
      'until the language server restarts, but not stored.',
  };
}

/**
 * @param {AdtError | undefined} conflict
 * @returns {string}
 */
function changedBy(conflict) {
  const who = conflict?.details?.changedBy;
  return typeof who === 'string' && who ? ` by ${who}` : '';
}

/**
 * @param {SearchHit} hit
 * @returns {HitItem}
 */
function hitItem(hit) {
  return {
    label: hit.name,
    description: [hit.type, hit.package].filter(Boolean).join(' · '),
    detail: hit.description || undefined,
  };
}

/**
 * @param {string} message
 * @param {boolean} saveEditor
 * @returns {Outcome & {saveEditor: boolean}}
 */
function info(message, saveEditor) {
  return { level: 'info', message, saveEditor };
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
  CONFLICT_CHOICES,
  agentRefusalMessage,
  restoreOutcome,
  restartAfterCrash,
  saveOutcome,
  resolveOutcome,
  activationOutcome,
  errorMessage,
  fileErrorKind,
  isLogonRefused,
  searchItems,
  candidateChoice,
  includeItems,
  logonOutcome,
  nameObjects,
  searchPattern,
  writeRefusal,
};
