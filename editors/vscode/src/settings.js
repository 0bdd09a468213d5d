// @ts-check
'use strict';

/**
 * The extension's settings (`abapAdt.*`) and what the language server receives from them:
 * `initializationOptions` at start and the `abap-adt` section of
 * `workspace/didChangeConfiguration` afterwards (docs/lsp-protocol.md, "Settings").
 */

/** @typedef {import('./protocol').LiveSettings} LiveSettings */

const SECTION = 'abapAdt';
/** The section name the server reads in `workspace/didChangeConfiguration`. */
const SERVER_SECTION = 'abap-adt';

/**
 * @typedef {object} SystemSetting
 * @property {string} name
 * @property {string} url
 * @property {string} user
 * @property {string} [client]
 * @property {string} [language]
 * @property {boolean | string} [verifyTls] false, or the path of a CA bundle
 * @property {string} [passwordEnv] the environment variable holding the password
 * @property {boolean} [keyring] the server reads the password from the OS keyring
 * @property {'basic' | 'certificate' | 'oauth' | 'browser'} [logon] how the system logs on
 * @property {string} [certificate] logon certificate: the certificate file
 * @property {string} [key] logon certificate: the key file
 * @property {string} [passphraseEnv] logon certificate: the passphrase's variable
 * @property {boolean} [passphraseKeyring] logon certificate: the passphrase is in the keyring
 * @property {string} [serviceKey] logon oauth: the service key file (it names the URL)
 * @property {string} [loginPath] logon browser: the system's reentrance service
 * @property {string} [tokenFile] logon oauth/browser: where the logon is remembered without
 *   an OS keyring (a file only you may read)
 * @property {boolean} [rememberLogon] logon oauth/browser: false keeps it in memory only
 */

/**
 * @typedef {object} ExtensionSettings
 * @property {string[]} serverCommand
 * @property {SystemSetting[]} systems
 * @property {'onSave' | 'onEdit'} lockMode
 * @property {number} pollInterval
 * @property {number} checkDelay
 * @property {'ask' | 'auto'} mergeOnSave
 */

/** @type {Readonly<ExtensionSettings>} */
const DEFAULTS = Object.freeze({
  serverCommand: ['abap-adt', 'lsp'],
  systems: [],
  lockMode: 'onSave',
  pollInterval: 30,
  checkDelay: 0.5,
  mergeOnSave: 'ask',
});

/** Settings the running server cannot take over: changing them needs a restart. */
const RESTART_SETTINGS = Object.freeze(['serverCommand', 'systems']);

/** What a system entry may pass on to the server; never a password from settings.json. */
const SYSTEM_KEYS = Object.freeze([
  'name',
  'url',
  'user',
  'client',
  'language',
  'verifyTls',
  'passwordEnv',
  'keyring',
  'logon',
  'certificate',
  'key',
  'passphraseEnv',
  'passphraseKeyring',
  'serviceKey',
  'loginPath',
  'tokenFile',
  'rememberLogon',
]);

/**
 * Read the settings, falling back to the defaults for missing values.
 * @param {(key: string) => unknown} get the value of `abapAdt.<key>`, undefined when unset
 * @returns {ExtensionSettings}
 */
function readSettings(get) {
  /** @type {Record<string, unknown>} */
  const values = {};
  for (const [key, fallback] of Object.entries(DEFAULTS)) {
    const value = get(key);
    values[key] = value === undefined || value === null ? fallback : value;
  }
  return /** @type {ExtensionSettings} */ (values);
}

/**
 * The executable and its arguments.
 * @param {ExtensionSettings} settings
 * @returns {{command: string, args: string[]}}
 * @throws {Error} when `serverCommand` is not a non-empty list of strings
 */
function serverCommand(settings) {
  const [command, ...args] = Array.isArray(settings.serverCommand) ? settings.serverCommand : [];
  if (typeof command !== 'string' || !command || !args.every((arg) => typeof arg === 'string')) {
    throw new Error(
      `${SECTION}.serverCommand must be a list of strings such as ["abap-adt", "lsp"], ` +
        `not ${JSON.stringify(settings.serverCommand)}`,
    );
  }
  return { command, args };
}

/**
 * What `WorkspaceConfiguration.inspect` reports of one setting (the fields used here).
 * @typedef {object} SettingInspection
 * @property {unknown} [globalValue] User settings, or Remote settings in a remote window
 * @property {unknown} [workspaceValue]
 * @property {unknown} [workspaceFolderValue]
 */

/**
 * The server command of the User (or Remote) settings. A workspace must not choose which
 * program the extension runs, so a value in workspace or folder settings is ignored, and
 * said so.
 * @param {SettingInspection | undefined} inspection of `abapAdt.serverCommand`
 * @returns {{value: unknown, warning: string | undefined}}
 */
function userServerCommand(inspection) {
  const fromWorkspace =
    inspection?.workspaceFolderValue !== undefined || inspection?.workspaceValue !== undefined;
  return {
    value: inspection?.globalValue,
    warning: fromWorkspace
      ? `${SECTION}.serverCommand in the workspace settings is ignored: a workspace does not ` +
        'choose which program runs. Set it in your User settings.'
      : undefined,
  };
}

/**
 * Why the server did not start, and what to do.
 * @param {{command: string, args: string[]}} commandLine
 * @param {string} reason
 * @param {boolean} configured whether the User settings name the command
 * @returns {string}
 */
function startFailure(commandLine, reason, configured) {
  const line = [commandLine.command, ...commandLine.args].join(' ');
  const fix = configured
    ? `Check ${SECTION}.serverCommand in your User settings.`
    : `Install abap-adt (pip install -e . in the abap-adt repository) so that \`abap-adt\` is ` +
      `on the PATH of VS Code's extension host, or set ${SECTION}.serverCommand in your ` +
      'User settings (Preferences: Open User Settings), e.g. ["/path/to/.venv/bin/abap-adt", "lsp"].';
  return `Could not start the ABAP language server (${line}): ${reason}. ${fix}`;
}

/**
 * @param {ExtensionSettings} settings
 * @returns {LiveSettings}
 */
function liveSettings(settings) {
  return {
    lockMode: settings.lockMode,
    pollInterval: settings.pollInterval,
    checkDelay: settings.checkDelay,
    mergeOnSave: settings.mergeOnSave,
  };
}

/**
 * The systems worth sending and warnings about the others. An entry without name, url or
 * user, or with a name used before, would make the server refuse the whole configuration, so
 * it is left out here; a clear-text password is dropped.
 * @param {unknown[]} entries
 * @returns {{systems: SystemSetting[], warnings: string[]}}
 */
function checkSystems(entries) {
  /** @type {SystemSetting[]} */
  const systems = [];
  /** @type {string[]} */
  const warnings = [];
  const seen = new Set();
  entries.forEach((entry, index) => {
    const where = `${SECTION}.systems[${index}]`;
    if (typeof entry !== 'object' || entry === null) {
      warnings.push(`${where} is not an object: left out.`);
      return;
    }
    const system = /** @type {Record<string, unknown>} */ (entry);
    // an OAuth system's URL is in its service key
    const required = system.logon === 'oauth' ? ['name', 'user'] : ['name', 'url', 'user'];
    const missing = required.filter((key) => typeof system[key] !== 'string' || !system[key]);
    if (missing.length) {
      warnings.push(`${where} has no ${missing.join(', ')}: left out.`);
      return;
    }
    const name = /** @type {string} */ (system.name);
    if (seen.has(name.toLowerCase())) {
      warnings.push(`${where}: the system name ${name} is used twice: left out.`);
      return;
    }
    seen.add(name.toLowerCase());
    if ('password' in system) {
      warnings.push(
        `${where} (${name}) has a password in the settings: it is ignored. Remove it; ` +
          "passwords are kept in VS Code's secret storage.",
      );
    }
    /** @type {Record<string, unknown>} */
    const kept = {};
    for (const key of SYSTEM_KEYS) {
      if (system[key] !== undefined) {
        kept[key] = system[key];
      }
    }
    systems.push(/** @type {SystemSetting} */ (kept));
  });
  return { systems, warnings };
}

/**
 * Whether the extension must supply the password: a system that logs on with user and
 * password (no certificate, OAuth or browser logon) and reads it from no environment variable
 * and no keyring.
 * @param {SystemSetting} system
 * @returns {boolean}
 */
function needsPassword(system) {
  const basic = system.logon === undefined || system.logon === 'basic';
  return basic && !system.passwordEnv && !system.keyring;
}

/**
 * The `initializationOptions` of the server. A system that needs a password and has none
 * (the prompt was cancelled) is left out, so the other systems still work.
 * @param {ExtensionSettings} settings
 * @param {SystemSetting[]} systems checked by {@link checkSystems}
 * @param {ReadonlyMap<string, string>} passwords by system name
 * @returns {{options: Record<string, unknown>, withoutPassword: string[]}}
 */
function initializationOptions(settings, systems, passwords) {
  /** @type {Record<string, unknown>[]} */
  const entries = [];
  /** @type {string[]} */
  const withoutPassword = [];
  for (const system of systems) {
    const password = passwords.get(system.name);
    if (!needsPassword(system)) {
      entries.push({ ...system });
    } else if (password) {
      entries.push({ ...system, password });
    } else {
      withoutPassword.push(system.name);
    }
  }
  return { options: { systems: entries, ...liveSettings(settings) }, withoutPassword };
}

module.exports = {
  SECTION,
  SERVER_SECTION,
  DEFAULTS,
  RESTART_SETTINGS,
  readSettings,
  serverCommand,
  userServerCommand,
  startFailure,
  liveSettings,
  checkSystems,
  needsPassword,
  initializationOptions,
};
