// @ts-check
'use strict';

/**
 * The ABAP grammar, tokenized by vscode-textmate with the Oniguruma engine (what VS Code
 * runs). Both are dev dependencies: without `npm ci` these tests are skipped, and
 * tests/editors/test_vscode.py runs them after installing.
 */

const assert = require('node:assert/strict');
const { readFileSync } = require('node:fs');
const path = require('node:path');
const { before, describe, it } = require('node:test');

const GRAMMAR = path.join(__dirname, '..', 'syntaxes', 'abap.tmLanguage.json');

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

/** @type {any} */
let grammar;

/**
 * The tokens of some lines: [text without blanks, the innermost scope], blank ones left out.
 * @param {string} source
 * @returns {Array<[string, string]>}
 */
function tokens(source) {
  /** @type {Array<[string, string]>} */
  const found = [];
  let stack = textmate.INITIAL;
  for (const line of source.split('\n')) {
    const result = grammar.tokenizeLine(line, stack);
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

/**
 * The scope of the first token with exactly this text.
 * @param {string} source
 * @param {string} text
 */
function scopeOf(source, text) {
  const token = tokens(source).find(([candidate]) => candidate === text);
  assert.ok(token, `no token ${JSON.stringify(text)} in ${JSON.stringify(tokens(source))}`);
  return token[1];
}

describe('ABAP grammar', { skip }, () => {
  before(async () => {
    const wasm = readFileSync(
      path.join(path.dirname(require.resolve('vscode-oniguruma')), 'onig.wasm'),
    );
    await oniguruma.loadWASM(wasm.buffer);
    const registry = new textmate.Registry({
      onigLib: Promise.resolve({
        createOnigScanner: (/** @type {string[]} */ sources) => new oniguruma.OnigScanner(sources),
        createOnigString: (/** @type {string} */ text) => new oniguruma.OnigString(text),
      }),
      loadGrammar: async () => textmate.parseRawGrammar(readFileSync(GRAMMAR, 'utf8'), GRAMMAR),
    });
    grammar = await registry.loadGrammar('source.abap');
  });

  it('is the grammar the manifest contributes for the abap language', () => {
    const manifest = JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8'));
    assert.deepEqual(
      manifest.contributes.grammars.filter((/** @type {any} */ g) => g.language === 'abap'),
      [{ language: 'abap', scopeName: 'source.abap', path: './syntaxes/abap.tmLanguage.json' }],
    );
    assert.equal(grammar.tokenizeLine('', textmate.INITIAL).tokens[0].scopes[0], 'source.abap');
  });

  it('knows both kinds of comment, only a star in the first column', () => {
    assert.equal(scopeOf('* whole line', '* whole line'), 'comment.line.full-line.abap');
    assert.equal(
      scopeOf('DATA x TYPE i. " the rest', '" the rest'),
      'comment.line.double-quote.abap',
    );
    assert.equal(scopeOf('  x = a * b.', '*'), 'keyword.operator.abap');
    assert.equal(scopeOf("WRITE 'a \" b'.", "'"), 'string.quoted.single.abap');
  });

  it('reads keywords in any case, but never inside a name', () => {
    assert.equal(scopeOf('loop at lt_x into data(ls_x).', 'loop'), 'keyword.other.abap');
    assert.equal(scopeOf('LOOP AT lt_x INTO DATA(ls_x).', 'DATA'), 'keyword.other.abap');
    for (const source of [
      'x = ls_row-data.',
      'x = lo_obj->data.',
      'x = zif_y~data.',
      'x = is_data.',
    ]) {
      assert.ok(
        !tokens(source).some(
          ([text, scope]) => /data/i.test(text) && scope === 'keyword.other.abap',
        ),
        source,
      );
    }
    assert.equal(scopeOf('START-OF-SELECTION.', 'START-OF-SELECTION'), 'keyword.other.abap');
  });

  it('quotes with escapes, and embeds expressions in string templates', () => {
    assert.equal(scopeOf("x = 'it''s'.", "''"), 'constant.character.escape.abap');
    assert.equal(scopeOf('x = `a``b`.', '``'), 'constant.character.escape.abap');
    const template = tokens('x = |Hello { lv_name }! \\| done|.');
    assert.deepEqual(
      template.map(([text]) => text),
      ['x', '=', '|', 'Hello', '{', 'lv_name', '}', '!', '\\|', 'done', '|', '.'],
    );
    assert.equal(scopeOf('x = |a{ lv_name }b|.', 'lv_name'), 'meta.embedded.expression.abap');
    assert.equal(scopeOf('x = |a{ lv_name }b|.', 'b'), 'string.interpolated.template.abap');
  });

  it('names classes, methods and forms where they are declared', () => {
    const source = [
      'CLASS zcl_demo DEFINITION PUBLIC FINAL CREATE PUBLIC.',
      '  PUBLIC SECTION.',
      '    METHODS greet IMPORTING iv_name TYPE string RETURNING VALUE(rv) TYPE string.',
      'ENDCLASS.',
      'CLASS zcl_demo IMPLEMENTATION.',
      '  METHOD zif_demo~run.',
      '  ENDMETHOD.',
      'ENDCLASS.',
      'FORM write_footer USING iv_sum TYPE i.',
    ].join('\n');
    assert.equal(scopeOf(source, 'zcl_demo'), 'entity.name.type.class.abap');
    assert.equal(scopeOf(source, 'greet'), 'entity.name.function.abap');
    assert.equal(scopeOf(source, 'zif_demo~run'), 'entity.name.function.abap');
    assert.equal(scopeOf(source, 'write_footer'), 'entity.name.function.abap');
    assert.equal(scopeOf(source, 'string'), 'support.type.builtin.abap');
    assert.equal(scopeOf(source, 'i'), 'support.type.builtin.abap');
    assert.equal(scopeOf(source, 'ENDMETHOD'), 'keyword.other.abap');
  });

  it('marks field symbols, pragmas, numbers, constants and selectors', () => {
    assert.equal(scopeOf('ASSIGN x TO <ls_row>.', '<ls_row>'), 'variable.other.field-symbol.abap');
    assert.equal(scopeOf('DATA x TYPE i ##NEEDED.', '##NEEDED'), 'keyword.other.pragma.abap');
    assert.equal(scopeOf('x = 42.', '42'), 'constant.numeric.integer.abap');
    assert.equal(scopeOf('x = abap_true.', 'abap_true'), 'constant.language.abap');
    assert.equal(scopeOf('IF sy-subrc <> 0.', 'sy'), 'variable.language.abap');
    assert.equal(scopeOf('IF sy-subrc <> 0.', '<>'), 'keyword.operator.abap');
    assert.equal(scopeOf('x = me->name.', 'me'), 'variable.language.abap');
    assert.equal(scopeOf('x = me->name.', '->'), 'keyword.operator.abap');
    assert.equal(scopeOf('IF x IS INITIAL AND y EQ 2.', 'EQ'), 'keyword.operator.word.abap');
    assert.equal(scopeOf('x = a - b.', '-'), 'keyword.operator.abap');
    assert.ok(
      !tokens('x = ls_a-b.').some(([text]) => text === '-'),
      'a component dash is part of the name',
    );
  });

  it('tokenizes every sample source of the emulator without leaving a string open', () => {
    const samples = path.join(
      __dirname,
      '..',
      '..',
      '..',
      'adt',
      'emulator',
      'samples',
      'src',
      '$zdemo',
    );
    const { readdirSync } = require('node:fs');
    const files = readdirSync(samples).filter((name) => name.endsWith('.abap'));
    assert.ok(files.length > 5);
    for (const name of files) {
      let stack = textmate.INITIAL;
      for (const line of readFileSync(path.join(samples, name), 'utf8').split('\n')) {
        stack = grammar.tokenizeLine(line, stack).ruleStack;
        // a statement never spans lines inside a literal: every line ends outside a string
        assert.equal(stack.depth, 1, `${name}: ${line}`);
      }
    }
  });
});
