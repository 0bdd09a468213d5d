// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { collectPasswords, secretKey, storeAccepted } = require('../src/passwords');

/** @typedef {import('../src/settings').SystemSetting} SystemSetting */

const A4H = { name: 'A4H', url: 'https://a4h:44300', user: 'DEVELOPER' };
const DEV = { name: 'DEV', url: 'https://dev', user: 'ME', passwordEnv: 'DEV_PASSWORD' };

/** An in-memory stand-in for the part of VS Code's SecretStorage that is used (get/store). */
class MemoryStore {
  /** @type {Map<string, string>} */
  values = new Map();

  /** @param {string} key */
  async get(key) {
    return this.values.get(key);
  }

  /** @param {string} key @param {string} value */
  async store(key, value) {
    this.values.set(key, value);
  }
}

/**
 * A prompt that answers from a list and records whom it asked.
 * @param {Array<string | undefined>} answers
 */
function prompt(answers) {
  /** @type {string[]} */
  const asked = [];
  /** @param {SystemSetting} system */
  const ask = async (system) => {
    asked.push(system.name);
    return answers.shift();
  };
  return { ask, asked };
}

describe('secretKey', () => {
  it('depends on system, user and URL', () => {
    const key = secretKey(A4H);
    assert.equal(key, 'abapAdt.password:A4H:DEVELOPER@https://a4h:44300');
    assert.notEqual(secretKey({ ...A4H, user: 'OTHER' }), key);
    assert.notEqual(secretKey({ ...A4H, url: 'https://elsewhere' }), key);
  });
});

describe('collectPasswords', () => {
  it('asks once, keeps the answer unstored until the logon worked, then reuses it', async () => {
    const store = new MemoryStore();
    const first = prompt(['s3cret']);
    const collected = await collectPasswords([A4H], store, first.ask);
    assert.deepEqual([...collected.passwords], [['A4H', 's3cret']]);
    assert.deepEqual(collected.typed, [A4H]);
    assert.deepEqual(first.asked, ['A4H']);
    assert.equal(store.values.size, 0, 'nothing is stored before the logon check');

    await storeAccepted(store, A4H, 's3cret');
    assert.equal(store.values.get(secretKey(A4H)), 's3cret');
    const second = prompt([]);
    const again = await collectPasswords([A4H], store, second.ask);
    assert.equal(again.passwords.get('A4H'), 's3cret');
    assert.deepEqual(again.typed, []);
    assert.deepEqual(second.asked, []);
  });

  it('asks again at the next start when the typed password was not accepted', async () => {
    const store = new MemoryStore();
    await collectPasswords([A4H], store, prompt(['wrong']).ask);
    const next = prompt(['right']);
    const collected = await collectPasswords([A4H], store, next.ask);
    assert.deepEqual(next.asked, ['A4H']);
    assert.equal(collected.passwords.get('A4H'), 'right');
  });

  it('does not ask for systems that read their own password', async () => {
    const store = new MemoryStore();
    const { ask, asked } = prompt([]);
    const collected = await collectPasswords([DEV, { ...A4H, keyring: true }], store, ask);
    assert.equal(collected.passwords.size, 0);
    assert.deepEqual(asked, []);
  });

  it('keeps nothing when the prompt is cancelled or left empty', async () => {
    const store = new MemoryStore();
    const qas = { ...A4H, name: 'QAS' };
    const { ask, asked } = prompt([undefined, '']);
    const collected = await collectPasswords([A4H, qas], store, ask);
    assert.equal(collected.passwords.size, 0);
    assert.deepEqual(collected.typed, []);
    assert.deepEqual(asked, ['A4H', 'QAS']);
    assert.equal(store.values.size, 0);
  });
});
