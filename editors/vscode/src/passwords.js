// @ts-check
'use strict';

/**
 * Passwords of the configured systems, kept in VS Code's SecretStorage (`context.secrets`).
 * Asked once per system, user and URL; handed to the server in memory only; stored only
 * after the system accepted the logon, so a mistyped password is never kept.
 */

const { needsPassword } = require('./settings');

/** @typedef {import('./settings').SystemSetting} SystemSetting */

/**
 * The part of VS Code's `SecretStorage` used here.
 * @typedef {object} SecretStore
 * @property {(key: string) => PromiseLike<string | undefined>} get
 * @property {(key: string, value: string) => PromiseLike<void>} store
 */

/**
 * @typedef {object} CollectedPasswords
 * @property {Map<string, string>} passwords by system name, stored and newly typed ones
 * @property {SystemSetting[]} typed the systems whose password was typed now (not stored yet)
 */

/**
 * The secret's key. The URL is part of it, so a system entry pointing elsewhere (a workspace
 * setting, say) never receives a password that was given for another server.
 * @param {SystemSetting} system
 * @returns {string}
 */
function secretKey(system) {
  return `abapAdt.password:${system.name}:${system.user}@${system.url}`;
}

/**
 * The stored password of each system that needs one, asking for the missing ones. A typed
 * password is not stored here: {@link storeAccepted} does that once the logon worked. An
 * empty or cancelled answer leaves the system without a password.
 * @param {SystemSetting[]} systems
 * @param {SecretStore} store
 * @param {(system: SystemSetting) => PromiseLike<string | undefined>} ask
 * @returns {Promise<CollectedPasswords>}
 */
async function collectPasswords(systems, store, ask) {
  /** @type {Map<string, string>} */
  const passwords = new Map();
  /** @type {SystemSetting[]} */
  const typed = [];
  for (const system of systems.filter(needsPassword)) {
    let password = await store.get(secretKey(system));
    if (!password) {
      password = await ask(system);
      if (password) {
        typed.push(system);
      }
    }
    if (password) {
      passwords.set(system.name, password);
    }
  }
  return { passwords, typed };
}

/**
 * Keep a typed password after the system accepted it.
 * @param {SecretStore} store
 * @param {SystemSetting} system
 * @param {string} password
 */
async function storeAccepted(store, system, password) {
  await store.store(secretKey(system), password);
}

module.exports = { secretKey, collectPasswords, storeAccepted };
