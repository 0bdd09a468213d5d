// @ts-check
'use strict';

const assert = require('node:assert/strict');
const { describe, it } = require('node:test');
const { ACTIVATE_TOGETHER, dependencyOffer, togetherOutcome } = require('../src/activation');

const TABLE = { name: 'ZTRIP', type: 'TABL/DT', objectUrl: '/sap/bc/adt/ddic/tables/ztrip' };
const ELEMENT = {
  name: 'ZTRIP_ID',
  type: 'DTEL/DE',
  objectUrl: '/sap/bc/adt/ddic/dataelements/ztrip_id',
};

describe('dependencyOffer', () => {
  it('names one inactive object and offers to activate it together', () => {
    const offer = dependencyOffer({ activated: false, inactiveDependencies: [TABLE] }, 'ZI_TRIP');
    assert.deepEqual(offer, {
      message:
        'ZI_TRIP was not activated: it uses ZTRIP (TABL/DT), which is not active. ' +
        'Activate it together with ZI_TRIP (in dependency order)?',
      choice: ACTIVATE_TOGETHER,
      together: [TABLE.objectUrl],
      names: ['ZTRIP'],
    });
  });

  it('keeps the order of several (dependencies first)', () => {
    const offer = dependencyOffer(
      { activated: false, inactiveDependencies: [ELEMENT, TABLE] },
      'ZI_TRIP',
    );
    assert.deepEqual(offer?.together, [ELEMENT.objectUrl, TABLE.objectUrl]);
    assert.match(offer?.message ?? '', /ZTRIP_ID \(DTEL\/DE\), ZTRIP \(TABL\/DT\), which are not/);
  });

  it('offers nothing without inactive dependencies or after success', () => {
    assert.equal(dependencyOffer({ activated: false, findings: [] }, 'ZI_TRIP'), undefined);
    assert.equal(
      dependencyOffer({ activated: true, inactiveDependencies: [TABLE] }, 'ZI_TRIP'),
      undefined,
    );
  });
});

describe('togetherOutcome', () => {
  const offer = dependencyOffer({ activated: false, inactiveDependencies: [TABLE] }, 'ZI_TRIP');
  assert.ok(offer);

  it('names every object activated', () => {
    assert.deepEqual(togetherOutcome({ activated: true, findings: [] }, 'ZI_TRIP', offer), {
      level: 'info',
      message: 'Activated ZTRIP, ZI_TRIP.',
    });
  });

  it('says a failure as a single activation does', () => {
    const failed = {
      activated: false,
      findings: [{ severity: 'E', text: 'Field CITY unknown', line: 4 }],
    };
    assert.deepEqual(togetherOutcome(failed, 'ZI_TRIP', offer), {
      level: 'error',
      message: 'ZI_TRIP was not activated: 1 error (see Problems).',
    });
  });
});
