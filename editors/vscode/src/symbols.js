// @ts-check
'use strict';

/**
 * Ctrl+T (workspace symbols), also before the language server runs. The language client
 * registers its own provider only once the server started, which used to happen at the first
 * opened object; until then Ctrl+T found nothing. This provider is registered at activation,
 * starts the server at the first query (when ABAP systems are configured) and answers every
 * query; the client's own provider is silenced (`silenceClientSymbols`), so nothing is listed
 * twice and no query falls between the two.
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
    if (!query.trim() || (!this.connection.running && !this.connection.systems().length)) {
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

/** The language client's middleware that keeps its own provider from answering. */
const silenceClientSymbols = Object.freeze({ provideWorkspaceSymbols: () => [] });

module.exports = { EarlyWorkspaceSymbols, silenceClientSymbols };
