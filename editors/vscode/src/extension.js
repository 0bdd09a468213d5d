// @ts-check
'use strict';

/**
 * ABAP objects of SAP systems as `adt://` documents, read and saved through the `abap-adt lsp`
 * language server. Wires the file system, the commands and the server connection together.
 */

const vscode = require('vscode');
const { AutoSaveAdvice } = require('./autoSave');
const commands = require('./commands');
const { ServerConnection } = require('./connection');
const { previewData } = require('./dataPreview');
const devloop = require('./devloop');
const { AdtFileSystem } = require('./fileSystem');
const { announceReady } = require('./output');
const { packageName, packageNameProblem } = require('./packageTree');
const { PackageTree, VIEW_ID } = require('./packageView');
const { Restoring, openDocument } = require('./restoring');
const { saveWritten } = require('./written');
const { DocumentStatus } = require('./statusBar');
const { EarlyWorkspaceSymbols } = require('./symbols');
const { UnitTesting } = require('./testing');
const { TRANSPORTS_VIEW_ID } = require('./transportTree');
const { TransportTree } = require('./transportView');
const { VersionTimeline, registerVersionTimeline } = require('./versionTimeline');
const { VERSIONS_VIEW_ID, versionOf } = require('./versionTree');
const { VersionTree } = require('./versionView');
const { SCHEME } = require('./uris');

/** @typedef {import('./packageTree').PackageNode} PackageNode */
/** @typedef {import('./transportTree').TransportNode} TransportNode */
/** @typedef {import('./versionTree').VersionNode} VersionNode */
/** @typedef {VersionNode | {node: VersionNode}} VersionTarget a view's node or a Timeline item */

/** @type {ServerConnection | undefined} */
let connection;

/** @param {vscode.ExtensionContext} context */
function activate(context) {
  const output = vscode.window.createOutputChannel('ABAP ADT');
  const restoring = new Restoring(context.workspaceState, output);
  const server = new ServerConnection(context.secrets, output, restoring);
  const autoSave = new AutoSaveAdvice(context.globalState);
  const versions = new devloop.VersionTexts();
  const packages = new PackageTree(server, context.globalState);
  const testing = new UnitTesting(server);
  const transports = new TransportTree(server);
  const transportView = vscode.window.createTreeView(TRANSPORTS_VIEW_ID, {
    treeDataProvider: transports,
    showCollapseAll: true,
  });
  transports.attach(transportView);
  const history = new VersionTree(server, versions);
  const versionView = vscode.window.createTreeView(VERSIONS_VIEW_ID, { treeDataProvider: history });
  history.attach(versionView);
  const timeline = new VersionTimeline(server, output);
  const timelineRegistration = registerVersionTimeline(timeline, context.extension.id, output);
  /**
   * A command on the given or active `adt://` document.
   * @param {(server: ServerConnection, resource: unknown) => Promise<void>} run
   */
  const onResource = (run) =>
    commands.guarded((/** @type {unknown} */ resource) => run(server, resource));
  connection = server;
  commands.onLogonRefused(() => server.logonRefused());
  context.subscriptions.push(
    output,
    restoring,
    server,
    server.onDidChangeBase(
      (/** @type {{uri: string, token: string, version?: number, clean?: boolean}} */ base) => {
        restoring.moved(base.uri, base.token);
        void saveWritten(base, openDocument);
      },
    ),
    vscode.workspace.registerFileSystemProvider(SCHEME, new AdtFileSystem(server, restoring), {
      isCaseSensitive: true,
    }),
    vscode.languages.registerWorkspaceSymbolProvider(new EarlyWorkspaceSymbols(server)),
    vscode.workspace.onDidOpenTextDocument((document) => void autoSave.opened(document)),
    vscode.workspace.registerTextDocumentContentProvider(devloop.VERSION_SCHEME, versions),
    new DocumentStatus(server),
    testing,
    transportView,
    versionView,
    vscode.window.onDidChangeActiveTextEditor((editor) => history.follow(editor)),
    server.onDidChangeBase((/** @type {{uri: string}} */ base) => {
      history.refresh(base.uri);
      timeline.refresh(base.uri);
    }),
    timeline,
    ...(timelineRegistration ? [timelineRegistration] : []),
    vscode.commands.registerCommand('abapAdt.runUnitTests', onResource(devloop.runUnitTests)),
    vscode.commands.registerCommand('abapAdt.runAtc', onResource(devloop.runAtc)),
    vscode.commands.registerCommand(
      'abapAdt.createObject',
      commands.guarded(() => devloop.createObject(server)),
    ),
    vscode.commands.registerCommand('abapAdt.chooseTransport', onResource(devloop.chooseTransport)),
    vscode.commands.registerCommand(
      'abapAdt.publishServiceBinding',
      onResource((connection, resource) => devloop.publishBinding(connection, resource, true)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.unpublishServiceBinding',
      onResource((connection, resource) => devloop.publishBinding(connection, resource, false)),
    ),
    vscode.commands.registerCommand('abapAdt.setMessage', onResource(devloop.setMessage)),
    vscode.commands.registerCommand(
      'abapAdt.compareWithActive',
      onResource((connection, resource) =>
        devloop.compareWithActive(connection, versions, resource),
      ),
    ),
    vscode.commands.registerCommand(
      'abapAdt.compareWithRevision',
      onResource((connection, resource) =>
        devloop.compareWithRevision(connection, versions, resource),
      ),
    ),
    vscode.window.registerTreeDataProvider(VIEW_ID, packages),
    vscode.commands.registerCommand(
      'abapAdt.refreshPackages',
      commands.guarded(async () => packages.refresh()),
    ),
    vscode.commands.registerCommand(
      'abapAdt.addFavouritePackage',
      commands.guarded((/** @type {PackageNode | undefined} */ node) =>
        packages.addFavourite(node),
      ),
    ),
    vscode.commands.registerCommand(
      'abapAdt.removeFavouritePackage',
      commands.guarded((/** @type {PackageNode} */ node) => packages.removeFavourite(node)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.newObjectInPackage',
      commands.guarded((/** @type {PackageNode} */ node) =>
        devloop.createObject(server, {
          package: node.name,
          ...(node.system ? { system: node.system } : {}),
        }),
      ),
    ),
    vscode.commands.registerCommand(
      'abapAdt.runPackageTests',
      commands.guarded(async () => {
        const chosen = await askPackage(server);
        if (chosen) {
          await runPackageTests(server, testing, chosen);
        }
      }),
    ),
    vscode.commands.registerCommand(
      'abapAdt.runTestsHere',
      commands.guarded((/** @type {PackageNode} */ node) => runPackageTests(server, testing, node)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.refreshTransports',
      commands.guarded(async () => transports.refresh()),
    ),
    vscode.commands.registerCommand(
      'abapAdt.releaseTransport',
      commands.guarded((/** @type {TransportNode} */ node) => transports.release(node)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.revealInTransports',
      commands.guarded((/** @type {unknown} */ resource) => transports.reveal(resource)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.refreshVersions',
      commands.guarded(async () => history.refresh()),
    ),
    vscode.commands.registerCommand(
      'abapAdt.openVersion',
      commands.guarded((/** @type {VersionTarget} */ target) => history.open(versionOf(target))),
    ),
    vscode.commands.registerCommand(
      'abapAdt.compareVersion',
      commands.guarded((/** @type {VersionTarget} */ target) => history.compare(versionOf(target))),
    ),
    vscode.commands.registerCommand(
      'abapAdt.openObject',
      commands.guarded(() => commands.openObject(server)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.searchObjects',
      commands.guarded(() => commands.searchObjects(server)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.openInclude',
      commands.guarded((/** @type {unknown} */ resource) => commands.openInclude(server, resource)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.activate',
      commands.guarded((/** @type {unknown} */ resource) => commands.activate(server, resource)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.resolveConflict',
      commands.guarded((/** @type {unknown} */ resource) =>
        commands.resolveConflict(server, resource),
      ),
    ),
    vscode.commands.registerCommand(
      'abapAdt.previewData',
      commands.guarded(async (/** @type {unknown} */ resource) => {
        const document = await commands.adtDocument(resource, 'preview its data');
        if (document) {
          await previewData(server, document);
        }
      }),
    ),
    vscode.commands.registerCommand(
      'abapAdt.restartServer',
      commands.guarded(() => commands.restartServer(server)),
    ),
    vscode.commands.registerCommand(
      'abapAdt.forgetPassword',
      commands.guarded(() => commands.forgetPassword(server)),
    ),
    vscode.workspace.onDidChangeConfiguration(
      commands.guarded((/** @type {vscode.ConfigurationChangeEvent} */ event) =>
        server.configurationChanged(event),
      ),
    ),
  );
  void announceReady(
    () => vscode.commands.executeCommand('setContext', 'abapAdt.ready', true),
    output,
    server.systems().map((system) => system.name),
  );
}

/**
 * Run a package's tests in the Testing view (shown first, so the run is seen).
 * @param {ServerConnection} server
 * @param {UnitTesting} testing
 * @param {{name: string, system?: string}} chosen
 */
async function runPackageTests(server, testing, chosen) {
  const system = chosen.system ?? server.systems()[0]?.name ?? '';
  await vscode.commands.executeCommand('workbench.view.testing.focus');
  await testing.runPackage(chosen.name, system);
}

/**
 * The package "Run Tests of a Package…" runs: typed, and its system when several are set.
 * @param {ServerConnection} server
 * @returns {Promise<{name: string, system?: string} | undefined>}
 */
async function askPackage(server) {
  const typed = await vscode.window.showInputBox({
    title: 'Run the ABAP Unit tests of a package',
    prompt: 'Package, e.g. $ZDEMO or /NS/ZPACKAGE',
    validateInput: packageNameProblem,
  });
  const name = typed && packageName(typed);
  const system = name ? await commands.systemParam(server) : undefined;
  return name && system ? { name, ...system } : undefined;
}

/** Stop the server, so that it releases its locks. */
function deactivate() {
  const stopping = connection?.stop();
  connection = undefined;
  return stopping;
}

module.exports = { activate, deactivate };
