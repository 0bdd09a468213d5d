// @ts-check
'use strict';

/**
 * The Testing view's decisions, without VS Code: the test classes and methods of a document
 * (from the server's "Run tests" code lenses, which find local test classes in the buffer),
 * what `adt.runUnitTests` runs for a test item, and each item's outcome from the run's
 * result (docs/lsp-protocol.md). testing.js turns these into a TestController's items.
 */

const { RUN_UNIT_TESTS_COMMAND } = require('./protocol');

/**
 * @typedef {object} LensLike a code lens as VS Code or the server gives it
 * @property {number} line 0-based
 * @property {string | undefined} command
 * @property {unknown[] | undefined} arguments
 *
 * @typedef {{name: string, line: number}} TestMethod
 * @typedef {{name: string, line: number, methods: TestMethod[]}} TestClass
 * @typedef {{uri: string, testClass?: string, method?: string}} TestTarget
 * @typedef {{testClass: string, method?: string, message: string, uri?: string,
 *   line?: number}} UnitFailure
 * @typedef {{tests: number, passed: number, failed: number, failures: UnitFailure[],
 *   notes?: string[] | string}} UnitResult
 * @typedef {{id: string, state: 'passed' | 'failed' | 'skipped', message?: string,
 *   uri?: string, line?: number, durationMs?: number}} Outcome
 *
 * `adt.runPackageTests` (docs/lsp-protocol.md): every test that ran, where it is.
 * @typedef {{message: string, details?: string[], uri?: string, line?: number}} RunFailure
 * @typedef {{name: string, passed: boolean, durationMs?: number, uri?: string,
 *   line?: number, failure?: RunFailure}} RunMethod
 * @typedef {{name: string, passed: boolean, uri?: string, line?: number,
 *   failure?: RunFailure, methods: RunMethod[]}} RunClass
 * @typedef {{name: string, type: string, objectUrl: string, documentUri?: string,
 *   classes: RunClass[]}} RunObject
 * @typedef {{package: string, system: string, tests: number, passed: number,
 *   failed: number, notes?: string[], objects: RunObject[]}} PackageRun
 * @typedef {{uri?: string, line?: number}} Place 0-based line
 * @typedef {{name: string, place: Place, methods: Array<{name: string, place: Place}>}}
 *   PlacedClass
 * @typedef {{name: string, documentUri?: string, classes: PlacedClass[]}} PackageObjectTests
 */

/**
 * The stable id of a test item: the object's document, then class and method.
 * @param {TestTarget} target
 */
function testId(target) {
  return [target.uri, target.testClass?.toUpperCase(), target.method?.toUpperCase()]
    .filter(Boolean)
    .join('#');
}

/**
 * The test classes and methods of a document, in the order of its lenses.
 * @param {LensLike[]} lenses
 * @returns {TestClass[]}
 */
function testsFromLenses(lenses) {
  /** @type {Map<string, TestClass>} */
  const classes = new Map();
  for (const lens of lenses) {
    const scope = /** @type {{testClass?: unknown, method?: unknown}} */ (
      lens.command === RUN_UNIT_TESTS_COMMAND ? (lens.arguments?.[1] ?? {}) : {}
    );
    if (typeof scope.testClass !== 'string' || !scope.testClass) {
      continue;
    }
    const key = scope.testClass.toUpperCase();
    const found = classes.get(key) ?? { name: scope.testClass, line: lens.line, methods: [] };
    classes.set(key, found);
    if (typeof scope.method === 'string' && scope.method) {
      found.methods.push({ name: scope.method, line: lens.line });
    } else {
      found.line = lens.line;
    }
  }
  return [...classes.values()];
}

/**
 * The `adt.runUnitTests` arguments of a test item: the object, one class or one method.
 * @param {TestTarget} target
 * @returns {unknown[]}
 */
function runArguments(target) {
  if (!target.testClass) {
    return [target.uri];
  }
  return [
    target.uri,
    target.method
      ? { testClass: target.testClass, method: target.method }
      : { testClass: target.testClass },
  ];
}

/**
 * The methods a run of `target` covers, of the classes known in its document.
 * @param {TestTarget} target
 * @param {TestClass[]} classes
 * @returns {TestTarget[]}
 */
function coveredMethods(target, classes) {
  const wanted = target.testClass?.toUpperCase();
  return classes
    .filter((cls) => !wanted || cls.name.toUpperCase() === wanted)
    .flatMap((cls) =>
      cls.methods
        .filter((m) => !target.method || m.name.toUpperCase() === target.method.toUpperCase())
        .map((m) => ({ uri: target.uri, testClass: cls.name, method: m.name })),
    );
}

/**
 * Each covered method's outcome: failed with the system's message at the failing line, else
 * passed; when no test ran, skipped with the server's note. A failure of a class as a whole
 * (no method: its setup failed) fails every covered method of that class. `unmatched` are
 * failures of methods the document does not show (another include), for the run's output.
 * @param {TestTarget} target
 * @param {TestClass[]} classes
 * @param {UnitResult} result
 * @returns {{outcomes: Outcome[], unmatched: UnitFailure[]}}
 */
function runOutcomes(target, classes, result) {
  const covered = coveredMethods(target, classes);
  const notes = Array.isArray(result.notes) ? result.notes.join(' ') : (result.notes ?? '');
  if (!result.tests) {
    const message = notes || 'No test ran.';
    return {
      outcomes: covered.map((m) => ({ id: testId(m), state: 'skipped', message })),
      unmatched: [],
    };
  }
  const failures = result.failures ?? [];
  /** @param {UnitFailure} failure @param {TestTarget} method */
  const concerns = (failure, method) =>
    failure.testClass.toUpperCase() === method.testClass?.toUpperCase() &&
    (!failure.method || failure.method.toUpperCase() === method.method?.toUpperCase());
  const outcomes = covered.map((method) => {
    const failure = failures.find((f) => concerns(f, method));
    if (!failure) {
      return /** @type {Outcome} */ ({ id: testId(method), state: 'passed' });
    }
    /** @type {Outcome} */
    const outcome = { id: testId(method), state: 'failed', message: failure.message };
    if (failure.uri && typeof failure.line === 'number') {
      outcome.uri = failure.uri;
      outcome.line = failure.line - 1;
    }
    return outcome;
  });
  const unmatched = failures.filter((f) => !covered.some((method) => concerns(f, method)));
  return { outcomes, unmatched };
}

/**
 * A place of the server (1-based line) as the editor's (0-based).
 * @param {{uri?: string, line?: number}} where
 * @returns {Place}
 */
function place(where) {
  return where.uri && typeof where.line === 'number'
    ? { uri: where.uri, line: where.line - 1 }
    : where.uri
      ? { uri: where.uri }
      : {};
}

/**
 * A failure's message: its first line, then the system's details.
 * @param {RunFailure} failure
 */
function failureText(failure) {
  return [failure.message, ...(failure.details ?? [])].join('\n');
}

/**
 * A package's run as the Testing view's items (objects, their test classes and methods,
 * each where it is) and each method's outcome with its duration; a class whose setup failed
 * fails each of its methods with that failure. Ids are those of {@link testId} on the
 * object's document, so a class or method item runs again through `adt.runUnitTests`.
 * @param {PackageRun} run
 * @returns {{objects: PackageObjectTests[], outcomes: Outcome[]}}
 */
function packageTests(run) {
  /** @type {Outcome[]} */
  const outcomes = [];
  const objects = run.objects.map((object) => {
    const uri = object.documentUri;
    const classes = object.classes.map((cls) => {
      for (const method of cls.methods) {
        const failure = method.failure ?? cls.failure;
        const id = uri ? testId({ uri, testClass: cls.name, method: method.name }) : '';
        /** @type {Outcome} */
        const outcome = failure
          ? { id, state: 'failed', message: failureText(failure), ...place(failure) }
          : { id, state: 'passed' };
        if (typeof method.durationMs === 'number') {
          outcome.durationMs = method.durationMs;
        }
        if (uri) {
          outcomes.push(outcome);
        }
      }
      return {
        name: cls.name,
        place: place(cls),
        methods: cls.methods.map((method) => ({ name: method.name, place: place(method) })),
      };
    });
    return { name: object.name, ...(uri ? { documentUri: uri } : {}), classes };
  });
  return { objects, outcomes };
}

/**
 * A package run's classes of one object as {@link TestClass}es (what a rerun of one of its
 * classes or methods covers).
 * @param {PackageObjectTests} object
 * @returns {TestClass[]}
 */
function classesOf(object) {
  return object.classes.map((cls) => ({
    name: cls.name,
    line: cls.place.line ?? 0,
    methods: cls.methods.map((m) => ({ name: m.name, line: m.place.line ?? 0 })),
  }));
}

/**
 * The id of a package's item in the Testing view.
 * @param {string} system
 * @param {string} name
 */
function packageId(system, name) {
  return `package:${system}:${name.toUpperCase()}`;
}

module.exports = {
  classesOf,
  coveredMethods,
  packageId,
  packageTests,
  runArguments,
  runOutcomes,
  testId,
  testsFromLenses,
};
