// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { escape, paging, renderPage } = require('../src/previewTable');

/** @type {import('../src/previewTable').PreviewPage} */
const PAGE = {
  entity: '/DMO/I_TRAVEL_M',
  columns: [
    { name: 'TRAVELID', type: 'N', label: 'Travel ID', key: true },
    { name: 'CITY', type: 'C', label: 'City', key: false },
  ],
  rows: [
    { TRAVELID: '0003', CITY: '<b>Lima</b>' },
    { TRAVELID: '0004', CITY: "O'Hare & Co" },
  ],
  offset: 2,
  totalRows: 5,
  query: 'SELECT * FROM /DMO/I_TRAVEL_M',
};

describe('data preview table', () => {
  it('pages: rows 3-4 of 5 have a previous and a next page', () => {
    assert.deepEqual(paging(PAGE), {
      first: 3,
      last: 4,
      hasPrevious: true,
      hasNext: true,
      summary: '/DMO/I_TRAVEL_M: rows 3–4 of 5',
    });
    const lastPage = { ...PAGE, offset: 4, rows: [PAGE.rows[0]] };
    assert.equal(paging(lastPage).hasNext, false);
    assert.equal(paging({ ...PAGE, offset: 0, rows: [], totalRows: 0 }).first, 0);
  });

  it('renders escaped cells, key columns and labels, and disables paging at the ends', () => {
    const html = renderPage(PAGE, 'n0nce');
    assert.ok(html.includes('<td>&lt;b&gt;Lima&lt;/b&gt;</td>'));
    assert.ok(html.includes('<td>O&#39;Hare &amp; Co</td>'));
    assert.ok(html.includes('<th title="Travel ID (N)" class="key">TRAVELID</th>'));
    assert.ok(!html.includes('<b>Lima'));
    assert.ok(html.includes("script-src 'nonce-n0nce'"));
    const first = renderPage({ ...PAGE, offset: 0 }, 'x');
    assert.ok(first.includes('<button id="previous" disabled>'));
    assert.equal(escape(undefined), '');
  });
});
