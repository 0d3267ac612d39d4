import t from 'tap';
import { Conflict, Invalid, NotFound } from '../../domain/errors.js';
import { organizationDecider, type OrganizationEvent } from '../../domain/organization/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(organizationDecider);
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const created: OrganizationEvent = {
  type: 'OrganizationCreated',
  data: { organizationId, name: 'Acme Apparel', reportingTimezone: 'UTC', at: '2026-01-01T00:00:00.000Z' },
};

t.test('creating an organization trims its name and counts analytics in UTC', async (t) => {
  spec(t, [])
    .when({ type: 'CreateOrganization', data: { organizationId, name: '  Acme Apparel ' } })
    .then([{ type: 'OrganizationCreated', data: { organizationId, name: 'Acme Apparel', reportingTimezone: 'UTC', at: testMeta.now } }]);
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
  ]);
  spec(t, []).when({ type: 'CreateOrganization', data: { organizationId, name: 'ab' } }).then([
    { type: 'OrganizationCreated', data: { organizationId, name: 'ab', reportingTimezone: 'UTC', at: testMeta.now } },
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
