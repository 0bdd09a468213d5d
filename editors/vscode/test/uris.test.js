// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const {
  SystemNames,
  editorPath,
  formatAdtUri,
  objectLabel,
  parseAdtUri,
  serverPath,
} = require('../src/uris');

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

  it('names a program include and a function group include, not their collection', () => {
    assert.equal(
      objectLabel('/sap/bc/adt/programs/includes/zdemo_include/source/main'),
      'ZDEMO_INCLUDE',
    );
    assert.equal(
      objectLabel('/sap/bc/adt/functions/groups/zgrp/includes/lzgrptop/source/main'),
      'LZGRPTOP',
    );
  });

  it('names the object of an editor path (with its title segment) the same way', () => {
    for (const path of [
      '/sap/bc/adt/programs/includes/zdemo_include/source/main',
      '/sap/bc/adt/oo/classes/%2fabc%2fcl_x/includes/implementations',
      '/sap/bc/adt/functions/groups/zgrp/fmodules/z_fm/source/main',
    ]) {
      assert.equal(objectLabel(editorPath(path)), objectLabel(path), path);
    }
  });

  it('falls back to the last segment when there is no source, and keeps a bad escape', () => {
    assert.equal(objectLabel('/sap/bc/adt/packages/zpkg'), 'ZPKG');
    assert.equal(objectLabel('/sap/bc/adt/packages/%24tmp'), '$TMP');
    assert.equal(objectLabel('/sap/bc/adt/oo/classes/bad%zz/source/main'), 'BAD%ZZ');
  });
});

describe('editorPath / serverPath', () => {
  const last = (/** @type {string} */ path) => path.slice(path.lastIndexOf('/') + 1);

  it('gives every tab the object name, with the include of a class', () => {
    const cases = {
      '/sap/bc/adt/oo/classes/zcl_foo/source/main': 'ZCL_FOO',
      '/sap/bc/adt/oo/classes/zcl_foo/includes/implementations': 'ZCL_FOO (implementations)',
      '/sap/bc/adt/oo/classes/zcl_foo/includes/testclasses': 'ZCL_FOO (testclasses)',
      '/sap/bc/adt/programs/programs/zdemo_report/source/main': 'ZDEMO_REPORT',
      '/sap/bc/adt/programs/includes/zdemo_include/source/main': 'ZDEMO_INCLUDE',
      '/sap/bc/adt/oo/interfaces/zif_x/source/main': 'ZIF_X',
      '/sap/bc/adt/functions/groups/zgrp/fmodules/z_fm/source/main': 'Z_FM',
    };
    for (const [path, title] of Object.entries(cases)) {
      assert.equal(last(editorPath(path)), title, path);
    }
  });

  it('writes the slashes of a namespace so that the name stays one segment', () => {
    const path = editorPath('/sap/bc/adt/oo/classes/%2fabc%2fcl_x/includes/definitions');
    assert.equal(last(path), '\u2215ABC\u2215CL_X (definitions)');
    assert.equal(path.split('/').length, 10);
  });

  it('round-trips every server path', () => {
    for (const path of [
      '/sap/bc/adt/oo/classes/%2fabc%2fcl_x/source/main',
      '/sap/bc/adt/oo/classes/zcl_x/includes/macros',
      '/sap/bc/adt/programs/includes/main/source/main',
      '/sap/bc/adt/programs/programs/main/source/main',
      '/sap/bc/adt/functions/groups/%2fabc%2fgrp/fmodules/%2fabc%2ffm/source/main',
    ]) {
      assert.equal(serverPath(editorPath(path)), path, path);
      assert.equal(serverPath(path), path, `${path} is kept as it is`);
    }
  });

  it('keeps a segment that is not the title of its source (restored or foreign paths)', () => {
    const path = '/sap/bc/adt/oo/classes/zcl_x/source/main/OTHER';
    assert.equal(serverPath(path), path);
    assert.equal(editorPath('/sap/bc/adt/packages/zpkg'), '/sap/bc/adt/packages/zpkg');
  });
});

describe('SystemNames', () => {
  it('spells an authority VS Code lower-cased as the server does', () => {
    const names = new SystemNames();
    names.learn('A4H');
    assert.equal(names.spell('a4h'), 'A4H');
    assert.equal(names.spell('A4H'), 'A4H');
  });

  it('keeps an authority it never learnt', () => {
    const names = new SystemNames();
    names.learn('A4H');
    assert.equal(names.spell('dev'), 'dev');
  });
});

describe('tab titles with several systems', () => {
  const path = '/sap/bc/adt/oo/classes/%2fabc%2fcl_x/includes/implementations';
  it('name the system, and the server path comes back without it', () => {
    const withSystem = editorPath(path, 'QAS');
    assert.equal(withSystem, `${path}/\u2215ABC\u2215CL_X (implementations) \u00b7 QAS`);
    assert.notEqual(withSystem, editorPath(path, 'A4H'), 'two systems, two titles');
    assert.equal(serverPath(withSystem), path);
    assert.equal(serverPath(editorPath(path)), path, 'one system: the name alone');
    assert.equal(serverPath(`${path}/OTHER \u00b7 QAS`), `${path}/OTHER \u00b7 QAS`);
  });

  it('are used when more than one system is configured', () => {
    const names = new SystemNames();
    names.configure(['A4H']);
    assert.equal(names.several, false);
    names.configure(['A4H', 'QAS']);
    assert.equal(names.several, true);
    assert.equal(names.spell('qas'), 'QAS');
  });
});
