// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { classesOf, packageId, packageTests, runOutcomes, testId } = require('../src/testTree');

const MAIN = 'adt://A4H/sap/bc/adt/oo/classes/zcl_demo_vat/source/main';
const TESTS = 'adt://A4H/sap/bc/adt/oo/classes/zcl_demo_vat/includes/testclasses';
const PROG = 'adt://A4H/sap/bc/adt/programs/programs/zdemo_qa_legacy/source/main';

/** What `adt.runPackageTests` answers for $ZDEMO_QA (docs/lsp-protocol.md). */
/** @type {import('../src/testTree').PackageRun} */
const RUN = {
  package: '$ZDEMO_QA',
  system: 'A4H',
  tests: 4,
  passed: 2,
  failed: 2,
  objects: [
    {
      name: 'ZCL_DEMO_VAT',
      type: 'CLAS/OC',
      objectUrl: '/sap/bc/adt/oo/classes/zcl_demo_vat',
      documentUri: MAIN,
      classes: [
        {
          name: 'LTCL_VAT',
          passed: false,
          uri: TESTS,
          line: 7,
          methods: [
            { name: 'ADDS_THE_RATE', passed: true, durationMs: 12, uri: TESTS, line: 19 },
            {
              name: 'RATE_IS_NINETEEN',
              passed: false,
              durationMs: 3,
              uri: TESTS,
              line: 24,
              failure: {
                message: 'Expected [16] Actual [19]',
                details: ['VAT rate in percent'],
                uri: TESTS,
                line: 25,
              },
            },
          ],
        },
      ],
    },
    {
      name: 'ZDEMO_QA_LEGACY',
      type: 'PROG/P',
      objectUrl: '/sap/bc/adt/programs/programs/zdemo_qa_legacy',
      documentUri: PROG,
      classes: [
        {
          name: 'LTCL_LEGACY',
          passed: false,
          uri: PROG,
          line: 32,
          failure: { message: 'class_setup failed', uri: PROG, line: 40 },
          methods: [{ name: 'STARTS_EMPTY', passed: true, durationMs: 0 }],
        },
      ],
    },
    { name: 'ZNO_SOURCE', type: 'XYZ', objectUrl: '/sap/bc/adt/xyz/zno_source', classes: [] },
  ],
};

describe('a package run in the Testing view', () => {
  const { objects, outcomes } = packageTests(RUN);

  it('makes items of every tested object, class and method at their 0-based lines', () => {
    assert.deepEqual(
      objects.map((o) => [o.name, o.documentUri]),
      [
        ['ZCL_DEMO_VAT', MAIN],
        ['ZDEMO_QA_LEGACY', PROG],
        ['ZNO_SOURCE', undefined],
      ],
    );
    const [vat] = objects[0].classes;
    assert.deepEqual(vat.place, { uri: TESTS, line: 6 });
    assert.deepEqual(
      vat.methods.map((m) => [m.name, m.place]),
      [
        ['ADDS_THE_RATE', { uri: TESTS, line: 18 }],
        ['RATE_IS_NINETEEN', { uri: TESTS, line: 23 }],
      ],
    );
    // a method the system did not place is still an item, placed with its object
    assert.deepEqual(objects[1].classes[0].methods[0].place, {});
  });

  it('passes and fails each method with its duration, a failure at its line with details', () => {
    assert.deepEqual(outcomes[0], {
      id: testId({ uri: MAIN, testClass: 'LTCL_VAT', method: 'ADDS_THE_RATE' }),
      state: 'passed',
      durationMs: 12,
    });
    assert.deepEqual(outcomes[1], {
      id: testId({ uri: MAIN, testClass: 'LTCL_VAT', method: 'RATE_IS_NINETEEN' }),
      state: 'failed',
      message: 'Expected [16] Actual [19]\nVAT rate in percent',
      uri: TESTS,
      line: 24,
      durationMs: 3,
    });
  });

  it("fails the methods of a class whose setup failed with the class's failure", () => {
    assert.equal(outcomes.length, 3, 'nothing for an object without a document');
    assert.equal(outcomes[2].state, 'failed');
    assert.equal(outcomes[2].message, 'class_setup failed');
    assert.equal(outcomes[2].line, 39);
  });

  it('lets a class of the run be run again alone, through adt.runUnitTests', () => {
    const classes = classesOf(objects[0]);
    assert.deepEqual(classes, [
      {
        name: 'LTCL_VAT',
        line: 6,
        methods: [
          { name: 'ADDS_THE_RATE', line: 18 },
          { name: 'RATE_IS_NINETEEN', line: 23 },
        ],
      },
    ]);
    const again = runOutcomes({ uri: MAIN, testClass: 'LTCL_VAT' }, classes, {
      tests: 2,
      passed: 2,
      failed: 0,
      failures: [],
    });
    assert.deepEqual(
      again.outcomes.map((o) => [o.id, o.state]),
      [
        [outcomes[0].id, 'passed'],
        [outcomes[1].id, 'passed'],
      ],
    );
  });

  it('names a package item by its system and upper-case name', () => {
    assert.equal(packageId('A4H', '$zdemo_qa'), 'package:A4H:$ZDEMO_QA');
    assert.notEqual(packageId('A4H', '$ZDEMO'), packageId('B4H', '$ZDEMO'));
  });
});
