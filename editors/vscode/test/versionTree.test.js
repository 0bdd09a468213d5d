// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const {
  OPEN_VERSION,
  TIMELINE_ITEM,
  presentation,
  shownDate,
  timelineEntries,
  versionNodes,
  versionOf,
  versionTitles,
} = require('../src/versionTree');

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

describe('the versions in the Timeline', () => {
  const nodes = versionNodes(VERSIONS, URI, 'ZDEMO_REPORT');
  const NOW = Date.parse('2026-11-28T12:00:00Z');
  const entries = timelineEntries(nodes, NOW);

  it("lists each version by its label at its date, with the view's words", () => {
    assert.deepEqual(
      entries.map((e) => [e.label, e.timestamp]),
      [
        ['inactive version', Date.parse('2026-11-27T17:01:02Z')],
        ['active version', Date.parse('2026-11-26T09:30:00Z')],
        ['version 1 (first import)', Date.parse('2026-11-20T08:00:00Z')],
      ],
    );
    assert.deepEqual(
      entries.map((e) => e.id),
      [`${URI}#3`, `${URI}#2`, `${URI}#1`],
    );
    assert.equal(entries[2].tooltip, presentation(nodes[2]).tooltip);
    assert.deepEqual(
      entries.map((e) => e.icon),
      ['edit', 'pass', 'history'],
    );
  });

  it('shows the author and the transport beside a version (the Timeline shows its date)', () => {
    assert.equal(entries[2].description, 'COLLEAGUE · A4HK900101');
    assert.equal(entries[0].description, 'DEVELOPER');
  });

  it('opens the version on a click and gives its menu the version', () => {
    assert.deepEqual(entries[1].command, {
      command: OPEN_VERSION,
      title: 'Open Version',
      arguments: [nodes[1]],
    });
    assert.ok(entries.every((e) => e.contextValue === TIMELINE_ITEM));
    // the commands take a view's node or a Timeline item alike
    assert.equal(versionOf(entries[2]), nodes[2]);
    assert.equal(versionOf(nodes[2]), nodes[2]);
  });

  it('keeps a version without a readable date in its place', () => {
    const undated = versionNodes(
      {
        inactive: true,
        revisions: [
          { id: '3', label: 'inactive version' },
          { id: '2', label: 'active version', date: '2026-11-26T09:30:00Z' },
          { id: '1', label: 'version 1', date: 'last week' },
        ],
      },
      URI,
      'ZDEMO_REPORT',
    );
    assert.deepEqual(
      timelineEntries(undated, NOW).map((e) => e.timestamp),
      [NOW, Date.parse('2026-11-26T09:30:00Z'), Date.parse('2026-11-26T09:30:00Z') - 1],
    );
  });
});
