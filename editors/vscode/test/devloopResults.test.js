// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const {
  OBJECT_KINDS,
  atcOutcome,
  createParams,
  objectNameProblem,
  unitTestOutcome,
  versionItems,
} = require('../src/devloopResults');
const { statusText } = require('../src/documentState');

const URI = 'adt://A4H/sap/bc/adt/oo/classes/zcl_x/source/main';
const OBJECT = '/sap/bc/adt/oo/classes/zcl_x';

describe('unitTestOutcome', () => {
  const base = { uri: URI, objectUrl: OBJECT, failures: [] };

  it('reports passing tests as information', () => {
    assert.deepEqual(unitTestOutcome({ ...base, passed: 3, failed: 0 }, 'ZCL_X'), {
      level: 'info',
      message: 'ZCL_X: unit tests 3 passed, 0 failed.',
    });
  });

  it('names the first failure and points at Problems', () => {
    const failures = [{ testClass: 'LTC_X', method: 'ADDS', message: 'expected 3, got 4' }];
    const outcome = unitTestOutcome(
      { ...base, passed: 1, failed: 1, skipped: 2, failures },
      'ZCL_X',
    );
    assert.equal(outcome.level, 'error');
    assert.equal(
      outcome.message,
      'ZCL_X: unit tests 1 passed, 1 failed, 2 skipped (see Problems). First: LTC_X->ADDS: ' +
        'expected 3, got 4',
    );
  });

  it('warns when nothing ran', () => {
    assert.equal(unitTestOutcome({ ...base, passed: 0, failed: 0 }, 'ZCL_X').level, 'warning');
  });
});

describe('atcOutcome', () => {
  it('counts findings by priority, the worst setting the level', () => {
    const findings = [{ priority: 1 }, { priority: 2 }, { priority: 2 }, { priority: 3 }];
    assert.deepEqual(atcOutcome({ uri: URI, objectUrl: OBJECT, findings }, 'ZCL_X'), {
      level: 'error',
      message: 'ZCL_X: ATC found 1 error, 2 warnings, 1 note (see Problems).',
    });
    const warnings = atcOutcome({ uri: URI, objectUrl: OBJECT, findings: [{ priority: 2 }] }, 'Z');
    assert.equal(warnings.level, 'warning');
  });

  it('says so when there is nothing', () => {
    assert.deepEqual(atcOutcome({ uri: URI, objectUrl: OBJECT, findings: [] }, 'ZCL_X'), {
      level: 'info',
      message: 'ZCL_X: ATC found nothing.',
    });
  });
});

describe('new objects', () => {
  it('offers every kind the server creates', () => {
    assert.deepEqual(
      OBJECT_KINDS.map((kind) => kind.objectKind),
      ['class', 'interface', 'program', 'include', 'functionGroup', 'functionModule'],
    );
  });

  it('checks names as the user types', () => {
    assert.equal(objectNameProblem('class', 'zcl_new'), undefined);
    assert.equal(objectNameProblem('class', '/ABC/CL_NEW'), undefined);
    assert.match(objectNameProblem('class', 'Z'.repeat(31)) ?? '', /at most 30 characters/);
    assert.equal(objectNameProblem('program', 'Z'.repeat(40)), undefined);
    assert.match(objectNameProblem('program', 'zdemo report') ?? '', /Letters, digits and _/);
    assert.match(objectNameProblem('class', '1ZCL') ?? '', /starting with a letter/);
    assert.equal(objectNameProblem('class', '  '), 'Enter a name.');
  });

  it('sends names in upper case and leaves out what was not given', () => {
    assert.deepEqual(
      createParams({
        kind: 'functionModule',
        name: ' z_new ',
        description: ' Adds ',
        package: '$tmp',
        functionGroup: 'zgrp',
        transport: '',
      }),
      {
        kind: 'functionModule',
        name: 'Z_NEW',
        description: 'Adds',
        package: '$TMP',
        functionGroup: 'ZGRP',
      },
    );
    assert.equal(
      createParams({ kind: 'class', name: 'x', description: 'd', package: 'p', system: 'A4H' })
        .system,
      'A4H',
    );
  });
});

describe('versionItems', () => {
  it('offers the inactive and active versions before the revisions', () => {
    const items = versionItems({
      inactive: true,
      revisions: [
        {
          id: '2',
          label: 'Version 2',
          author: 'COLLEAGUE',
          date: '2026-11-20',
          transport: 'A4HK900002',
        },
      ],
    });
    assert.deepEqual(
      items.map((item) => [item.label, item.version]),
      [
        ['inactive version', 'inactive'],
        ['active version', 'active'],
        ['Version 2', '2'],
      ],
    );
    assert.equal(items[2].description, 'COLLEAGUE · 2026-11-20');
    assert.equal(items[2].detail, 'transport A4HK900002');
    assert.equal(versionItems({ inactive: false, revisions: [] }).length, 1);
  });
});

describe('statusText', () => {
  const state = { uri: URI, system: 'A4H', objectUrl: OBJECT, open: true };

  it('shows a lock while the server holds it for editing', () => {
    const shown = statusText({ ...state, lockMode: 'onEdit', locked: true, dirty: true }, 'ZCL_X');
    assert.equal(shown.text, '$(lock) A4H');
    assert.match(shown.tooltip, /^ZCL_X on A4H: locked for your edits/);
  });

  it('explains an unlocked document by the lock mode', () => {
    const onSave = statusText(
      { ...state, lockMode: 'onSave', locked: false, dirty: true },
      'ZCL_X',
    );
    assert.equal(onSave.text, '$(unlock) A4H');
    assert.match(onSave.tooltip, /locked only while saving/);
    const clean = statusText({ ...state, lockMode: 'onEdit', locked: false, dirty: false }, 'Z');
    assert.match(clean.tooltip, /your first change locks it/);
    const refused = statusText({ ...state, lockMode: 'onEdit', locked: false, dirty: true }, 'Z');
    assert.match(refused.tooltip, /could not be taken/);
  });
});
