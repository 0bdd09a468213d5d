// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const {
  OBJECT_KINDS,
  createParams,
  messageNumberProblem,
  objectNameProblem,
  transportMessage,
  versionItems,
} = require('../src/devloopResults');
const { statusText } = require('../src/documentState');

const URI = 'adt://A4H/sap/bc/adt/oo/classes/zcl_x/source/main';
const OBJECT = '/sap/bc/adt/oo/classes/zcl_x';

describe('new objects', () => {
  it('offers every kind the server creates', () => {
    assert.deepEqual(
      OBJECT_KINDS.map((kind) => kind.objectKind),
      [
        'class',
        'interface',
        'program',
        'include',
        'functionGroup',
        'functionModule',
        'dataDefinition',
        'metadataExtension',
        'accessControl',
        'behaviorDefinition',
        'serviceDefinition',
        'table',
        'structure',
        'tableType',
        'dataElement',
        'domain',
        'messageClass',
        'serviceBinding',
      ],
    );
  });

  it('checks a message number as the user types', () => {
    assert.equal(messageNumberProblem(' 7 '), undefined);
    assert.equal(messageNumberProblem('001'), undefined);
    assert.match(messageNumberProblem('1000') ?? '', /000 to 999/);
    assert.match(messageNumberProblem('x1') ?? '', /000 to 999/);
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
        kind: 'class',
        name: ' zcl_new ',
        description: ' New ',
        package: '$tmp',
        transport: '',
      }),
      { kind: 'class', name: 'ZCL_NEW', description: 'New', package: '$TMP' },
    );
    assert.equal(
      createParams({ kind: 'class', name: 'x', description: 'd', package: 'p', system: 'A4H' })
        .system,
      'A4H',
    );
  });

  it('asks what a CDS template builds on, and sends it in upper case', () => {
    const asking = OBJECT_KINDS.filter((kind) => kind.basedOn).map((kind) => kind.objectKind);
    assert.deepEqual(asking, [
      'dataDefinition',
      'accessControl',
      'serviceDefinition',
      'serviceBinding',
    ]);
    assert.equal(objectNameProblem('messageClass', 'Z'.repeat(20)), undefined);
    assert.match(objectNameProblem('messageClass', 'Z'.repeat(21)) ?? '', /at most 20/);
    assert.deepEqual(
      createParams({
        kind: 'dataDefinition',
        name: 'zi_trip',
        description: 'Trips',
        package: '$zcds',
        basedOn: ' ztrip ',
      }),
      {
        kind: 'dataDefinition',
        name: 'ZI_TRIP',
        description: 'Trips',
        package: '$ZCDS',
        basedOn: 'ZTRIP',
      },
    );
    const none = createParams({
      kind: 'serviceDefinition',
      name: 'zui_trip',
      description: 'Trips',
      package: '$zcds',
      basedOn: '',
    });
    assert.equal('basedOn' in none, false);
  });

  it('gives a function module its group and no package', () => {
    assert.deepEqual(
      createParams({
        kind: 'functionModule',
        name: 'z_new',
        description: 'Adds',
        package: '',
        functionGroup: 'zgrp',
      }),
      { kind: 'functionModule', name: 'Z_NEW', description: 'Adds', functionGroup: 'ZGRP' },
    );
  });
});

describe('versionItems', () => {
  it('offers the versions as the server lists them, newest first', () => {
    const items = versionItems({
      inactive: true,
      revisions: [
        { id: 'inactive', label: 'inactive version', author: 'DEVELOPER' },
        { id: 'active', label: 'active version', author: 'DEVELOPER', date: '2026-11-21' },
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
    assert.equal(items[0].detail, undefined);
  });
});

describe('transportMessage', () => {
  it('says where the changes go, or why nowhere', () => {
    assert.equal(
      transportMessage({ transport: 'A4HK900010', required: true }, 'ZCL_X'),
      'ZCL_X: changes go to A4HK900010 in this session.',
    );
    assert.equal(
      transportMessage({ transport: 'A4HK900003', required: true, lockedIn: true }, 'ZCL_X'),
      'ZCL_X is recorded in A4HK900003: its changes go there.',
    );
    assert.match(transportMessage({ transport: null, required: false }, 'ZCL_X'), /local package/);
    assert.match(transportMessage({ transport: null, required: true }, 'ZCL_X'), /asks again/);
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

  it('adds an inactive version, with what to do about it', () => {
    const base = {
      ...state,
      lockMode: /** @type {'onSave'} */ ('onSave'),
      locked: false,
      dirty: false,
    };
    const inactive = statusText({ ...base, inactive: true }, 'ZCL_X');
    assert.equal(inactive.text, '$(unlock) A4H $(circle-outline) inactive');
    assert.match(inactive.tooltip, /locked only while saving.*Saved but not activated/);
    assert.match(inactive.tooltip, /ABAP: Activate/);
    for (const known of [false, null, undefined]) {
      assert.equal(statusText({ ...base, inactive: known }, 'ZCL_X').text, '$(unlock) A4H');
    }
  });
});
