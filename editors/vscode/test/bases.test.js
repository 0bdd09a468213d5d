// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { createHash } = require('node:crypto');
const { describe, it } = require('node:test');
const { DocumentBases, textMatchesToken } = require('../src/bases');

const URI = 'adt://A4H/sap/bc/adt/programs/programs/zdemo_report/source/main';

/**
 * A token as the server makes it (adt/source/token.py).
 * @param {string} text
 * @param {number} [at]
 */
function token(text, at = 1795175036000) {
  return `${at}_${createHash('sha256').update(text.replace(/\r\n?/g, '\n')).digest('hex').slice(0, 16)}`;
}

const READ = 'REPORT zdemo_report.\nWRITE 1.\n';

describe('textMatchesToken', () => {
  it('compares the content hash of the token, whatever the line ends', () => {
    assert.equal(textMatchesToken(READ, token(READ)), true);
    assert.equal(textMatchesToken(READ.replace(/\n/g, '\r\n'), token(READ)), true);
    assert.equal(textMatchesToken(`${READ}* more\n`, token(READ)), false);
    assert.equal(textMatchesToken('', '0_empty'), true);
    assert.equal(textMatchesToken('x', 'not a token'), false);
  });
});

describe('DocumentBases', () => {
  it('restores nothing into the server that read the document', () => {
    const bases = new DocumentBases();
    bases.nextGeneration();
    bases.read(URI, { token: token(READ), text: READ });
    assert.equal(bases.restoreParams(URI, `* mine\n${READ}`, true), undefined);
  });

  it('gives a restarted server the version the unsaved edits started from', () => {
    const bases = new DocumentBases();
    bases.nextGeneration();
    bases.read(URI, { token: token(READ), text: READ }, { mtime: 5, size: 30 });
    bases.nextGeneration(); // crash, restart command
    assert.deepEqual(bases.restoreParams(URI, `* mine\n${READ}`, true), {
      uri: URI,
      baseToken: token(READ),
      baseText: READ,
    });
    assert.equal(bases.restoreParams(URI, `* mine\n${READ}`, true), undefined, 'once per start');
  });

  it('follows a save: the saved text is the base when its hash is the new token', () => {
    const bases = new DocumentBases();
    bases.nextGeneration();
    bases.read(URI, { token: token(READ), text: READ });
    const saved = `* saved\n${READ}`;
    bases.moved(URI, token(saved, 2), saved);
    bases.nextGeneration();
    assert.deepEqual(bases.restoreParams(URI, `* typed\n${saved}`, true), {
      uri: URI,
      baseToken: token(saved, 2),
      baseText: saved,
    });
  });

  it('finds the base text in the next changes when the server moves the editor later', () => {
    const bases = new DocumentBases();
    bases.nextGeneration();
    bases.read(URI, { token: token(READ), text: READ });
    const normalised = 'REPORT zdemo_report.\nWRITE 2.\n';
    bases.moved(URI, token(normalised, 3), 'REPORT zdemo_report.\nWRITE 2.   \n');
    assert.equal(bases.get(URI)?.text, undefined, 'not sure yet');
    bases.changed(URI, () => normalised, false);
    assert.equal(bases.get(URI)?.text, normalised);
  });

  it('sends the token alone when the base text is not known (an agent edit under typing)', () => {
    const bases = new DocumentBases();
    bases.nextGeneration();
    bases.read(URI, { token: token(READ), text: READ });
    bases.moved(URI, token('agent\n', 4), `* mine\n${READ}`);
    for (let typed = 0; typed < 5; typed += 1) {
      bases.changed(URI, () => `* mine ${typed}\n${READ}`, true);
    }
    bases.nextGeneration();
    assert.deepEqual(bases.restoreParams(URI, `* mine\n${READ}`, true), {
      uri: URI,
      baseToken: token('agent\n', 4),
    });
  });

  it('keeps the bases of unsaved documents for a window reload, and restores them', () => {
    const bases = new DocumentBases();
    bases.nextGeneration();
    bases.read(URI, { token: token(READ), text: READ }, { mtime: 5, size: 30 });
    const other = URI.replace('zdemo_report', 'zother');
    bases.read(other, { token: token('x\n'), text: 'x\n' });
    const kept = bases.persistable((uri) => uri === URI);
    assert.deepEqual(Object.keys(kept), [URI]);
    const reloaded = new DocumentBases(JSON.parse(JSON.stringify(kept)));
    reloaded.nextGeneration();
    // VS Code may read the file while it restores the unsaved editor: the old base stays
    const theirs = `* COLLEAGUE\n${READ}`;
    assert.equal(reloaded.read(URI, { token: token(theirs, 9), text: theirs }), false);
    assert.equal(reloaded.get(URI)?.mtime, 5);
    assert.deepEqual(reloaded.restoreParams(URI, `* mine\n${READ}`, true), {
      uri: URI,
      baseToken: token(READ),
      baseText: READ,
    });
  });

  it('drops a kept base that a clean document no longer shows (it was read again)', () => {
    const reloaded = new DocumentBases({
      [URI]: { token: token(READ), text: READ, generation: 4 },
    });
    reloaded.nextGeneration();
    const theirs = `* COLLEAGUE\n${READ}`;
    assert.equal(reloaded.restoreParams(URI, theirs, false), undefined);
    assert.equal(reloaded.get(URI), undefined);
  });

  it('re-bases on a revert: the text read again, once the clean document shows it', () => {
    const bases = new DocumentBases();
    bases.nextGeneration();
    bases.read(URI, { token: token(READ), text: READ });
    const theirs = `* COLLEAGUE\n${READ}`;
    // "Compare with Saved" reads too, and the document stays dirty: the base does not move
    bases.read(URI, { token: token(theirs, 7), text: theirs }, undefined, true);
    assert.equal(
      bases.changed(URI, () => `* mine\n${READ}`, true),
      undefined,
    );
    assert.equal(bases.get(URI)?.token, token(READ));
    // Revert File: read, then the document shows that text, clean
    bases.read(URI, { token: token(theirs, 7), text: theirs }, { mtime: 7, size: 40 }, true);
    assert.deepEqual(
      bases.changed(URI, () => theirs, false),
      {
        uri: URI,
        baseToken: token(theirs, 7),
        baseText: theirs,
      },
    );
    assert.equal(bases.get(URI)?.token, token(theirs, 7));
    assert.equal(
      bases.changed(URI, () => `* typed\n${theirs}`, true),
      undefined,
    );
  });
});
