// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const {
  CONFLICT_CHOICES,
  activationOutcome,
  agentRefusalMessage,
  restoreOutcome,
  restartAfterCrash,
  candidateChoice,
  errorMessage,
  fileErrorKind,
  includeItems,
  logonOutcome,
  nameObjects,
  resolveOutcome,
  saveOutcome,
  searchItems,
  searchPattern,
  writeRefusal,
} = require('../src/results');

/** @typedef {import('../src/protocol').SaveResult} SaveResult */

const CONFLICT = {
  error: 'changed since the token was issued',
  code: 4003,
  name: 'VERSION_CONFLICT',
  details: { expectedToken: 'a', currentToken: 'b', changedBy: 'COLLEAGUE' },
};
const LOCKED = { error: 'ZDEMO is locked by OTHER', code: 4009, name: 'OBJECT_LOCKED' };

describe('saveOutcome', () => {
  it('accepts saved and unchanged', () => {
    assert.deepEqual(saveOutcome({ status: 'saved', hunks: 2, token: 't' }, 'ZDEMO'), {
      ok: true,
      message: 'Saved ZDEMO (2 changed blocks).',
    });
    assert.equal(saveOutcome({ status: 'unchanged', token: 't' }, 'ZDEMO').ok, true);
  });

  it('accepts a save merged over a colleague (mergeOnSave: auto), naming them', () => {
    const merged = { status: 'merged', token: 't', rebasedOver: { changedBy: 'COLLEAGUE' } };
    assert.deepEqual(saveOutcome(/** @type {any} */ (merged), 'ZDEMO'), {
      ok: true,
      message: 'Saved ZDEMO, merged with the change by COLLEAGUE made since.',
    });
  });

  it('refuses a conflict, naming who changed it and how to go on', () => {
    const outcome = saveOutcome({ status: 'conflict', conflict: CONFLICT }, 'ZDEMO');
    assert.equal(outcome.ok, false);
    assert.match(outcome.message, /^Not saved: ZDEMO was changed on the server by COLLEAGUE/);
    assert.match(outcome.message, /Your edits are kept/);
    for (const choice of CONFLICT_CHOICES) {
      assert.ok(outcome.message.includes(`"${choice.label}"`), choice.label);
    }
  });

  it('says a merged save the editor could not show was saved', () => {
    const conflict = { ...CONFLICT, details: { ...CONFLICT.details, saved: true } };
    const outcome = saveOutcome({ status: 'conflict', conflict }, 'ZDEMO');
    assert.equal(outcome.ok, false);
    assert.match(outcome.message, /^ZDEMO was saved, merged with the change by COLLEAGUE/);
  });

  it('refuses an error with the V2 message', () => {
    assert.deepEqual(saveOutcome({ status: 'error', error: LOCKED }, 'ZDEMO'), {
      ok: false,
      message: 'Not saved: ZDEMO is locked by OTHER (OBJECT_LOCKED 4009)',
    });
  });

  it('refuses anything it does not know', () => {
    const outcome = saveOutcome(
      /** @type {SaveResult} */ (/** @type {unknown} */ ({ status: 'later' })),
      'ZDEMO',
    );
    assert.equal(outcome.ok, false);
    assert.match(outcome.message, /unexpected answer/);
  });
});

describe('resolveOutcome', () => {
  it('saves the editor after reload, overwrite, merge and unchanged', () => {
    for (const status of /** @type {const} */ (['reloaded', 'saved', 'merged', 'unchanged'])) {
      const outcome = resolveOutcome({ status, token: 't' }, 'ZDEMO');
      assert.equal(outcome.level, 'info', status);
      assert.equal(outcome.saveEditor, true, status);
    }
  });

  it('never saves conflict markers', () => {
    const outcome = resolveOutcome(
      {
        status: 'mergeConflicts',
        conflicts: [
          [5, 9],
          [12, 12],
        ],
      },
      'ZDEMO',
    );
    assert.equal(outcome.level, 'warning');
    assert.equal(outcome.saveEditor, false);
    assert.match(outcome.message, /2 places \(lines 5-9, 12\)/);
  });

  it('does not save when there was nothing to resolve or it failed again', () => {
    assert.equal(resolveOutcome({ status: 'noConflict' }, 'ZDEMO').saveEditor, false);
    const again = resolveOutcome({ status: 'conflict', conflict: CONFLICT }, 'ZDEMO');
    assert.equal(again.saveEditor, false);
    assert.match(again.message, /again by COLLEAGUE/);
    const failed = resolveOutcome(
      { status: 'error', error: { error: 'the editor did not apply the merge', code: 4015 } },
      'ZDEMO',
    );
    assert.deepEqual(failed, {
      level: 'error',
      message: 'ZDEMO: the editor did not apply the merge (error 4015)',
      saveEditor: false,
    });
  });
});

describe('activationOutcome', () => {
  it('reports success, with or without warnings', () => {
    assert.deepEqual(activationOutcome({ activated: true, findings: [] }, 'ZDEMO'), {
      level: 'info',
      message: 'Activated ZDEMO.',
    });
    const warned = activationOutcome(
      { activated: true, findings: [{ severity: 'W', text: 'unused', line: 3 }] },
      'ZDEMO',
    );
    assert.equal(warned.level, 'warning');
    assert.match(warned.message, /1 message/);
  });

  it('passes the reason of a refusal on', () => {
    const outcome = activationOutcome(
      { activated: false, reason: 'unsaved changes in adt://...: save first' },
      'ZDEMO',
    );
    assert.equal(outcome.level, 'warning');
    assert.match(outcome.message, /save first$/);
  });

  it('counts the errors of a failed activation', () => {
    const outcome = activationOutcome(
      {
        activated: false,
        findings: [
          { severity: 'E', text: 'syntax' },
          { severity: 'W', text: 'unused' },
          { severity: 'A', text: 'abort' },
        ],
      },
      'ZDEMO',
    );
    assert.deepEqual(outcome, {
      level: 'error',
      message: 'ZDEMO was not activated: 2 errors (see Problems).',
    });
  });
});

describe('errorMessage and fileErrorKind', () => {
  /**
   * @param {number} code
   * @param {string} message
   * @param {unknown} [data]
   */
  const rpc = (code, message, data) => Object.assign(new Error(message), { code, data });

  it('prefers the V2 error of an ADT failure', () => {
    const error = rpc(-32001, 'ignored', LOCKED);
    assert.equal(errorMessage(error), 'ZDEMO is locked by OTHER (OBJECT_LOCKED 4009)');
    assert.equal(fileErrorKind(error), 'other');
  });

  it('maps missing objects, bad URIs, logon and network failures', () => {
    const missing = rpc(-32001, 'x', {
      error: 'no such object',
      code: 4011,
      name: 'OBJECT_NOT_FOUND',
    });
    assert.equal(fileErrorKind(missing), 'notFound');
    assert.equal(
      fileErrorKind(rpc(-32602, "'adt://A4H/x' is not an adt://SYSTEM/sap/bc/adt/... URI")),
      'notFound',
    );
    const auth = rpc(-32001, 'x', {
      error: 'logon failed earlier with these credentials; ... create a new client.',
      code: 4016,
      name: 'AUTH_FAILED',
    });
    assert.equal(fileErrorKind(auth), 'noPermissions');
    const message = errorMessage(auth);
    assert.match(message, /^The ABAP system refused the logon: wrong user or password\?/);
    assert.match(message, /"ABAP: Forget Stored Password…".*restart the language server/);
    assert.match(message, /\(AUTH_FAILED 4016\)$/);
    assert.doesNotMatch(message, /new client/);
    const network = rpc(-32001, 'x', { error: 'unreachable', code: 4017, name: 'NETWORK_ERROR' });
    assert.equal(fileErrorKind(network), 'unavailable');
  });

  it('names objects instead of showing their URLs', () => {
    const locked = rpc(-32001, 'x', {
      error: 'Could not lock /sap/bc/adt/programs/programs/zdemo_report: locked by OTHER',
      code: 4009,
      name: 'OBJECT_LOCKED',
    });
    assert.equal(
      errorMessage(locked),
      'Could not lock ZDEMO_REPORT: locked by OTHER (OBJECT_LOCKED 4009)',
    );
    assert.equal(
      nameObjects(
        "'adt://A4H/sap/bc/adt/oo/classes/%2fabc%2fcl_x/includes/definitions' is not open",
      ),
      "'/ABC/CL_X (definitions)' is not open",
    );
    assert.equal(nameObjects('nothing to name here'), 'nothing to name here');
  });

  it('falls back to the message of any other error', () => {
    const error = new Error('Could not start the ABAP language server');
    assert.equal(errorMessage(error), 'Could not start the ABAP language server');
    assert.equal(fileErrorKind(error), 'other');
    assert.equal(errorMessage(rpc(-32603, 'internal')), 'internal');
    assert.equal(errorMessage('plain'), 'plain');
  });
});

describe('quick-pick items', () => {
  const hits = [
    {
      uri: '/sap/bc/adt/oo/classes/zcl_x',
      type: 'CLAS/OC',
      name: 'ZCL_X',
      package: '$TMP',
      description: 'Demo',
      documentUri: 'adt://A4H/sap/bc/adt/oo/classes/zcl_x/source/main',
    },
    { uri: '/sap/bc/adt/ddic/tables/ztab', type: 'TABL/DT', name: 'ZTAB', description: '' },
  ];

  it('offers only objects with a source for opening', () => {
    assert.deepEqual(searchItems(hits), [
      {
        label: 'ZCL_X',
        description: 'CLAS/OC · $TMP',
        detail: 'Demo',
        documentUri: 'adt://A4H/sap/bc/adt/oo/classes/zcl_x/source/main',
      },
    ]);
  });

  it('offers the candidates of openObject that have a source', () => {
    const choice = candidateChoice('ZCL', hits);
    assert.deepEqual(
      choice.items.map((item) => item.documentUri),
      ['adt://A4H/sap/bc/adt/oo/classes/zcl_x/source/main'],
    );
    assert.equal(choice.message, undefined);
  });

  it('says so when every candidate lacks a source (a package, a table)', () => {
    const pkg = { uri: '/sap/bc/adt/packages/zpkg', type: 'DEVC/K', name: 'ZPKG' };
    const choice = candidateChoice('ZPKG', [pkg, hits[1]]);
    assert.deepEqual(choice.items, []);
    assert.equal(
      choice.message,
      'No ABAP source is named ZPKG; found only objects without a source: ZPKG (DEVC/K), ' +
        'ZTAB (TABL/DT).',
    );
    assert.deepEqual(candidateChoice('ZNONE', []), { items: [] });
  });

  it('lists the sources of an object with who changed them last', () => {
    const base = 'adt://A4H/sap/bc/adt/oo/classes/zcl_x';
    const items = includeItems({
      name: 'ZCL_X',
      type: 'CLAS/OC',
      uri: `${base}/source/main`,
      includes: [
        { includeType: 'main', uri: `${base}/source/main`, changedBy: 'ME' },
        { includeType: 'testclasses', uri: `${base}/includes/testclasses`, changedBy: null },
      ],
    });
    assert.deepEqual(items, [
      {
        label: 'main source',
        description: 'last changed by ME',
        documentUri: `${base}/source/main`,
      },
      { label: 'testclasses', description: '', documentUri: `${base}/includes/testclasses` },
    ]);
  });

  it('searches by prefix unless the query has a wildcard', () => {
    assert.equal(searchPattern(' zcl_demo '), 'zcl_demo*');
    assert.equal(searchPattern('z*demo'), 'z*demo');
  });

  it('names the three conflict choices as the server does', () => {
    assert.deepEqual(
      CONFLICT_CHOICES.map(({ label, choice }) => [label, choice]),
      [
        ['Reload theirs', 'reload'],
        ['Overwrite with mine', 'overwrite'],
        ['Merge', 'merge'],
      ],
    );
  });
});

describe('writeRefusal', () => {
  const encode = (/** @type {string} */ text) => new TextEncoder().encode(text);

  it('lets the editor text through, also with non-ASCII characters', () => {
    const text = "REPORT zdemo.\nWRITE 'Grüße €'.";
    assert.equal(writeRefusal(text, encode(text)), undefined);
  });

  it('refuses documents that are not open and bytes that differ', () => {
    assert.match(writeRefusal(undefined, encode('x')) ?? '', /open in an editor/);
    assert.match(writeRefusal('REPORT z.', encode('REPORT y.')) ?? '', /differ/);
    const withBom = new Uint8Array([0xef, 0xbb, 0xbf, ...encode('REPORT z.')]);
    assert.equal(writeRefusal('REPORT z.', withBom), undefined);
  });
});

describe('logonOutcome', () => {
  /**
   * @param {number} code
   * @param {string} name
   */
  const adt = (code, name) =>
    Object.assign(new Error('x'), { code: -32001, data: { error: 'logon failed', code, name } });

  it('stores a password the system accepted', () => {
    assert.equal(logonOutcome('A4H', undefined).verdict, 'accepted');
  });

  it('offers to type a refused password again, saying it was not stored', () => {
    const outcome = logonOutcome('A4H', adt(4016, 'AUTH_FAILED'));
    assert.equal(outcome.verdict, 'refused');
    assert.equal(
      outcome.message,
      'A4H refused the logon: wrong user or password? The password was not stored. Enter it again?',
    );
  });

  it('keeps an unchecked password for the session only', () => {
    const outcome = logonOutcome('A4H', adt(4017, 'NETWORK_ERROR'));
    assert.equal(outcome.verdict, 'unknown');
    assert.match(
      outcome.message,
      /^Could not check the logon to A4H: logon failed \(NETWORK_ERROR 4017\)/,
    );
    assert.match(outcome.message, /not stored\.$/);
  });
});

describe('agentRefusalMessage', () => {
  it("names the object of the server's adt/agentEditRefused", () => {
    const uri = 'adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main';
    assert.equal(
      agentRefusalMessage({
        uri,
        message: `An agent's change to ${uri} was not written: it changes lines you are editing.`,
      }),
      "An agent's change to ZDEMO_REPORT was not written: it changes lines you are editing.",
    );
    assert.equal(agentRefusalMessage({ uri }), undefined);
    assert.equal(agentRefusalMessage(null), undefined);
  });
});

describe('restoreOutcome', () => {
  const changed = { uri: 'u', status: 'changed', token: 't', changedBy: 'COLLEAGUE' };
  it('says nothing when the source is as the editor read it', () => {
    const current = /** @type {const} */ ({ uri: 'u', status: 'current', token: 't' });
    assert.equal(restoreOutcome(current, 'ZDEMO', { dirty: true }), undefined);
  });
  it('tells who changed it meanwhile and what the save does', () => {
    const message = restoreOutcome(/** @type {any} */ (changed), 'ZDEMO', { dirty: true });
    assert.match(message ?? '', /^ZDEMO was changed on the server by COLLEAGUE since you/);
    assert.match(message ?? '', /unsaved edits are kept; saving asks/);
    const clean = restoreOutcome(/** @type {any} */ (changed), 'ZDEMO', { dirty: false });
    assert.match(clean ?? '', /Revert File/);
  });
  it('warns when the base is not known any more', () => {
    const unknown = { uri: 'u', status: 'baseUnknown', token: 't' };
    assert.match(
      restoreOutcome(/** @type {any} */ (unknown), 'ZDEMO', { dirty: true }) ?? '',
      /a merge marks every difference/,
    );
  });
});

describe('a system that cannot be reached', () => {
  it("is said in the user's words, not as the HTTP client's error", () => {
    const error = {
      code: -32001,
      message: 'x',
      data: {
        error:
          'GET /sap/bc/adt/repository/informationsystem/search on http://127.0.0.1:5000 ' +
          'failed: ConnectError: All connection attempts failed',
        code: 4017,
        name: 'NETWORK_ERROR',
      },
    };
    const message = errorMessage(error);
    assert.equal(
      message,
      'The ABAP system at http://127.0.0.1:5000 cannot be reached: nothing answers there. Is ' +
        'it running, and is the URL right? Nothing was changed; try again when it is back.',
    );
    assert.doesNotMatch(message, /GET|ConnectError|informationsystem/);
    const slow = {
      ...error,
      data: { ...error.data, error: 'PUT /x on https://sap:443 failed: ReadTimeout: ' },
    };
    assert.match(
      errorMessage(slow),
      /at https:\/\/sap:443 cannot be reached: it did not answer in time/,
    );
    const saved = saveOutcome({ status: 'error', error: error.data }, 'ZDEMO');
    assert.match(
      saved.message,
      /^Not saved: The ABAP system at http:\/\/127.0.0.1:5000 cannot be reached/,
    );
  });
});

describe('restartAfterCrash', () => {
  it('starts a crashed server again, unless it crashed five times within three minutes', () => {
    /** @type {number[]} */
    const ends = [];
    for (let minute = 0; minute < 4; minute += 1) {
      assert.deepEqual(restartAfterCrash(ends, minute * 1000), { restart: true });
    }
    const fifth = restartAfterCrash(ends, 5000);
    assert.equal(fifth.restart, false);
    assert.match(/** @type {{message: string}} */ (fifth).message, /unsaved edits stay/);
    assert.deepEqual(restartAfterCrash([], 0), { restart: true });
    const spread = [0, 60_000, 120_000, 170_000];
    assert.deepEqual(restartAfterCrash(spread, 240_000), { restart: true }, 'older ones expire');
  });
});
