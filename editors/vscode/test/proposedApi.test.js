// @ts-check
'use strict';

/** proposedApi.js: a proposed API is used where VS Code grants it, and its refusal is survived. */

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { callProposed } = require('../src/proposedApi');

/** What VS Code's extension host throws for an API of a proposal it did not grant. */
const NOT_GRANTED =
  "Extension 'abap-adt.abap-adt' CANNOT use API proposal: timeline.\n" +
  'Its package.json#enabledApiProposals-property declares: [] but NOT timeline.\n' +
  ' The missing proposal MUST be added and you must start in extension development mode or ' +
  'use the following command line switch: --enable-proposed-api abap-adt.abap-adt';

describe('callProposed', () => {
  it('calls the API where VS Code grants it and returns its registration', () => {
    /** @type {unknown[][]} */
    const calls = [];
    const registration = { dispose() {} };
    const workspace = {
      /** @param {unknown[]} args */
      registerTimelineProvider(...args) {
        calls.push(args);
        assert.equal(this, workspace);
        return registration;
      },
    };
    /** @type {unknown[]} */
    const refusals = [];
    const provider = {};
    const got = callProposed(workspace, 'registerTimelineProvider', ['adt', provider], (r) =>
      refusals.push(r),
    );
    assert.equal(got, registration);
    assert.deepEqual(calls, [['adt', provider]]);
    assert.deepEqual(refusals, []);
  });

  it('returns nothing and says why when VS Code refuses the proposal', () => {
    const workspace = {
      registerTimelineProvider() {
        throw new Error(NOT_GRANTED);
      },
    };
    /** @type {unknown[]} */
    const refusals = [];
    const got = callProposed(workspace, 'registerTimelineProvider', ['adt', {}], (r) =>
      refusals.push(r),
    );
    assert.equal(got, undefined);
    assert.deepEqual(refusals, [
      {
        api: 'registerTimelineProvider',
        reason: "Extension 'abap-adt.abap-adt' CANNOT use API proposal: timeline.",
      },
    ]);
  });

  it('returns nothing when this VS Code has no such API', () => {
    /** @type {unknown[]} */
    const refusals = [];
    const got = callProposed({}, 'registerTimelineProvider', [], (r) => refusals.push(r));
    assert.equal(got, undefined);
    assert.deepEqual(refusals, [
      { api: 'registerTimelineProvider', reason: 'this VS Code has no registerTimelineProvider' },
    ]);
  });
});
