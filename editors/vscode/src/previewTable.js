// @ts-check
'use strict';

/**
 * The HTML of one page of a data preview (`adt/dataPreview`, docs/lsp-protocol.md): a table
 * with the key columns marked and the labels as titles, and the paging state. Pure, so it is
 * unit-tested without VS Code; every value is escaped (table contents are data, not markup).
 */

/** @typedef {{name: string, type: string, label: string, key: boolean}} PreviewColumn */
/** @typedef {{entity: string, columns: PreviewColumn[], rows: Array<Record<string, string>>,
 *   offset: number, totalRows: number, query: string}} PreviewPage */

/** @param {unknown} value */
function escape(value) {
  return String(value ?? '')
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}

/**
 * Which rows a page shows and whether there are pages before and after it.
 * @param {PreviewPage} page
 */
function paging(page) {
  const first = page.rows.length ? page.offset + 1 : 0;
  const last = page.offset + page.rows.length;
  return {
    first,
    last,
    hasPrevious: page.offset > 0,
    hasNext: last < page.totalRows,
    summary: `${page.entity}: rows ${first}–${last} of ${page.totalRows}`,
  };
}

/**
 * @param {PreviewPage} page
 * @param {string} nonce the script nonce of the webview's content security policy
 * @returns {string}
 */
function renderPage(page, nonce) {
  const state = paging(page);
  const head = page.columns
    .map(
      (c) =>
        `<th title="${escape(c.label)} (${escape(c.type)})"${c.key ? ' class="key"' : ''}>` +
        `${escape(c.name)}</th>`,
    )
    .join('');
  const body = page.rows
    .map((row) => `<tr>${page.columns.map((c) => `<td>${escape(row[c.name])}</td>`).join('')}</tr>`)
    .join('\n');
  return `<!DOCTYPE html>
<html><head><meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'nonce-${nonce}';">
<style>table{border-collapse:collapse}th,td{border:1px solid var(--vscode-panel-border);padding:2px 6px;text-align:left}th.key{text-decoration:underline}</style>
</head><body>
<p>${escape(state.summary)} <button id="previous"${state.hasPrevious ? '' : ' disabled'}>Previous</button>
<button id="next"${state.hasNext ? '' : ' disabled'}>Next</button></p>
<table><thead><tr>${head}</tr></thead><tbody>
${body}
</tbody></table>
<p><code>${escape(page.query)}</code></p>
<script nonce="${nonce}">
const vscode = acquireVsCodeApi();
document.getElementById('previous').onclick = () => vscode.postMessage({ page: 'previous' });
document.getElementById('next').onclick = () => vscode.postMessage({ page: 'next' });
</script>
</body></html>`;
}

module.exports = { escape, paging, renderPage };
