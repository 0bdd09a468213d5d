// @ts-check
'use strict';

/**
 * Activation with the inactive objects an object builds on: a refused `adt.activate` names
 * them (`inactiveDependencies`, docs/lsp-protocol.md); the user is told which and offered to
 * activate them together, which the system does in dependency order. Pure, so that it is
 * tested without VS Code.
 */

const { activationOutcome } = require('./results');

/** @typedef {import('./protocol').ActivationResult} ActivationResult */
/** @typedef {import('./results').Outcome} Outcome */

const ACTIVATE_TOGETHER = 'Activate Together';

/**
 * @typedef {object} DependencyOffer
 * @property {string} message what is inactive, as a question
 * @property {string} choice the button that accepts
 * @property {string[]} together object URLs: the second argument of `adt.activate`
 * @property {string[]} names
 */

/**
 * The offer after a refused activation, or `undefined` when nothing it uses is inactive.
 * @param {ActivationResult} result of `adt.activate`
 * @param {string} label the object, e.g. `ZI_TRIP`
 * @returns {DependencyOffer | undefined}
 */
function dependencyOffer(result, label) {
  const waiting = result.activated ? [] : (result.inactiveDependencies ?? []);
  if (waiting.length === 0) {
    return undefined;
  }
  const one = waiting.length === 1;
  const listed = waiting.map((d) => `${d.name} (${d.type})`).join(', ');
  return {
    message:
      `${label} was not activated: it uses ${listed}, which ${one ? 'is' : 'are'} not ` +
      `active. Activate ${one ? 'it' : 'them'} together with ${label} (in dependency order)?`,
    choice: ACTIVATE_TOGETHER,
    together: waiting.map((d) => d.objectUrl),
    names: waiting.map((d) => d.name),
  };
}

/**
 * What to say after the activation of the set.
 * @param {ActivationResult} result of `adt.activate` with the offer's objects
 * @param {string} label
 * @param {DependencyOffer} offer
 * @returns {Outcome}
 */
function togetherOutcome(result, label, offer) {
  const outcome = activationOutcome(result, label);
  if (!result.activated) {
    return outcome;
  }
  const names = [...offer.names, label].join(', ');
  return {
    ...outcome,
    message: outcome.message.replace(`Activated ${label}`, `Activated ${names}`),
  };
}

module.exports = { ACTIVATE_TOGETHER, dependencyOffer, togetherOutcome };
