// @ts-check
'use strict';

/**
 * The grammars of CDS (abap-cds), behavior definitions (abap-bdef), service definitions
 * (abap-srvd) and dictionary sources (abap-ddic), tokenized by vscode-textmate with Oniguruma
 * as VS Code does; skipped without `npm ci` (tests/editors/test_vscode.py installs it).
 */

const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { before, describe, it } = require('node:test');

/** @returns {any} */
function load(/** @type {string} */ name) {
  try {
    return require(name);
  } catch {
    return undefined;
  }
}

const textmate = load('vscode-textmate');
const oniguruma = load('vscode-oniguruma');
const skip = textmate && oniguruma ? false : 'vscode-textmate is not installed (npm ci)';
const SYNTAXES = path.join(__dirname, '..', 'syntaxes');
const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));

/** @type {Record<string, any>} */
const grammars = {};

/**
 * [text, innermost scope] of each non-blank token.
 * @param {string} language
 * @param {string} source
 * @returns {Array<[string, string]>}
 */
function tokens(language, source) {
  /** @type {Array<[string, string]>} */
  const found = [];
  let stack = textmate.INITIAL;
  for (const line of source.split('\n')) {
    const result = grammars[language].tokenizeLine(line, stack);
    for (const token of result.tokens) {
      const text = line.slice(token.startIndex, token.endIndex).trim();
      if (text) {
        found.push([text, token.scopes[token.scopes.length - 1]]);
      }
    }
    stack = result.ruleStack;
  }
  return found;
}

/** @param {string} language @param {string} source @param {string} text */
function scopeOf(language, source, text) {
  const token = tokens(language, source).find(([candidate]) => candidate === text);
  assert.ok(
    token,
    `no token ${JSON.stringify(text)} in ${JSON.stringify(tokens(language, source))}`,
  );
  return token[1];
}

const VIEW = `@AccessControl.authorizationCheck: #NOT_REQUIRED
define root view entity /DMO/I_Travel_M as select from /dmo/travel as Travel
  association [0..1] to /DMO/I_Agency as _Agency on $projection.AgencyID = _Agency.AgencyID
{
  key travel_id as TravelID, // the key
  cast( total_price as abap.dec(16,2) ) as Price, /* computed */
  'X' as Flag
}`;

describe('CDS, RAP and dictionary grammars', { skip }, () => {
  before(async () => {
    const wasm = readFileSync(
      path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'),
    );
    await oniguruma.loadWASM(wasm.buffer);
    for (const { language, scopeName, path: file } of manifest.contributes.grammars) {
      const full = path.join(__dirname, '..', file);
      const registry = new textmate.Registry({
        onigLib: Promise.resolve({
          createOnigScanner: (/** @type {string[]} */ s) => new oniguruma.OnigScanner(s),
          createOnigString: (/** @type {string} */ t) => new oniguruma.OnigString(t),
        }),
        loadGrammar: async () => textmate.parseRawGrammar(readFileSync(full, 'utf8'), full),
      });
      grammars[language] = await registry.loadGrammar(scopeName);
    }
  });

  it('registers a grammar of ours for each language', () => {
    for (const id of ['abap-cds', 'abap-bdef', 'abap-srvd', 'abap-ddic']) {
      assert.ok(grammars[id], id);
      assert.ok(readFileSync(path.join(SYNTAXES, `${id}.tmLanguage.json`), 'utf8'));
    }
  });

  it('colours a CDS view: annotations, keywords, associations, comments, types', () => {
    assert.equal(
      scopeOf('abap-cds', VIEW, '@AccessControl.authorizationCheck'),
      'storage.type.annotation.cds',
    );
    assert.equal(scopeOf('abap-cds', VIEW, '#NOT_REQUIRED'), 'constant.other.enum.cds');
    assert.equal(scopeOf('abap-cds', VIEW, 'define'), 'keyword.control.abap-cds');
    assert.equal(scopeOf('abap-cds', VIEW, '[0..1]'), 'constant.other.cardinality.cds');
    assert.equal(scopeOf('abap-cds', VIEW, '$projection'), 'variable.language.cds');
    assert.equal(scopeOf('abap-cds', VIEW, '_Agency'), 'variable.other.association.cds');
    assert.equal(scopeOf('abap-cds', VIEW, '// the key'), 'comment.line.double-slash.cds');
    assert.equal(scopeOf('abap-cds', VIEW, 'abap.dec'), 'support.type.cds');
    assert.equal(scopeOf('abap-cds', VIEW, 'computed'), 'comment.block.cds');
    assert.equal(scopeOf('abap-cds', VIEW, 'X'), 'string.quoted.single.cds');
    assert.equal(scopeOf('abap-cds', VIEW, 'Flag'), 'source.abap.cds');
  });

  it('colours a behavior definition, a service definition and a table', () => {
    const bdef =
      'managed implementation in class /dmo/bp_travel_m unique;\n' +
      'define behavior for /DMO/I_Travel_M alias travel\n{\n  create; update;\n  action acceptTravel result [1] $self;\n}';
    assert.equal(scopeOf('abap-bdef', bdef, 'managed'), 'keyword.control.abap-bdef');
    assert.equal(scopeOf('abap-bdef', bdef, 'action'), 'keyword.control.abap-bdef');
    assert.notEqual(scopeOf('abap-bdef', bdef, 'acceptTravel'), 'keyword.control.abap-bdef');
    const srvd =
      "@EndUserText.label: 'Travel'\ndefine service /DMO/UI_TRAVEL_M {\n  expose /DMO/C_Travel_M as Travel;\n}";
    assert.equal(scopeOf('abap-srvd', srvd, 'expose'), 'keyword.control.abap-srvd');
    assert.equal(scopeOf('abap-srvd', srvd, "'Travel'".slice(1, -1)), 'string.quoted.single.cds');
    const table =
      'define table /dmo/travel {\n  key client : abap.clnt not null;\n  include /dmo/s_admin;\n}';
    assert.equal(scopeOf('abap-ddic', table, 'key'), 'keyword.control.abap-ddic');
    assert.equal(scopeOf('abap-ddic', table, 'abap.clnt'), 'support.type.cds');
    assert.equal(scopeOf('abap-ddic', table, 'include'), 'keyword.control.abap-ddic');
  });
});
