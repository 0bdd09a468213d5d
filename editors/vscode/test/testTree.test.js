// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const {
  coveredMethods,
  runArguments,
  runOutcomes,
  testId,
  testsFromLenses,
} = require('../src/testTree');

const URI = 'adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/includes/testclasses';

/** The server's "Run tests" lenses of a test include (textDocument/codeLens). */
const LENSES = [
  { line: 0, command: 'adt.runUnitTests', arguments: [URI, { testClass: 'ltc_greeter' }] },
  {
    line: 9,
    command: 'adt.runUnitTests',
    arguments: [URI, { testClass: 'ltc_greeter', method: 'greets_by_name' }],
  },
  {
    line: 14,
    command: 'adt.runUnitTests',
    arguments: [URI, { testClass: 'ltc_greeter', method: 'greets_everyone' }],
  },
  { line: 20, command: 'adt.runUnitTests', arguments: [URI, { testClass: 'ltc_other' }] },
  {
    line: 25,
    command: 'adt.runUnitTests',
    arguments: [URI, { testClass: 'ltc_other', method: 'works' }],
  },
  { line: 30, command: 'something.else', arguments: [URI, { testClass: 'ltc_nope' }] },
];
const CLASSES = testsFromLenses(LENSES);

describe('test discovery', () => {
  it('finds the classes and methods of the lenses, at their lines', () => {
    assert.deepEqual(CLASSES, [
      {
        name: 'ltc_greeter',
        line: 0,
        methods: [
          { name: 'greets_by_name', line: 9 },
          { name: 'greets_everyone', line: 14 },
        ],
      },
      { name: 'ltc_other', line: 20, methods: [{ name: 'works', line: 25 }] },
    ]);
  });

  it('gives every item its own id and the arguments of the run the lens would start', () => {
    const method = { uri: URI, testClass: 'ltc_greeter', method: 'greets_by_name' };
    assert.equal(testId(method), `${URI}#LTC_GREETER#GREETS_BY_NAME`);
    assert.notEqual(testId({ uri: URI }), testId({ uri: URI, testClass: 'ltc_greeter' }));
    assert.deepEqual(runArguments({ uri: URI }), [URI]);
    assert.deepEqual(runArguments({ uri: URI, testClass: 'ltc_greeter' }), [
      URI,
      { testClass: 'ltc_greeter' },
    ]);
    assert.deepEqual(runArguments(method), LENSES[1].arguments);
  });

  it('knows which methods a run covers: all, a class, one method', () => {
    assert.equal(coveredMethods({ uri: URI }, CLASSES).length, 3);
    assert.deepEqual(
      coveredMethods({ uri: URI, testClass: 'LTC_GREETER' }, CLASSES).map((m) => m.method),
      ['greets_by_name', 'greets_everyone'],
    );
    assert.deepEqual(
      coveredMethods({ uri: URI, testClass: 'ltc_other', method: 'WORKS' }, CLASSES).map(
        (m) => m.method,
      ),
      ['works'],
    );
  });
});

describe('test outcomes', () => {
  it('fails a method at its failing line (0-based) and passes the others', () => {
    const result = {
      tests: 3,
      passed: 2,
      failed: 1,
      failures: [
        {
          testClass: 'LTC_GREETER',
          method: 'GREETS_EVERYONE',
          message: 'Expected [Hello] but was [Hi]',
          uri: URI,
          line: 16,
        },
      ],
    };
    const { outcomes, unmatched } = runOutcomes({ uri: URI }, CLASSES, result);
    assert.deepEqual(outcomes, [
      { id: `${URI}#LTC_GREETER#GREETS_BY_NAME`, state: 'passed' },
      {
        id: `${URI}#LTC_GREETER#GREETS_EVERYONE`,
        state: 'failed',
        message: 'Expected [Hello] but was [Hi]',
        uri: URI,
        line: 15,
      },
      { id: `${URI}#LTC_OTHER#WORKS`, state: 'passed' },
    ]);
    assert.deepEqual(unmatched, []);
  });

  it("fails every method of a class whose setup failed, and keeps others' failures apart", () => {
    const result = {
      tests: 2,
      passed: 0,
      failed: 2,
      failures: [
        { testClass: 'LTC_GREETER', message: 'class_setup raised CX_FAILED' },
        { testClass: 'LTC_ELSEWHERE', method: 'HIDDEN', message: 'not in this document' },
      ],
    };
    const target = { uri: URI, testClass: 'ltc_greeter' };
    const { outcomes, unmatched } = runOutcomes(target, CLASSES, result);
    assert.deepEqual(
      outcomes.map((o) => [o.state, o.message]),
      [
        ['failed', 'class_setup raised CX_FAILED'],
        ['failed', 'class_setup raised CX_FAILED'],
      ],
    );
    assert.deepEqual(unmatched, [result.failures[1]]);
  });

  it('skips what did not run, with the reason the server gave', () => {
    const result = {
      tests: 0,
      passed: 0,
      failed: 0,
      failures: [],
      notes: ['No tests ran: the active version has no test classes (save and activate first).'],
    };
    const target = { uri: URI, testClass: 'ltc_other', method: 'works' };
    assert.deepEqual(runOutcomes(target, CLASSES, result).outcomes, [
      { id: `${URI}#LTC_OTHER#WORKS`, state: 'skipped', message: result.notes[0] },
    ]);
  });
});
