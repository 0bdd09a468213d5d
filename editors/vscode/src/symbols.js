// @ts-check
'use strict';

/**
 * Ctrl+T (workspace symbols) before the language server runs. The language client registers
 * its own provider only once the server started, which used to happen at the first opened
 * object; until then Ctrl+T found nothing. This provider starts the server at the first query
 * (when ABAP systems are configured) and answers that query; once the client's own provider
 * is registered, it answers nothing, so no object is listed twice.
 */

const vscode = require('vscode');
const { WORKSPACE_SYMBOL } = require('./protocol');

/** @typedef {import('./connection').ServerConnection} ServerConnection */

/** @implements {vscode.WorkspaceSymbolProvider} */
class EarlyWorkspaceSymbols {
  /** @param {ServerConnection} connection */
  constructor(connection) {
    this.connection = connection;
  }

  /**
   * @param {string} query
   * @param {vscode.CancellationToken} token
   * @returns {Promise<vscode.SymbolInformation[]>}
   */
  async provideWorkspaceSymbols(query, token) {
    if (this.connection.running || !query.trim() || !this.connection.systems().length) {
      return [];
    }
    const client = await this.connection.client();
    if (token.isCancellationRequested) {
      return [];
    }
    const found = await client.sendRequest(WORKSPACE_SYMBOL, { query }, token);
    return client.protocol2CodeConverter.asSymbolInformations(
      /** @type {import('vscode-languageclient').SymbolInformation[]} */ (found ?? []),
      token,
    );
  }
}

module.exports = { EarlyWorkspaceSymbols };
