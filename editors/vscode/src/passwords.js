// @ts-check
'use strict';

/**
 * Passwords of the configured systems, kept in VS Code's SecretStorage (`context.secrets`).
 * Asked once per system, user and URL; handed to the server in memory only.
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
 * The secret's key. The URL is part of it, so a system entry pointing elsewhere (a workspace
 * setting, say) never receives a password that was given for another server.
 * @param {SystemSetting} system
 * @returns {string}
 */
function secretKey(system) {
  return `abapAdt.password:${system.name}:${system.user}@${system.url}`;
}

/**
 * The stored password of each system that needs one, asking for the missing ones. An empty
 * or cancelled answer leaves the system without a password (and stores nothing).
 * @param {SystemSetting[]} systems
 * @param {SecretStore} store
 * @param {(system: SystemSetting) => PromiseLike<string | undefined>} ask
 * @returns {Promise<Map<string, string>>} by system name
 */
async function collectPasswords(systems, store, ask) {
  /** @type {Map<string, string>} */
  const passwords = new Map();
  for (const system of systems.filter(needsPassword)) {
    const key = secretKey(system);
    let password = await store.get(key);
    if (!password) {
      password = await ask(system);
      if (password) {
        await store.store(key, password);
      }
    }
    if (password) {
      passwords.set(system.name, password);
    }
  }
  return passwords;
}

module.exports = { secretKey, collectPasswords };
