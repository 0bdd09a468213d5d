// @ts-check
'use strict';

/**
 * "ABAP: Preview Data": the rows of the table or CDS entity of the active `adt://` document
 * in a webview beside it, a page at a time (`adt/dataPreview`).
 */

const crypto = require('node:crypto');
const vscode = require('vscode');
const { toServerUri } = require('./editorUris');
const { renderPage } = require('./previewTable');
const { objectLabel } = require('./uris');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./previewTable').PreviewPage} PreviewPage */

const DATA_PREVIEW = 'adt/dataPreview';
const PAGE_SIZE = 100;

/**
 * @param {ServerConnection} connection
 * @param {vscode.TextDocument} document
 */
async function previewData(connection, document) {
  const uri = toServerUri(document.uri);
  const panel = vscode.window.createWebviewPanel(
    'abapAdt.dataPreview',
    `Data: ${objectLabel(document.uri.path)}`,
    vscode.ViewColumn.Beside,
    { enableScripts: true },
  );
  let offset = 0;
  const show = async () => {
    /** @type {PreviewPage} */
    const page = await connection.request(DATA_PREVIEW, { uri, offset, limit: PAGE_SIZE });
    panel.webview.html = renderPage(page, crypto.randomBytes(16).toString('hex'));
  };
  panel.webview.onDidReceiveMessage(async (/** @type {{page?: string}} */ message) => {
    offset = Math.max(0, offset + (message.page === 'next' ? PAGE_SIZE : -PAGE_SIZE));
    try {
      await show();
    } catch (error) {
      void vscode.window.showErrorMessage(`Data preview failed: ${String(error)}`);
    }
  });
  await show();
}

module.exports = { DATA_PREVIEW, PAGE_SIZE, previewData };
