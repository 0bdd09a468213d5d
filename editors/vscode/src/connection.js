// @ts-check
'use strict';

/**
 * The language server (`abap-adt lsp`) behind the extension: started on first use, with the
 * systems from the settings and their passwords from VS Code's secret storage; restarted when
 * the systems or the server command change (the server takes those only at start). A password
 * typed at start is stored only after a first request to its system logged on.
 */

const vscode = require('vscode');
const { CloseAction, ErrorAction, LanguageClient, State } = require('vscode-languageclient/node');
const { systemNames, uriConverters } = require('./editorUris');
const { languageClientChannel } = require('./output');
const { nameObjectsInServerMessages, showLogons } = require('./serverMessages');
const { collectPasswords, secretKey, storeAccepted } = require('./passwords');
const { BASE_VERSION, DID_CHANGE_CONFIGURATION, SEARCH_OBJECTS } = require('./protocol');
const { logonOutcome, restartAfterCrash } = require('./results');
const {
  SECTION,
  SERVER_SECTION,
  RESTART_SETTINGS,
  checkSystems,
  initializationOptions,
  liveSettings,
  readSettings,
  serverCommand,
  startFailure,
  userServerCommand,
} = require('./settings');
const { PROGRESS_DELAY_MS, requestTitle } = require('./requestTitles');
const { silenceClientSymbols } = require('./symbols');
const { SCHEME } = require('./uris');

/** @typedef {import('./settings').SystemSetting} SystemSetting */

/** How long the server may take to release its locks when stopping. */
const STOP_TIMEOUT_MS = 5000;

class ServerConnection {
  /** @type {Promise<LanguageClient> | undefined} */
  #client;
  /** Whether a started client is running (its own providers are registered). */
  #running = false;
  #changed = new vscode.EventEmitter();
  /**
   * The refused logon of this start, as told to the user; undefined when none.
   * @type {string | undefined}
   */
  #refusal;
  #offering = false;
  #based = new vscode.EventEmitter();

  /**
   * @param {vscode.SecretStorage} secrets
   * @param {vscode.OutputChannel} output
   * @param {import('./restoring').Restoring} [restoring] hands each newly started server the
   *   bases of the documents it opens
   */
  constructor(secrets, output, restoring) {
    this.secrets = secrets;
    this.output = output;
    this.restoring = restoring;
    /** Fires when the server started or stopped. */
    this.onDidChangeState = this.#changed.event;
    /** Fires when a document's server version moved or was activated (`adt/baseVersion`). */
    this.onDidChangeBase = this.#based.event;
    this.#learnSystems();
  }

  /** The configured systems' names: how the server spells them, and whether tab titles
   * must name them (several systems). */
  #learnSystems() {
    systemNames.configure(this.systems().map((system) => system.name));
  }

  /** Whether the server is up, so that the language client answers standard requests. */
  get running() {
    return this.#running;
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
    /** @type {Promise<T>} */
    const answer = client.sendRequest(method, params);
    const title = requestTitle(method, params);
    return title ? slowProgress(title, answer) : answer;
  }

  /** The configured systems that pass the checks (for pickers). */
  systems() {
    return checkSystems(this.#settings().systems).systems;
  }

  /** The settings as the extension reads them now. */
  settings() {
    return this.#settings();
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
    if (event.affectsConfiguration(`${SECTION}.systems`)) {
      this.#learnSystems();
    }
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
    this.#changed.dispose();
    this.#based.dispose();
  }

  /** @returns {Promise<LanguageClient>} */
  async #start() {
    const configuration = vscode.workspace.getConfiguration(SECTION);
    const command = userServerCommand(configuration.inspect('serverCommand'));
    const settings = this.#settings();
    const commandLine = serverCommand(settings);
    const { systems, warnings } = checkSystems(settings.systems);
    for (const warning of command.warning ? [command.warning, ...warnings] : warnings) {
      void vscode.window.showWarningMessage(warning);
    }
    systemNames.configure(systems.map((system) => system.name));
    const { passwords, typed } = await collectPasswords(systems, this.secrets, askPassword);
    const { options, withoutPassword } = initializationOptions(settings, systems, passwords);
    if (withoutPassword.length) {
      void vscode.window.showWarningMessage(
        `No password for ${withoutPassword.join(', ')}: left out until the next start ` +
          '("ABAP: Restart Language Server").',
      );
    }
    const restoring = this.restoring;
    const client = new LanguageClient(
      SECTION, // the client's id: it reads abapAdt.trace.server
      'ABAP ADT',
      commandLine,
      {
        documentSelector: [{ scheme: SCHEME }],
        // called at every start of the server process, also the client's own restart after a
        // crash: documents it opens from then on get their bases back (restoring.js)
        initializationOptions: () => {
          restoring?.bases.nextGeneration();
          return options;
        },
        outputChannel: languageClientChannel(this.output),
        uriConverters,
        errorHandler: crashHandler(),
        middleware: {
          ...silenceClientSymbols, // symbols.js answers Ctrl+T
          didOpen: (document, next) =>
            restoring ? restoring.didOpen(document, next) : next(document),
        },
      },
    );
    if (restoring) {
      restoring.send = (method, params) => client.sendRequest(method, params);
    }
    nameObjectsInServerMessages(client);
    showLogons(client);
    client.onNotification(BASE_VERSION, (params) => this.#based.fire(params));
    client.onDidChangeState(({ newState }) => {
      this.#running = newState === State.Running;
      this.#changed.fire(undefined);
    });
    try {
      await client.start();
    } catch (error) {
      const reason = error instanceof Error ? error.message : String(error);
      throw new Error(startFailure(commandLine, reason, command.value !== undefined));
    }
    await this.#checkLogons(client, typed, passwords);
    return client;
  }

  /**
   * Log on to each system whose password was just typed (one small search); store the
   * password when that worked, offer to type it again when the system refused it.
   * @param {LanguageClient} client
   * @param {SystemSetting[]} typed
   * @param {Map<string, string>} passwords
   */
  async #checkLogons(client, typed, passwords) {
    for (const system of typed) {
      /** @type {unknown} */
      let failure;
      try {
        await client.sendRequest(SEARCH_OBJECTS, {
          query: '*',
          system: system.name,
          maxResults: 1,
        });
      } catch (error) {
        failure = error ?? new Error('the logon check failed');
      }
      const outcome = logonOutcome(system.name, failure);
      const password = passwords.get(system.name);
      if (outcome.verdict === 'accepted' && password) {
        this.#refusal = undefined;
        await storeAccepted(this.secrets, system, password);
      } else if (outcome.verdict === 'refused') {
        this.#refusal = outcome.message;
        void this.#offerRetyping();
      } else if (outcome.verdict === 'unknown') {
        void vscode.window.showWarningMessage(outcome.message);
      }
    }
  }

  /**
   * A request failed because the system refused the logon: when that is the password typed
   * at this start, the offer to type it again says so (once: a command failing for the same
   * reason adds no second message). False when nothing is known of it.
   * @returns {boolean}
   */
  logonRefused() {
    if (this.#refusal === undefined) {
      return false;
    }
    void this.#offerRetyping();
    return true;
  }

  /** One notification at a time: "… refused the logon … Enter it again?" [Enter Password]. */
  async #offerRetyping() {
    if (this.#offering || this.#refusal === undefined) {
      return;
    }
    this.#offering = true;
    const again = 'Enter Password';
    try {
      if ((await vscode.window.showErrorMessage(this.#refusal, again)) !== again) {
        return;
      }
    } finally {
      this.#offering = false;
    }
    this.#refusal = undefined;
    await this.restart();
  }

  #settings() {
    const configuration = vscode.workspace.getConfiguration(SECTION);
    return readSettings((key) =>
      key === 'serverCommand'
        ? userServerCommand(configuration.inspect(key)).value
        : configuration.get(key),
    );
  }
}

/**
 * What to do when the server process ends unasked (a crash, `kill -9`): start it again, and
 * its documents get their bases back (restoring.js). The language client's own handler gave
 * up at once when writing to the dead process failed before it noticed the end; here an
 * error on the connection never decides, only the end does, and the server is started again
 * unless it ended five times within three minutes.
 * @returns {import('vscode-languageclient').ErrorHandler}
 */
function crashHandler() {
  /** @type {number[]} */
  const ends = [];
  return {
    error: () => ({ action: ErrorAction.Continue }),
    closed: () => {
      const verdict = restartAfterCrash(ends, Date.now());
      return verdict.restart
        ? { action: CloseAction.Restart }
        : { action: CloseAction.DoNotRestart, message: verdict.message };
    },
  };
}

/**
 * Show a progress notification while `work` runs, once it took longer than a second (a slow
 * or unreachable system): the user sees what is being waited for.
 * @template T
 * @param {string} title
 * @param {Promise<T>} work
 * @returns {Promise<T>}
 */
function slowProgress(title, work) {
  const timer = setTimeout(() => {
    void vscode.window.withProgress({ location: vscode.ProgressLocation.Notification, title }, () =>
      work.then(
        () => undefined,
        () => undefined,
      ),
    );
  }, PROGRESS_DELAY_MS);
  return work.finally(() => clearTimeout(timer));
}

/**
 * @param {SystemSetting} system
 * @returns {Thenable<string | undefined>}
 */
function askPassword(system) {
  return vscode.window.showInputBox({
    title: `ABAP system ${system.name}`,
    prompt: `Password of ${system.user} at ${system.url} (stored in VS Code's secret storage once the system accepts it)`,
    password: true,
    ignoreFocusOut: true,
  });
}

module.exports = { ServerConnection };
