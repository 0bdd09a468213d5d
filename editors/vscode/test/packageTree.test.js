// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const {
  DEFAULT_PACKAGE,
  FAVOURITES_KEY,
  Favourites,
  childNodes,
  contentsParams,
  packageName,
  packageNameProblem,
  presentation,
  rootNodes,
} = require('../src/packageTree');

/** A Memento like VS Code's globalState, in memory. */
class MemoryState {
  constructor() {
    /** @type {Map<string, unknown>} */
    this.values = new Map();
  }

  /**
   * @template T
   * @param {string} key
   * @param {T} fallback
   * @returns {T}
   */
  get(key, fallback) {
    return this.values.has(key) ? /** @type {T} */ (this.values.get(key)) : fallback;
  }

  /**
   * @param {string} key
   * @param {unknown} value
   */
  async update(key, value) {
    this.values.set(key, JSON.parse(JSON.stringify(value))); // stored as JSON, like VS Code
  }
}

/** What the server answers for $ZDEMO (shape of docs/lsp-protocol.md, adt/packageContents). */
const ZDEMO = {
  package: '$ZDEMO',
  system: 'A4H',
  packages: [{ name: '$ZDEMO_SUB', description: 'Below the demo' }],
  objects: [
    {
      name: 'ZCL_DEMO_GREETER',
      type: 'CLAS/OC',
      description: 'Greets',
      uri: '/sap/bc/adt/oo/classes/zcl_demo_greeter',
      documentUri: 'adt://A4H/sap/bc/adt/oo/classes/zcl_demo_greeter/source/main',
    },
    {
      name: 'ZDEMO_ELEMENT',
      type: 'DTEL/DE',
      description: '',
      uri: '/sap/bc/adt/ddic/dataelements/zdemo_element',
    },
  ],
};

describe('package names', () => {
  it('takes local, customer and namespaced packages in any case', () => {
    assert.equal(packageName(' $tmp '), '$TMP');
    assert.equal(packageName('zdemo'), 'ZDEMO');
    assert.equal(packageName('/dmo/flight'), '/DMO/FLIGHT');
  });

  it('refuses what cannot be a package, with a hint', () => {
    for (const bad of ['', 'two words', 'Z'.repeat(31), 'a/b', 'ZDEMO;DROP']) {
      assert.equal(packageName(bad), undefined, bad);
      assert.match(packageNameProblem(bad) ?? '', /e\.g\. \$TMP/);
    }
    assert.equal(packageNameProblem('ZDEMO'), undefined);
  });
});

describe('favourites', () => {
  it('are stored in the global state, once each, per system', async () => {
    const state = new MemoryState();
    const favourites = new Favourites(state);
    assert.deepEqual(favourites.list(), []);
    assert.equal(await favourites.add({ name: 'ZDEMO' }), true);
    assert.equal(await favourites.add({ name: 'ZDEMO' }), false);
    assert.equal(await favourites.add({ name: 'ZDEMO', system: 'PRD' }), true);
    assert.deepEqual(state.values.get(FAVOURITES_KEY), [
      { name: 'ZDEMO' },
      { name: 'ZDEMO', system: 'PRD' },
    ]);
    await favourites.remove({ name: 'ZDEMO' });
    assert.deepEqual(new Favourites(state).list(), [{ name: 'ZDEMO', system: 'PRD' }]);
  });

  it('skip entries that are not packages (an older or edited state)', () => {
    const state = new MemoryState();
    state.values.set(FAVOURITES_KEY, [{ name: 'zdemo' }, { name: 'two words' }, 42, null]);
    assert.deepEqual(new Favourites(state).list(), [{ name: 'ZDEMO' }]);
  });
});

describe('the tree', () => {
  it('starts at $TMP until there are favourites, then shows them', () => {
    assert.deepEqual(rootNodes([]), [
      { kind: 'package', name: DEFAULT_PACKAGE, description: '', favourite: false },
    ]);
    const roots = rootNodes([{ name: 'ZDEMO' }, { name: '/DMO/FLIGHT', system: 'S4D' }]);
    assert.deepEqual(
      roots.map((node) => [presentation(node).label, node.favourite]),
      [
        ['ZDEMO', true],
        ['S4D: /DMO/FLIGHT', true],
      ],
    );
    assert.deepEqual(contentsParams(roots[1]), { package: '/DMO/FLIGHT', system: 'S4D' });
    assert.deepEqual(contentsParams(roots[0]), { package: 'ZDEMO' });
  });

  it("lists a package's sub-packages, then its objects, on the package's system", () => {
    const children = childNodes(ZDEMO, 'S4D');
    assert.deepEqual(
      children.map((node) => [node.kind, node.name, node.system]),
      [
        ['package', '$ZDEMO_SUB', 'S4D'],
        ['object', 'ZCL_DEMO_GREETER', 'S4D'],
        ['object', 'ZDEMO_ELEMENT', 'S4D'],
      ],
    );
    const sub = children[0];
    assert.ok(sub.kind === 'package');
    assert.deepEqual(contentsParams(sub), { package: '$ZDEMO_SUB', system: 'S4D' });
  });

  it('opens objects with a source and says which have none', () => {
    const [sub, greeter, element] = childNodes(ZDEMO).map(presentation);
    assert.equal(sub.contextValue, 'package');
    assert.equal(sub.icon, 'package');
    assert.equal(greeter.contextValue, 'object');
    assert.equal(greeter.icon, 'symbol-class');
    assert.equal(greeter.description, 'CLAS/OC · Greets');
    assert.equal(element.contextValue, 'sourcelessObject');
    assert.match(element.tooltip, /no source/);
    const [, greeterNode, elementNode] = childNodes(ZDEMO);
    assert.ok(greeterNode.kind === 'object' && elementNode.kind === 'object');
    assert.equal(greeterNode.documentUri, ZDEMO.objects[0].documentUri);
    assert.equal(elementNode.documentUri, undefined);
  });

  it('marks favourites for their context menu (remove) apart from listed packages', () => {
    const [favourite] = rootNodes([{ name: 'ZDEMO' }]);
    assert.equal(presentation(favourite).contextValue, 'favouritePackage');
    assert.equal(presentation(rootNodes([])[0]).contextValue, 'package');
  });
});
