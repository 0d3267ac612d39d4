// A rolling deploy can put an event type this build does not know into a stream: folding it must
// leave the state as it was, for every aggregate.
import t from 'tap';
import { apiKeyDecider } from '../../domain/apikey/index.js';
import { datasetDecider } from '../../domain/dataset/index.js';
import { itemDecider } from '../../domain/item/index.js';
import { organizationDecider } from '../../domain/organization/index.js';
import { sessionDecider } from '../../domain/session/index.js';
import { sourceDecider } from '../../domain/source/index.js';
import { widgetPresetDecider } from '../../domain/widget-preset/index.js';

const unknownEvent = { type: 'FromANewerBuild', data: { at: '2026-01-02T03:04:05.000Z' } };
const deciders = { apiKeyDecider, datasetDecider, itemDecider, organizationDecider, sessionDecider, sourceDecider, widgetPresetDecider };

for (const [name, decider] of Object.entries(deciders)) {
  t.test(`${name}: an unknown event type leaves the state unchanged`, async (t) => {
    const evolve = decider.evolve as (state: unknown, event: unknown) => unknown;
    t.equal(evolve(decider.initialState, unknownEvent), decider.initialState, 'from the initial state');
    const existing = Object.freeze({ id: 'existing', updatedAt: '2026-01-01T00:00:00.000Z' });
    t.equal(evolve(existing, unknownEvent), existing, 'from an existing state');
  });
}
