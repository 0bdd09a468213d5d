// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { formatAdtUri, objectLabel, parseAdtUri } = require('../src/uris');

const NAMESPACED = 'adt://A4H/sap/bc/adt/oo/classes/%2fabc%2fcl_x/source/main';

describe('parseAdtUri / formatAdtUri', () => {
  it('keeps a namespaced name percent-encoded and the authority as written', () => {
    const parts = parseAdtUri(NAMESPACED);
    assert.deepEqual(parts, {
      authority: 'A4H',
      path: '/sap/bc/adt/oo/classes/%2fabc%2fcl_x/source/main',
    });
    assert.equal(formatAdtUri(/** @type {NonNullable<typeof parts>} */ (parts)), NAMESPACED);
  });

  it('round-trips main sources and class includes unchanged', () => {
    for (const uri of [
      'adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main',
      'adt://dev/sap/bc/adt/oo/classes/zcl_x/includes/testclasses',
      'adt://A4H/sap/bc/adt/functions/groups/%2fabc%2fgrp/fmodules/%2fabc%2ffm/source/main',
    ]) {
      const parts = parseAdtUri(uri);
      assert.ok(parts, uri);
      assert.equal(formatAdtUri(parts), uri);
    }
  });

  it('passes the forms VS Code may produce through untouched (the server repairs them)', () => {
    const decoded = 'adt://a4h/sap/bc/adt/oo/classes//abc/cl_x/source/main';
    const reencoded = 'adt://a4h/sap/bc/adt/oo/classes/%252fabc%252fcl_x/source/main';
    for (const uri of [decoded, reencoded]) {
      const parts = parseAdtUri(uri);
      assert.ok(parts);
      assert.equal(formatAdtUri(parts), uri);
    }
  });

  it('refuses other schemes, missing systems, queries and fragments', () => {
    for (const uri of [
      'file:///sap/bc/adt/programs/programs/z/source/main',
      'adt:///sap/bc/adt/programs/programs/z/source/main',
      'adt://A4H',
      'adt://A4H/sap/bc/adt/programs/programs/z/source/main?x=1',
      'adt://A4H/sap/bc/adt/programs/programs/z/source/main#top',
      'ADT://A4H/sap/bc/adt/programs/programs/z/source/main',
    ]) {
      assert.equal(parseAdtUri(uri), undefined, uri);
    }
  });
});

describe('objectLabel', () => {
  it('names the object in upper case, decoding namespaces', () => {
    assert.equal(
      objectLabel('/sap/bc/adt/programs/programs/zdemo_report/source/main'),
      'ZDEMO_REPORT',
    );
    assert.equal(objectLabel('/sap/bc/adt/oo/classes/%2fabc%2fcl_x/source/main'), '/ABC/CL_X');
  });

  it('adds the include of a class', () => {
    assert.equal(
      objectLabel('/sap/bc/adt/oo/classes/zcl_x/includes/definitions'),
      'ZCL_X (definitions)',
    );
  });

  it('names a function module, not its group', () => {
    assert.equal(
      objectLabel('/sap/bc/adt/functions/groups/zgrp/fmodules/z_fm/source/main'),
      'Z_FM',
    );
  });

  it('falls back to the path when there is no source segment or a bad escape', () => {
    assert.equal(objectLabel('/sap/bc/adt/packages/zpkg'), '/sap/bc/adt/packages/zpkg');
    assert.equal(objectLabel('/sap/bc/adt/oo/classes/bad%zz/source/main'), 'BAD%ZZ');
  });
});
