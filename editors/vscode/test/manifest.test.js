// @ts-check
'use strict';

/** The manifest (package.json) and the code agree on settings and the language server. */

const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { describe, it } = require('node:test');
const { VIEW_ID, childNodes, presentation, rootNodes } = require('../src/packageTree');
const { DEFAULTS, SECTION } = require('../src/settings');
const transportTree = require('../src/transportTree');
const { SCHEME } = require('../src/uris');
const versionTree = require('../src/versionTree');

const { TRANSPORTS_VIEW_ID } = transportTree;
const { VERSIONS_VIEW_ID } = versionTree;

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

  it('contributes the ABAP Packages, Transports and Versions views to the Explorer, with menus on their nodes', () => {
    assert.deepEqual(
      manifest.contributes.views.explorer.map((/** @type {{id: string}} */ view) => view.id),
      [VIEW_ID, TRANSPORTS_VIEW_ID, VERSIONS_VIEW_ID],
    );
    /** @type {{command: string, when: string}[]} */
    const items = manifest.contributes.menus['view/item/context'];
    const nodes = [
      ...rootNodes([]),
      ...rootNodes([{ name: 'ZDEMO' }]),
      ...childNodes({
        package: 'ZDEMO',
        system: 'A4H',
        packages: [{ name: 'ZSUB' }],
        objects: [{ name: 'ZX', type: 'PROG/P', uri: '/sap/bc/adt/programs/programs/zx' }],
      }),
    ];
    const requests = transportTree.requestNodes([
      {
        system: 'A4H',
        requests: [
          {
            number: 'A4HK900101',
            description: '',
            owner: 'DEVELOPER',
            status: 'modifiable',
            tasks: [
              {
                number: 'A4HK900102',
                description: '',
                owner: 'DEVELOPER',
                status: 'modifiable',
                objects: [{ pgmid: 'R3TR', type: 'PROG', name: 'ZX', documentUri: 'adt://A4H/x' }],
              },
            ],
            objects: [],
          },
        ],
      },
    ]);
    const transportNodes = [...requests, ...transportTree.childNodes(requests[0])];
    const versionNodes = versionTree.versionNodes(
      { inactive: false, revisions: [{ id: '1', label: 'active version' }] },
      'adt://A4H/x',
      'ZX',
    );
    /** @type {Record<string, Set<string>>} the context values each view's nodes have */
    const shownIn = {
      [VIEW_ID]: new Set(nodes.map((node) => presentation(node).contextValue)),
      [TRANSPORTS_VIEW_ID]: new Set(
        transportNodes.map((node) => transportTree.presentation(node).contextValue),
      ),
      [VERSIONS_VIEW_ID]: new Set(
        versionNodes.map((node) => versionTree.presentation(node).contextValue),
      ),
    };
    /** @param {string} command */
    const menusOf = (command) => items.filter((item) => item.command === command);
    /** @param {string} when @param {string} value */
    const matches = (when, value) => {
      const regex = when.match(/viewItem =~ \/(.*)\//);
      const equal = when.match(/viewItem == (\w+)/);
      return regex ? new RegExp(regex[1]).test(value) : equal?.[1] === value;
    };
    for (const item of items) {
      const view = item.when.match(/view == ([\w.]+)/)?.[1] ?? '';
      assert.ok(view in shownIn, item.when);
      assert.ok(
        [...shownIn[view]].some((value) => matches(item.when, value)),
        item.when,
      );
    }
    const release = menusOf('abapAdt.releaseTransport');
    assert.ok(release.length && release.every((i) => matches(i.when, 'request')));
    assert.ok(release.every((i) => matches(i.when, 'task') && !matches(i.when, 'object')));
    const here = menusOf('abapAdt.runTestsHere');
    assert.ok(here.length && here.every((i) => matches(i.when, 'package')));
    const newHere = menusOf('abapAdt.newObjectInPackage');
    assert.ok(newHere.every((item) => matches(item.when, 'package')));
    assert.ok(newHere.every((item) => matches(item.when, 'favouritePackage')));
    assert.ok(newHere.every((item) => !matches(item.when, 'object')));
    assert.ok(
      menusOf('abapAdt.removeFavouritePackage').every((i) => matches(i.when, 'favouritePackage')),
    );
    assert.ok(menusOf('abapAdt.removeFavouritePackage').every((i) => !matches(i.when, 'package')));
  });

  it("declares the Timeline proposal and offers a version's commands in the Timeline", () => {
    // the proposal VS Code grants with --enable-proposed-api; without it the view stays
    assert.deepEqual(manifest.enabledApiProposals, ['timeline']);
    /** @type {{command: string, when: string, group: string}[]} */
    const items = manifest.contributes.menus['timeline/item/context'];
    const [entry] = versionTree.timelineEntries(
      versionTree.versionNodes(
        { inactive: false, revisions: [{ id: '1', label: 'active version' }] },
        'adt://A4H/x',
        'ZX',
      ),
      0,
    );
    assert.ok(items.every((item) => item.when === `timelineItem == ${entry.contextValue}`));
    assert.deepEqual(
      items.map((item) => [item.command, item.group]),
      [
        ['abapAdt.compareVersion', 'inline'],
        ['abapAdt.compareVersion', '1_compare@1'],
        [entry.command.command, '1_compare@2'],
      ],
    );
  });
});
