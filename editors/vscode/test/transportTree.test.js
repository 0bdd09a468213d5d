// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const {
  checkVerdict,
  childNodes,
  notOnRequest,
  presentation,
  requestNodes,
  requestOf,
} = require('../src/transportTree');

const REPORT_URI = 'adt://A4H/sap/bc/adt/programs/programs/zdemo_tr_report/source/main';

/** What `adt.transportRequests` answers (docs/lsp-protocol.md). */
/** @type {import('../src/transportTree').TransportRequestsResult} */
const MINE = {
  system: 'A4H',
  requests: [
    {
      number: 'A4HK900101',
      description: 'Demo changes',
      owner: 'DEVELOPER',
      status: 'modifiable',
      tasks: [
        {
          number: 'A4HK900102',
          description: 'Demo changes',
          owner: 'DEVELOPER',
          status: 'modifiable',
          objects: [
            {
              pgmid: 'R3TR',
              type: 'PROG',
              name: 'ZDEMO_TR_REPORT',
              objectUrl: '/sap/bc/adt/programs/programs/zdemo_tr_report',
              documentUri: REPORT_URI,
            },
            { pgmid: 'R3TR', type: 'TABU', name: 'ZCONFIG' },
          ],
        },
      ],
      objects: [],
    },
  ],
};

describe('the transports view', () => {
  const roots = requestNodes([MINE, { system: 'B4H', requests: [] }]);

  it('lists the open requests, their tasks, and the objects of each task', () => {
    assert.deepEqual(
      roots.map((r) => [r.system, r.number]),
      [['A4H', 'A4HK900101']],
    );
    const [task] = childNodes(roots[0]);
    assert.equal(task.kind, 'task');
    const objects = childNodes(task);
    assert.deepEqual(
      objects.map((o) => (o.kind === 'object' ? [o.entry.name, o.parent] : [])),
      [
        ['ZDEMO_TR_REPORT', 'A4HK900102'],
        ['ZCONFIG', 'A4HK900102'],
      ],
    );
    assert.deepEqual(childNodes(objects[0]), []);
  });

  it('shows a request with its description, a task with its owner and count', () => {
    const request = presentation(roots[0]);
    assert.equal(request.label, 'A4HK900101');
    assert.equal(request.description, 'Demo changes');
    assert.equal(request.contextValue, 'request');
    assert.equal(presentation(roots[0], true).label, 'A4H: A4HK900101');
    const [task] = childNodes(roots[0]);
    assert.equal(presentation(task).description, 'DEVELOPER · 2 objects');
    assert.equal(presentation(task).contextValue, 'task');
  });

  it('opens objects with a document; others say why not', () => {
    const [report, table] = childNodes(childNodes(roots[0])[0]);
    assert.equal(presentation(report).contextValue, 'object');
    assert.equal(presentation(report).description, 'R3TR PROG');
    assert.equal(presentation(table).contextValue, 'sourcelessObject');
    assert.match(presentation(table).tooltip, /has no source to open/);
  });

  it('finds the request of a request number or a task number, on its system', () => {
    assert.equal(requestOf(roots, 'A4H', 'a4hk900102')?.number, 'A4HK900101');
    assert.equal(requestOf(roots, 'A4H', 'A4HK900101')?.number, 'A4HK900101');
    assert.equal(requestOf(roots, 'B4H', 'A4HK900101'), undefined);
  });

  it('says when an object is on no request, and why', () => {
    const base = { required: false, local: true };
    assert.match(notOnRequest({ lockedIn: '', ...base }, 'ZDEMO_REPORT') ?? '', /local package/);
    assert.match(
      notOnRequest({ lockedIn: '', required: true, local: false }, 'ZX') ?? '',
      /next change asks/,
    );
    assert.equal(notOnRequest({ lockedIn: 'A4HK900101', ...base }, 'ZX'), undefined);
  });
});

describe('releasing after the transport checks', () => {
  it('refuses with every finding, and says nothing was released', () => {
    const verdict = checkVerdict({
      number: 'A4HK900101',
      request: 'A4HK900101',
      tasks: ['A4HK900102'],
      objects: ['R3TR PROG ZDEMO_TR_REPORT'],
      releasable: false,
      findings: [
        {
          reason: 'inactive',
          message:
            'A4HK900101 holds objects with inactive changes (R3TR PROG ZDEMO_TR_REPORT): activate them first',
          objects: ['R3TR PROG ZDEMO_TR_REPORT'],
        },
        { reason: 'openTasks', message: 'A4HK900101 has open tasks of other users', tasks: [] },
      ],
    });
    assert.equal(verdict.releasable, false);
    assert.match(verdict.message, /cannot be released: the transport checks found 2 problems/);
    assert.match(verdict.message, /Nothing was released/);
    assert.equal(verdict.detail.split('\n').length, 2);
    assert.match(verdict.detail, /activate them first/);
  });

  it('asks to release what the checks passed: a request with its tasks, or one task', () => {
    const request = checkVerdict({
      number: 'A4HK900101',
      request: 'A4HK900101',
      tasks: ['A4HK900102'],
      objects: ['R3TR PROG ZDEMO_TR_REPORT'],
      releasable: true,
      findings: [],
    });
    assert.equal(
      request.message,
      'The transport checks found nothing. Release request A4HK900101 with its open tasks A4HK900102?',
    );
    assert.equal(request.detail, '1 object: R3TR PROG ZDEMO_TR_REPORT');
    const task = checkVerdict({
      number: 'A4HK900102',
      request: 'A4HK900101',
      tasks: ['A4HK900102'],
      objects: [],
      releasable: true,
      findings: [],
    });
    assert.match(task.message, /Release task A4HK900102 of A4HK900101\?/);
    assert.equal(task.detail, 'It holds no objects.');
  });
});
