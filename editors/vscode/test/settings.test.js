// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const {
  DEFAULTS,
  checkSystems,
  initializationOptions,
  liveSettings,
  needsPassword,
  readSettings,
  serverCommand,
  startFailure,
  userServerCommand,
} = require('../src/settings');

/** @typedef {import('../src/settings').ExtensionSettings} ExtensionSettings */

const A4H = { name: 'A4H', url: 'https://a4h:44300', user: 'DEVELOPER' };

/**
 * @param {Partial<ExtensionSettings>} values
 * @returns {ExtensionSettings}
 */
function settings(values) {
  return readSettings((key) => /** @type {Record<string, unknown>} */ (values)[key]);
}

describe('readSettings', () => {
  it('falls back to the documented defaults', () => {
    assert.deepEqual(settings({}), {
      serverCommand: ['abap-adt', 'lsp'],
      systems: [],
      lockMode: 'onSave',
      pollInterval: 30,
      checkDelay: 0.5,
      mergeOnSave: 'ask',
    });
  });

  it('takes the values that are set, including 0', () => {
    const read = settings({ lockMode: 'onEdit', pollInterval: 0, systems: [A4H] });
    assert.equal(read.lockMode, 'onEdit');
    assert.equal(read.pollInterval, 0);
    assert.deepEqual(read.systems, [A4H]);
    assert.equal(read.checkDelay, DEFAULTS.checkDelay);
  });
});

describe('serverCommand', () => {
  it('splits the executable from its arguments', () => {
    assert.deepEqual(serverCommand(settings({ serverCommand: ['/venv/bin/abap-adt', 'lsp'] })), {
      command: '/venv/bin/abap-adt',
      args: ['lsp'],
    });
  });

  it('refuses an empty or non-string command line', () => {
    for (const value of [[], [''], 'abap-adt lsp', ['abap-adt', 3]]) {
      assert.throws(
        () =>
          serverCommand(/** @type {ExtensionSettings} */ ({ ...DEFAULTS, serverCommand: value })),
        /abapAdt\.serverCommand must be a list of strings/,
      );
    }
  });
});

describe('userServerCommand', () => {
  it('takes the User (or Remote) settings value', () => {
    assert.deepEqual(userServerCommand({ globalValue: ['/venv/bin/abap-adt', 'lsp'] }), {
      value: ['/venv/bin/abap-adt', 'lsp'],
      warning: undefined,
    });
    assert.deepEqual(userServerCommand(undefined), { value: undefined, warning: undefined });
  });

  it('ignores a workspace or folder value, and says so', () => {
    for (const inspection of [
      { workspaceValue: ['/tmp/evil', 'lsp'] },
      { globalValue: ['abap-adt', 'lsp'], workspaceFolderValue: ['/tmp/evil'] },
    ]) {
      const { value, warning } = userServerCommand(inspection);
      assert.equal(value, inspection.globalValue);
      assert.match(warning ?? '', /in the workspace settings is ignored.*User settings/);
    }
  });
});

describe('startFailure', () => {
  const commandLine = { command: 'abap-adt', args: ['lsp'] };

  it('tells how to install the server or where to set the command', () => {
    const message = startFailure(commandLine, 'spawn abap-adt ENOENT', false);
    assert.match(message, /^Could not start the ABAP language server \(abap-adt lsp\): spawn/);
    assert.match(message, /set abapAdt\.serverCommand in your User settings/);
  });

  it('points at the configured command when there is one', () => {
    const message = startFailure({ command: '/x/abap-adt', args: ['lsp'] }, 'ENOENT', true);
    assert.match(message, /\(\/x\/abap-adt lsp\): ENOENT\. Check abapAdt\.serverCommand/);
  });
});

describe('liveSettings', () => {
  it('holds exactly what the server takes at run time', () => {
    assert.deepEqual(liveSettings(settings({ lockMode: 'onEdit', checkDelay: 2 })), {
      lockMode: 'onEdit',
      pollInterval: 30,
      checkDelay: 2,
      mergeOnSave: 'ask',
    });
  });
});

describe('checkSystems', () => {
  it('keeps valid entries with only the known keys', () => {
    const entry = { ...A4H, client: '100', verifyTls: false, keyring: true, colour: 'blue' };
    const { systems, warnings } = checkSystems([entry]);
    assert.deepEqual(systems, [{ ...A4H, client: '100', verifyTls: false, keyring: true }]);
    assert.deepEqual(warnings, []);
  });

  it('passes the logon keys on and takes an OAuth system without url', () => {
    const sso = {
      ...A4H,
      logon: 'browser',
      loginPath: '/sap/bc/sec/reentrance',
      tokenFile: '~/tokens.json',
      rememberLogon: true,
    };
    const btp = { name: 'BTP', user: 'me@example.com', logon: 'oauth', serviceKey: '~/key.json' };
    const pki = { ...A4H, name: 'PKI', logon: 'certificate', certificate: 'me.p12' };
    const { systems, warnings } = checkSystems([
      sso,
      btp,
      { ...pki, passphraseEnv: 'P12_PASSPHRASE' },
      { name: 'NOURL', user: 'ME', logon: 'browser' },
    ]);
    assert.deepEqual(systems, [sso, btp, { ...pki, passphraseEnv: 'P12_PASSPHRASE' }]);
    assert.deepEqual(warnings, ['abapAdt.systems[3] has no url: left out.']);
  });

  it('drops a clear-text password and says so', () => {
    const { systems, warnings } = checkSystems([{ ...A4H, password: 'hunter2' }]);
    assert.deepEqual(systems, [A4H]);
    assert.equal(warnings.length, 1);
    assert.match(warnings[0], /abapAdt\.systems\[0\] \(A4H\) has a password/);
    assert.doesNotMatch(warnings[0], /hunter2/);
  });

  it('leaves out incomplete entries, duplicates (any case) and non-objects', () => {
    const { systems, warnings } = checkSystems([
      A4H,
      { name: 'DEV', url: 'https://dev' },
      { ...A4H, name: 'a4h' },
      'A4H',
    ]);
    assert.deepEqual(systems, [A4H]);
    assert.deepEqual(warnings, [
      'abapAdt.systems[1] has no user: left out.',
      'abapAdt.systems[2]: the system name a4h is used twice: left out.',
      'abapAdt.systems[3] is not an object: left out.',
    ]);
  });
});

describe('needsPassword', () => {
  it('is false when the server has an environment variable or the keyring', () => {
    assert.equal(needsPassword(A4H), true);
    assert.equal(needsPassword({ ...A4H, passwordEnv: 'A4H_PASSWORD' }), false);
    assert.equal(needsPassword({ ...A4H, keyring: true }), false);
    assert.equal(needsPassword({ ...A4H, keyring: false }), true);
  });

  it('is false for a certificate, OAuth or browser logon, true for basic', () => {
    assert.equal(needsPassword({ ...A4H, logon: 'basic' }), true);
    for (const logon of /** @type {const} */ (['certificate', 'oauth', 'browser'])) {
      assert.equal(needsPassword({ ...A4H, logon }), false, logon);
    }
  });
});

describe('initializationOptions', () => {
  const dev = { name: 'DEV', url: 'https://dev', user: 'ME', passwordEnv: 'DEV_PASSWORD' };
  const qas = { name: 'QAS', url: 'https://qas', user: 'ME' };

  it('adds the stored passwords and the live settings', () => {
    const { options, withoutPassword } = initializationOptions(
      settings({ lockMode: 'onEdit' }),
      [A4H, dev],
      new Map([['A4H', 's3cret']]),
    );
    assert.deepEqual(options, {
      systems: [{ ...A4H, password: 's3cret' }, dev],
      lockMode: 'onEdit',
      pollInterval: 30,
      checkDelay: 0.5,
      mergeOnSave: 'ask',
    });
    assert.deepEqual(withoutPassword, []);
  });

  it('leaves out a system whose password is missing, keeping the others', () => {
    const { options, withoutPassword } = initializationOptions(
      settings({}),
      [A4H, qas, dev],
      new Map([['A4H', 's3cret']]),
    );
    assert.deepEqual(
      /** @type {{name: string}[]} */ (options.systems).map((system) => system.name),
      ['A4H', 'DEV'],
    );
    assert.deepEqual(withoutPassword, ['QAS']);
  });

  it('never sends a password to a system that reads its own', () => {
    const { options } = initializationOptions(settings({}), [dev], new Map([['DEV', 'x']]));
    assert.deepEqual(options.systems, [dev]);
  });
});
