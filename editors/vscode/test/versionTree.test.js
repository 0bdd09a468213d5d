// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { presentation, shownDate, versionNodes, versionTitles } = require('../src/versionTree');

const URI = 'adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main';

/** What `adt/versions` answers after a save that was not activated. */
const VERSIONS = {
  inactive: true,
  revisions: [
    { id: '3', label: 'inactive version', author: 'DEVELOPER', date: '2026-11-27T17:01:02Z' },
    { id: '2', label: 'active version', author: 'DEVELOPER', date: '2026-11-26T09:30:00Z' },
    {
      id: '1',
      label: 'version 1 (first import)',
      author: 'COLLEAGUE',
      date: '2026-11-20T08:00:00Z',
      transport: 'A4HK900101',
    },
  ],
};

describe('the versions view', () => {
  const nodes = versionNodes(VERSIONS, URI, 'ZDEMO_REPORT');

  it('lists every version newest first: the draft, the active one, older ones', () => {
    assert.deepEqual(
      nodes.map((n) => [n.revision.id, n.state]),
      [
        ['3', 'inactive'],
        ['2', 'active'],
        ['1', 'older'],
      ],
    );
    const activeOnly = versionNodes(
      { inactive: false, revisions: VERSIONS.revisions.slice(1) },
      URI,
      'X',
    );
    assert.equal(activeOnly[0].state, 'active');
  });

  it('shows author, date and transport beside each version', () => {
    assert.equal(presentation(nodes[2]).label, 'version 1 (first import)');
    assert.equal(presentation(nodes[2]).description, 'COLLEAGUE · 2026-11-20 08:00 · A4HK900101');
    assert.equal(presentation(nodes[0]).description, 'DEVELOPER · 2026-11-27 17:01');
    assert.match(presentation(nodes[2]).tooltip, /in transport A4HK900101/);
    assert.deepEqual(
      nodes.map((n) => presentation(n).icon),
      ['edit', 'pass', 'history'],
    );
  });

  it('titles a version opened read-only and its diff with the editor', () => {
    assert.deepEqual(versionTitles(nodes[1], 'active version'), {
      document: 'ZDEMO_REPORT (active version, 2026-11-26 09:30)',
      diff: 'ZDEMO_REPORT: active version ↔ editor',
    });
    assert.equal(shownDate(''), '');
    assert.equal(shownDate('yesterday'), 'yesterday');
  });
});
