// @ts-check
'use strict';

/**
 * The language server (`abap-adt lsp`) behind the extension: started on first use, with the
 * systems from the settings and their passwords from VS Code's secret storage; restarted when
 * the systems or the server command change (the server takes those only at start).
 */

const vscode = require('vscode');
const { LanguageClient } = require('vscode-languageclient/node');
const { uriConverters } = require('./editorUris');
const { collectPasswords, secretKey } = require('./passwords');
const { DID_CHANGE_CONFIGURATION } = require('./protocol');
const {
  SECTION,
  SERVER_SECTION,
  RESTART_SETTINGS,
  checkSystems,
  initializationOptions,
  liveSettings,
  readSettings,
  serverCommand,
} = require('./settings');
const { SCHEME } = require('./uris');

/** @typedef {import('./settings').SystemSetting} SystemSetting */

/** How long the server may take to release its locks when stopping. */
const STOP_TIMEOUT_MS = 5000;

class ServerConnection {
  /** @type {Promise<LanguageClient> | undefined} */
  #client;

  /**
   * @param {vscode.SecretStorage} secrets
   * @param {vscode.OutputChannel} output
   */
  constructor(secrets, output) {
    this.secrets = secrets;
    this.output = output;
  }

  /**
   * The running client, started on the first call. A failed start is not remembered: the next
   * call tries again.
   * @returns {Promise<LanguageClient>}
   */
  client() {
    if (!this.#client) {
      const starting = this.#start();
      this.#client = starting;
      starting.catch(() => {
        if (this.#client === starting) {
          this.#client = undefined;
        }
      });
    }
    return this.#client;
  }

  /**
   * Send a request to the server, starting it if needed.
   * @template T
   * @param {string} method
   * @param {unknown} params
   * @returns {Promise<T>}
   */
  async request(method, params) {
    const client = await this.client();
    return client.sendRequest(method, params);
  }

  /** The configured systems that pass the checks (for pickers). */
  systems() {
    return checkSystems(this.#settings().systems).systems;
  }

  /**
   * Forget a stored password; the next start asks again.
   * @param {SystemSetting} system
   */
  async forgetPassword(system) {
    await this.secrets.delete(secretKey(system));
  }

  async restart() {
    await this.stop();
    await this.client();
  }

  /** Stop the server; it releases its locks on shutdown. */
  async stop() {
    const starting = this.#client;
    this.#client = undefined;
    const client = await starting?.catch(() => undefined);
    await client?.dispose(STOP_TIMEOUT_MS);
  }

  /**
   * React to a settings change: pass lock mode and timings on, offer a restart for the rest.
   * @param {vscode.ConfigurationChangeEvent} event
   */
  async configurationChanged(event) {
    if (!this.#client || !event.affectsConfiguration(SECTION)) {
      return;
    }
    if (RESTART_SETTINGS.some((key) => event.affectsConfiguration(`${SECTION}.${key}`))) {
      const restart = 'Restart';
      const answer = await vscode.window.showInformationMessage(
        'The ABAP systems or the server command changed; the language server takes them on ' +
          'restart. Unsaved edits stay in the editor.',
        restart,
      );
      if (answer === restart) {
        await this.restart();
      }
      return;
    }
    const client = await this.client();
    await client.sendNotification(DID_CHANGE_CONFIGURATION, {
      settings: { [SERVER_SECTION]: liveSettings(this.#settings()) },
    });
  }

  dispose() {
    void this.stop();
  }

  /** @returns {Promise<LanguageClient>} */
  async #start() {
    const settings = this.#settings();
    const { command, args } = serverCommand(settings);
    const { systems, warnings } = checkSystems(settings.systems);
    for (const warning of warnings) {
      void vscode.window.showWarningMessage(warning);
    }
    const passwords = await collectPasswords(systems, this.secrets, askPassword);
    const { options, withoutPassword } = initializationOptions(settings, systems, passwords);
    if (withoutPassword.length) {
      void vscode.window.showWarningMessage(
        `No password for ${withoutPassword.join(', ')}: left out until the next start ` +
          '("ABAP: Restart Language Server").',
      );
    }
    const client = new LanguageClient(
      SECTION, // the client's id: it reads abapAdt.trace.server
      'ABAP ADT',
      { command, args },
      {
        documentSelector: [{ scheme: SCHEME }],
        initializationOptions: options,
        outputChannel: this.output,
        uriConverters,
      },
    );
    try {
      await client.start();
    } catch (error) {
      throw new Error(
        `Could not start the ABAP language server (${[command, ...args].join(' ')}): ` +
          `${error instanceof Error ? error.message : String(error)}. Install abap-adt or set ` +
          `${SECTION}.serverCommand.`,
      );
    }
    return client;
  }

  #settings() {
    const configuration = vscode.workspace.getConfiguration(SECTION);
    return readSettings((key) => configuration.get(key));
  }
}

/**
 * @param {SystemSetting} system
 * @returns {Thenable<string | undefined>}
 */
function askPassword(system) {
  return vscode.window.showInputBox({
    title: `ABAP system ${system.name}`,
    prompt: `Password of ${system.user} at ${system.url} (kept in VS Code's secret storage)`,
    password: true,
    ignoreFocusOut: true,
  });
}

module.exports = { ServerConnection };
