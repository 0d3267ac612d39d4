import t from 'tap';
import { Conflict, Invalid, NotFound } from '../../domain/errors.js';
import { organizationDecider, type OrganizationEvent } from '../../domain/organization/index.js';
import { DEFAULT_PLAN } from '../../domain/plan.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(organizationDecider);
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const started: OrganizationEvent = { type: 'SubscriptionStarted', data: { organizationId, plan: DEFAULT_PLAN, at: testMeta.now } };
const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { organizationId, name: 'Acme Apparel', reportingTimezone: 'UTC', at: '2026-01-01T00:00:00.000Z' },
};

t.test('creating an organization trims its name and counts analytics in UTC', async (t) => {
  spec(t, [])
    .when({ type: 'CreateOrganization', data: { organizationId, name: '  Acme Apparel ' } })
    .then([
      { type: 'OrganizationCreated', data: { organizationId, name: 'Acme Apparel', reportingTimezone: 'UTC', at: testMeta.now } },
      { type: 'SubscriptionStarted', data: { organizationId, plan: DEFAULT_PLAN, at: testMeta.now } },
    ]);
});

t.test('an organization is created once', async (t) => {
  spec(t, [created]).when({ type: 'CreateOrganization', data: { organizationId, name: 'Again' } }).thenThrows(Conflict);
});

t.test('names must be 2 to 100 characters once trimmed', async (t) => {
  for (const name of ['', ' a ']) {
    spec(t, []).when({ type: 'CreateOrganization', data: { organizationId, name } }).thenThrows(Invalid, 'Organization name must be at least 2 characters');
  }
  spec(t, []).when({ type: 'CreateOrganization', data: { organizationId, name: 'x'.repeat(101) } }).thenThrows(Invalid, 'Organization name can be at most 100 characters');
  spec(t, []).when({ type: 'CreateOrganization', data: { organizationId, name: ` ${'x'.repeat(100)} ` } }).then([
    { type: 'OrganizationCreated', data: { organizationId, name: 'x'.repeat(100), reportingTimezone: 'UTC', at: testMeta.now } },
    started,
  ]);
  spec(t, []).when({ type: 'CreateOrganization', data: { organizationId, name: 'ab' } }).then([
    { type: 'OrganizationCreated', data: { organizationId, name: 'ab', reportingTimezone: 'UTC', at: testMeta.now } },
    started,
  ]);
});

t.test('renaming records the new name; the same name changes nothing', async (t) => {
  spec(t, [created])
    .when({ type: 'RenameOrganization', data: { organizationId, name: 'Acme Outfitters' } })
    .then([{ type: 'OrganizationRenamed', data: { organizationId, name: 'Acme Outfitters', at: testMeta.now } }]);
  spec(t, [created]).when({ type: 'RenameOrganization', data: { organizationId, name: ' Acme Apparel' } }).then([]);
});

t.test('renaming an organization that does not exist fails', async (t) => {
  spec(t, []).when({ type: 'RenameOrganization', data: { organizationId, name: 'Nobody' } }).thenThrows(NotFound, `Organization '${organizationId}' not found.`);
});

const deleted: OrganizationEvent = { type: 'OrganizationDeleted', data: { organizationId, at: testMeta.now } };
const subscribed: OrganizationEvent = { type: 'SubscriptionStarted', data: { organizationId, plan: DEFAULT_PLAN, at: '2026-01-01T00:00:00.000Z' } };

t.test('PATCH fields: name and reporting timezone change only when they differ', async (t) => {
  spec(t, [created, subscribed])
    .when({ type: 'UpdateOrganization', data: { organizationId, fields: { name: 'Acme Two', reportingTimezone: 'Europe/Paris' } } })
    .then([
      { type: 'OrganizationRenamed', data: { organizationId, name: 'Acme Two', at: testMeta.now } },
      { type: 'OrganizationTimezoneChanged', data: { organizationId, reportingTimezone: 'Europe/Paris', at: testMeta.now } },
    ]);
  spec(t, [created]).when({ type: 'UpdateOrganization', data: { organizationId, fields: { reportingTimezone: 'UTC' } } }).then([]);
});

t.test('a timezone must be an IANA name', async (t) => {
  for (const zone of ['Mars/Olympus', 'GMT+25', '', '../etc', 'Europe/Paris; drop']) {
    spec(t, [created]).when({ type: 'UpdateOrganization', data: { organizationId, fields: { reportingTimezone: zone } } }).thenThrows(Invalid, 'Not a recognised IANA timezone');
  }
  spec(t, [created])
    .when({ type: 'UpdateOrganization', data: { organizationId, fields: { reportingTimezone: 'America/New_York' } } })
    .then([{ type: 'OrganizationTimezoneChanged', data: { organizationId, reportingTimezone: 'America/New_York', at: testMeta.now } }]);
});

t.test('a deleted organization takes no more commands', async (t) => {
  spec(t, [created, subscribed]).when({ type: 'DeleteOrganization', data: { organizationId } }).then([deleted]);
  spec(t, [created, subscribed, deleted]).when({ type: 'DeleteOrganization', data: { organizationId } }).thenThrows(NotFound, `Organization '${organizationId}' not found.`);
  spec(t, [created, subscribed, deleted]).when({ type: 'SetSubscription', data: { organizationId, active: true } }).thenThrows(NotFound);
});

t.test('the subscription switches off and on; setting it to what it is changes nothing', async (t) => {
  spec(t, [created, subscribed]).when({ type: 'SetSubscription', data: { organizationId, active: false } }).then([
    { type: 'SubscriptionDeactivated', data: { organizationId, at: testMeta.now } },
  ]);
  spec(t, [created, subscribed]).when({ type: 'SetSubscription', data: { organizationId, active: true } }).then([]);
  spec(t, [created]).when({ type: 'SetSubscription', data: { organizationId, active: false } }).then([]);
  spec(t, [created]).when({ type: 'SetSubscription', data: { organizationId, active: true } }).then([
    { type: 'SubscriptionStarted', data: { organizationId, plan: DEFAULT_PLAN, at: testMeta.now } },
  ]);
});

t.test('plan entries: metered, unlimited, off, no entry, back to the default; bad input refused', async (t) => {
  const entries = [
    { kind: 'metered', quota: 100, rpm: 10 },
    { kind: 'metered', quota: 'unlimited', rpm: null },
    { kind: 'off' },
    { kind: 'none' },
    null,
  ] as const;
  for (const entry of entries) {
    spec(t, [created, subscribed])
      .when({ type: 'SetPlanEntry', data: { organizationId, resource: 'api.v1.widget.presets.list', entry } })
      .then([{ type: 'PlanEntrySet', data: { organizationId, resource: 'api.v1.widget.presets.list', entry, at: testMeta.now } }]);
  }
  spec(t, [created, subscribed]).when({ type: 'SetPlanEntry', data: { organizationId, resource: 'widget presets', entry: { kind: 'off' } } }).thenThrows(Invalid);
  spec(t, [created, subscribed])
    .when({ type: 'SetPlanEntry', data: { organizationId, resource: 'api.v1.search.query', entry: { kind: 'metered', quota: -1, rpm: null } } })
    .thenThrows(Invalid);
  spec(t, [created]).when({ type: 'SetPlanEntry', data: { organizationId, resource: 'api.v1.search.query', entry: { kind: 'off' } } }).thenThrows(Conflict);
});

t.test('the plan folds entries over the defaults', async (t) => {
  const events: OrganizationEvent[] = [
    created,
    subscribed,
    { type: 'PlanEntrySet', data: { organizationId, resource: 'api.v1.a.b', entry: { kind: 'off' }, at: testMeta.now } },
    { type: 'PlanEntrySet', data: { organizationId, resource: 'api.v1.c.d', entry: { kind: 'none' }, at: testMeta.now } },
    { type: 'PlanEntrySet', data: { organizationId, resource: 'api.v1.a.b', entry: null, at: testMeta.now } },
  ];
  const state = events.reduce(organizationDecider.evolve, organizationDecider.initialState);
  t.same(state?.subscription?.plan.entries, { 'api.v1.c.d': { kind: 'none' } });
});
