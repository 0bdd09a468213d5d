// @ts-check
'use strict';

/**
 * The Testing view: a TestController over `adt.runUnitTests`. Its items are the local test
 * classes and methods of the open `adt://` documents, found by the server's "Run tests" code
 * lenses (asked again when a document opens, is shown or saved, and by the view's refresh); running
 * an object, a class or a method sends one command, and each method passes or fails with the
 * system's message at the failing line. A package ("Run Tests Here" in ABAP Packages, or
 * "ABAP: Run Tests of a Package…") is an item of its own, whose objects, classes and methods
 * come from its run (`adt.runPackageTests`), each with its duration; running it again runs the
 * package, running one of its classes or methods runs that alone. The decisions are in
 * testTree.js.
 */

const vscode = require('vscode');
const { toEditorUri, toServerUri } = require('./editorUris');
const {
  EXECUTE_COMMAND,
  RUN_PACKAGE_TESTS_COMMAND,
  RUN_UNIT_TESTS_COMMAND,
} = require('./protocol');
const { errorMessage } = require('./results');
const {
  classesOf,
  packageId,
  packageTests,
  runArguments,
  runOutcomes,
  testId,
  testsFromLenses,
} = require('./testTree');
const { SCHEME, objectLabel, parseAdtUri } = require('./uris');

/** @typedef {import('./connection').ServerConnection} ServerConnection */
/** @typedef {import('./testTree').TestClass} TestClass */
/** @typedef {import('./testTree').TestTarget} TestTarget */
/** @typedef {import('./testTree').UnitResult} UnitResult */
/** @typedef {import('./testTree').PackageRun} PackageRun */
/** @typedef {import('./testTree').Outcome} Outcome */
/** @typedef {{package: string, system: string}} PackageTarget */

class UnitTesting {
  /** @param {ServerConnection} connection */
  constructor(connection) {
    this.connection = connection;
    this.controller = vscode.tests.createTestController('abapAdt.unitTests', 'ABAP Unit');
    /** @type {Map<string, TestClass[]>} the test classes of each object's document */
    this.classes = new Map();
    /** @type {Map<string, TestTarget>} what each test item runs */
    this.targets = new Map();
    /** @type {Map<string, PackageTarget>} the package items */
    this.packages = new Map();
    /** @type {Map<string, TestClass[]>} the test classes of objects of a package's run */
    this.runClasses = new Map();
    this.controller.resolveHandler = async (item) => {
      if (!item) {
        await this.discoverOpen();
      }
    };
    this.controller.refreshHandler = () => this.discoverOpen();
    this.controller.createRunProfile(
      'Run',
      vscode.TestRunProfileKind.Run,
      (request, token) => this.run(request, token),
      true,
    );
    this.subscriptions = [
      this.controller,
      vscode.workspace.onDidOpenTextDocument((document) => void this.discover(document)),
      vscode.workspace.onDidSaveTextDocument((document) => void this.discover(document)),
      // an editor shown: its document is open in the server by then (a document opened a
      // moment ago may have reached the server after its lenses were asked)
      vscode.window.onDidChangeActiveTextEditor(
        (editor) => void (editor && this.discover(editor.document)),
      ),
      vscode.workspace.onDidCloseTextDocument((document) => this.forget(document)),
    ];
  }

  dispose() {
    for (const subscription of this.subscriptions) {
      subscription.dispose();
    }
  }

  async discoverOpen() {
    await Promise.all(vscode.workspace.textDocuments.map((document) => this.discover(document)));
  }

  /** @param {vscode.TextDocument} document */
  forget(document) {
    if (document.uri.scheme === SCHEME) {
      const uri = toServerUri(document.uri);
      this.classes.delete(uri);
      this.controller.items.delete(uri);
    }
  }

  /**
   * The test classes of one document, as items under its object.
   * @param {vscode.TextDocument} document
   */
  async discover(document) {
    if (document.uri.scheme !== SCHEME) {
      return;
    }
    /** @type {vscode.CodeLens[] | undefined} */
    const lenses = await vscode.commands.executeCommand(
      'vscode.executeCodeLensProvider',
      document.uri,
    );
    const classes = testsFromLenses(
      (lenses ?? []).map((lens) => ({
        line: lens.range.start.line,
        command: lens.command?.command,
        arguments: lens.command?.arguments,
      })),
    );
    const uri = toServerUri(document.uri);
    if (classes.length === 0) {
      this.forget(document);
      return;
    }
    this.classes.set(uri, classes);
    const parts = parseAdtUri(uri);
    const object = this.item({ uri }, parts ? objectLabel(parts.path) : uri, document.uri);
    object.children.replace(
      classes.map((cls) => {
        const classItem = this.item({ uri, testClass: cls.name }, cls.name, document.uri, cls.line);
        classItem.children.replace(
          cls.methods.map((m) =>
            this.item({ uri, testClass: cls.name, method: m.name }, m.name, document.uri, m.line),
          ),
        );
        return classItem;
      }),
    );
    this.controller.items.add(object);
  }

  /**
   * @param {TestTarget} target
   * @param {string} label
   * @param {vscode.Uri} uri
   * @param {number} [line]
   */
  item(target, label, uri, line) {
    const id = testId(target);
    const item = this.controller.createTestItem(id, label, uri);
    if (line !== undefined) {
      item.range = new vscode.Range(line, 0, line, 0);
    }
    this.targets.set(id, target);
    return item;
  }

  /**
   * @param {vscode.TestRunRequest} request
   * @param {vscode.CancellationToken} token
   */
  async run(request, token) {
    const run = this.controller.createTestRun(request);
    /** @type {vscode.TestItem[]} */
    const queue = [];
    if (request.include) {
      queue.push(...request.include);
    } else {
      this.controller.items.forEach((item) => queue.push(item));
    }
    for (const item of queue) {
      const pkg = this.packages.get(item.id);
      const target = this.targets.get(item.id);
      if (token.isCancellationRequested || request.exclude?.includes(item)) {
        continue;
      } else if (pkg) {
        await this.runPackageItem(run, item, pkg);
      } else if (target) {
        await this.runOne(run, item, target);
      }
    }
    run.end();
  }

  /**
   * Run the tests of a package: its item shows in the Testing view and the run in Test
   * Results.
   * @param {string} name
   * @param {string} system
   */
  async runPackage(name, system) {
    const id = packageId(system, name);
    let item = this.controller.items.get(id);
    if (!item) {
      item = this.controller.createTestItem(id, `Package ${name.toUpperCase()}`);
      item.description = system;
      this.packages.set(id, { package: name.toUpperCase(), system });
      this.controller.items.add(item);
    }
    const request = new vscode.TestRunRequest([item]);
    const run = this.controller.createTestRun(request, `Package ${name.toUpperCase()}`);
    try {
      await this.runPackageItem(run, item, /** @type {PackageTarget} */ (this.packages.get(id)));
    } finally {
      run.end();
    }
  }

  /**
   * @param {vscode.TestRun} run
   * @param {vscode.TestItem} item
   * @param {PackageTarget} pkg
   */
  async runPackageItem(run, item, pkg) {
    run.started(item);
    item.busy = true;
    /** @type {PackageRun} */
    let result;
    try {
      result = await this.connection.request(EXECUTE_COMMAND, {
        command: RUN_PACKAGE_TESTS_COMMAND,
        arguments: pkg.system ? [pkg.package, pkg.system] : [pkg.package],
      });
    } catch (error) {
      run.errored(item, new vscode.TestMessage(errorMessage(error)));
      return;
    } finally {
      item.busy = false;
    }
    const { objects, outcomes } = packageTests(result);
    item.children.replace(
      objects.flatMap((object) => {
        const uri = object.documentUri;
        if (!uri) {
          return [];
        }
        this.runClasses.set(uri, classesOf(object));
        const objectItem = this.item({ uri }, object.name, toEditorUri(uri));
        objectItem.children.replace(
          object.classes.map((cls) => {
            const classItem = this.placedItem({ uri, testClass: cls.name }, cls.name, cls.place);
            classItem.children.replace(
              cls.methods.map((m) =>
                this.placedItem({ uri, testClass: cls.name, method: m.name }, m.name, m.place),
              ),
            );
            return classItem;
          }),
        );
        return [objectItem];
      }),
    );
    const byId = new Map(this.methodItems(item).map((method) => [method.id, method]));
    this.report(run, byId, outcomes);
    const notes = result.notes?.length ? ` (${result.notes.join('; ')})` : '';
    run.appendOutput(`${item.label}: ${result.passed} passed, ${result.failed} failed${notes}\r\n`);
    if (!result.tests) {
      run.skipped(item);
    }
  }

  /**
   * @param {TestTarget} target
   * @param {string} label
   * @param {import('./testTree').Place} place
   */
  placedItem(target, label, place) {
    const uri = place.uri ?? target.uri;
    return this.item(target, label, toEditorUri(uri), place.line);
  }

  /**
   * Each method's outcome, with its failure where it failed and its duration.
   * @param {vscode.TestRun} run
   * @param {Map<string, vscode.TestItem>} byId
   * @param {Outcome[]} outcomes
   */
  report(run, byId, outcomes) {
    for (const outcome of outcomes) {
      const method = byId.get(outcome.id);
      if (!method) {
        continue;
      } else if (outcome.state === 'passed') {
        run.passed(method, outcome.durationMs);
      } else if (outcome.state === 'skipped') {
        run.skipped(method);
        run.appendOutput(`${method.label}: ${outcome.message}\r\n`);
      } else {
        const message = new vscode.TestMessage(outcome.message ?? 'failed');
        if (outcome.uri && outcome.line !== undefined) {
          message.location = new vscode.Location(
            toEditorUri(outcome.uri),
            new vscode.Position(outcome.line, 0),
          );
        }
        run.failed(method, message, outcome.durationMs);
      }
    }
  }

  /**
   * @param {vscode.TestRun} run
   * @param {vscode.TestItem} item
   * @param {TestTarget} target
   */
  async runOne(run, item, target) {
    const methods = this.methodItems(item);
    methods.forEach((method) => run.started(method));
    const started = Date.now();
    /** @type {UnitResult} */
    let result;
    try {
      result = await this.connection.request(EXECUTE_COMMAND, {
        command: RUN_UNIT_TESTS_COMMAND,
        arguments: runArguments(target),
      });
    } catch (error) {
      run.errored(item, new vscode.TestMessage(errorMessage(error)));
      return;
    }
    const duration = Date.now() - started;
    const byId = new Map(methods.map((method) => [method.id, method]));
    const classes = this.classes.get(target.uri) ?? this.runClasses.get(target.uri) ?? [];
    const { outcomes, unmatched } = runOutcomes(target, classes, result);
    this.report(run, byId, outcomes);
    for (const failure of unmatched) {
      run.appendOutput(`${failure.testClass}->${failure.method ?? ''}: ${failure.message}\r\n`);
    }
    run.appendOutput(
      `${item.label}: ${result.passed} passed, ${result.failed} failed (${duration} ms)\r\n`,
    );
  }

  /**
   * The method items at and below an item.
   * @param {vscode.TestItem} item
   * @returns {vscode.TestItem[]}
   */
  methodItems(item) {
    if (item.children.size === 0) {
      return this.targets.get(item.id)?.method ? [item] : [];
    }
    /** @type {vscode.TestItem[]} */
    const found = [];
    item.children.forEach((child) => found.push(...this.methodItems(child)));
    return found;
  }
}

module.exports = { UnitTesting };
