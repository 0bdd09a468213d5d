// @ts-check
'use strict';

/** The manifest (package.json) and the code agree on settings and the language server. */

const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { describe, it } = require('node:test');
const { DEFAULTS, SECTION } = require('../src/settings');
const { SCHEME } = require('../src/uris');

const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
/** @type {Record<string, {default: unknown}>} */
const properties = manifest.contributes.configuration.properties;
/** Read by vscode-languageclient itself (`<client id>.trace.server`), not by our code. */
const CLIENT_SETTINGS = ['abapAdt.trace.server'];

describe('package.json', () => {
  it('declares every setting the code reads, with the same default', () => {
    const declared = Object.fromEntries(
      Object.entries(properties)
        .filter(([key]) => !CLIENT_SETTINGS.includes(key))
        .map(([key, schema]) => [key, schema.default]),
    );
    const expected = Object.fromEntries(
      Object.entries(DEFAULTS).map(([key, value]) => [`${SECTION}.${key}`, value]),
    );
    assert.deepEqual(declared, expected);
  });

  it('turns auto save off for every language it contributes (each save is a new inactive version)', () => {
    /** @type {{id: string, aliases?: string[]}[]} */
    const languages = manifest.contributes.languages;
    assert.ok(languages.length >= 5);
    for (const { id, aliases } of languages) {
      if (!aliases) {
        // VS Code's own xml, given the URIs of metadata objects: its default is every XML
        // file's, so it stays the user's; autoSave.js tells once for an adt:// document
        assert.equal(manifest.contributes.configurationDefaults[`[${id}]`], undefined);
        continue;
      }
      assert.deepEqual(manifest.contributes.configurationDefaults[`[${id}]`], {
        'files.autoSave': 'off',
      });
    }
  });

  it('activates on the file system the extension provides', () => {
    assert.ok(manifest.activationEvents.includes(`onFileSystem:${SCHEME}`));
  });
});
