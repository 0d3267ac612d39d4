import t from 'tap';
import { Conflict, Invalid } from '../../domain/errors.js';
import { widgetPresetDecider, type WidgetPresetEvent, type WidgetPresetFields } from '../../domain/widget-preset/index.js';
import { specFor, testMeta } from '../support/decider.js';

const spec = specFor(widgetPresetDecider);
const presetId = '2b1e4f0c-9d3a-5c7e-8f6a-1d2c3b4a5e60';
const organizationId = '6c8a2a56-7a43-4c55-9a8e-1b8c2f1f0a01';
const otherOrganizationId = '5e2b7d44-6a0f-4d8b-9b1e-3c9f2a7e4b02';

const fields: WidgetPresetFields = {
  name: 'Summer',
  buttonLabel: 'Ask a stylist',
  buttonColor: '#111',
  buttonHoverColor: '#2228',
  buttonTextColor: '#FFFFFF',
  typingDotColor: '#aabbccdd',
  accentColor: '#a1b2c3',
  accentHoverColor: '#b2c3d4',
  mutedTextColor: '#777',
  primaryTextColor: '#000',
  pageColor: '#fff',
  surfaceColor: '#fafafa',
  borderColor: '#e0e0e0',
  inputColor: '#f5f5f5',
  footerColor: '#eee',
};

const options = {
  button: { label: 'Ask a stylist', color: '#111', hoverColor: '#2228', textColor: '#FFFFFF' },
  widget: {
    typingDotColor: '#aabbccdd',
    accentColor: '#a1b2c3',
    accentHoverColor: '#b2c3d4',
    mutedTextColor: '#777',
    primaryTextColor: '#000',
    pageColor: '#fff',
    surfaceColor: '#fafafa',
    borderColor: '#e0e0e0',
    inputColor: '#f5f5f5',
    footerColor: '#eee',
    roundness: 100,
  },
};

const create = (overrides: Partial<Record<keyof WidgetPresetFields, unknown>> = {}, by = organizationId) => ({
  type: 'CreateWidgetPreset' as const,
  data: { presetId, organizationId: by, fields: { ...fields, ...overrides } as WidgetPresetFields },
});

const created: WidgetPresetEvent = { type: 'WidgetPresetCreated', data: { presetId, organizationId, name: 'Summer', options, at: testMeta.now } };

t.test('creating a preset stores the options of document 1, fully round unless told otherwise', async (t) => {
  spec(t, []).when(create()).then([created]);
  spec(t, [])
    .when(create({ roundness: 0 }))
    .then([{ ...created, data: { ...created.data, options: { ...options, widget: { ...options.widget, roundness: 0 } } } }]);
});

t.test('name and button label are trimmed and measured once trimmed', async (t) => {
  spec(t, [])
    .when(create({ name: `  ${'n'.repeat(100)} `, buttonLabel: ` ${'b'.repeat(40)} ` }))
    .then([{ ...created, data: { ...created.data, name: 'n'.repeat(100), options: { ...options, button: { ...options.button, label: 'b'.repeat(40) } } } }]);
  spec(t, []).when(create({ name: 'n'.repeat(101) })).thenThrows(Invalid, 'name must be at most 100 characters.');
  spec(t, []).when(create({ buttonLabel: 'b'.repeat(41) })).thenThrows(Invalid, 'buttonLabel must be at most 40 characters.');
  spec(t, []).when(create({ name: '   ' })).thenThrows(Invalid, 'name must not be empty.');
});

t.test('colours are #rgb, #rgba, #rrggbb or #rrggbbaa', async (t) => {
  for (const colour of ['#abc', '#ABCD', '#a1b2c3', '#a1b2c3d4']) {
    t.equal(widgetPresetDecider.decide(create({ pageColor: colour }), null, testMeta).length, 1, colour);
  }
  for (const colour of ['abc', '#ab', '#abcde', '#abcdefg', '#a1b2c3d', '#ggg', ' #abc', 'red', '']) {
    spec(t, []).when(create({ pageColor: colour })).thenThrows(Invalid, 'pageColor must be a hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa.');
  }
});

t.test('roundness is an integer from 0 to 100', async (t) => {
  for (const roundness of [-1, 101, 2.5, '50', null]) {
    spec(t, []).when(create({ roundness })).thenThrows(Invalid, 'roundness must be an integer from 0 to 100.');
  }
});

t.test('a missing or mistyped field has its own message; several wrong fields are Validation failed. with each named', async (t) => {
  spec(t, []).when(create({ name: undefined })).thenThrows(Invalid, 'name is required.');
  spec(t, []).when(create({ footerColor: 7 })).thenThrows(Invalid, 'footerColor must be a string.');
  const run = () => widgetPresetDecider.decide(create({ name: undefined, accentColor: 'blue', roundness: 500 }), null, testMeta);
  t.throws(
    run,
    new Invalid('Validation failed.', {
      name: 'name is required.',
      accentColor: 'accentColor must be a hex colour: #rgb, #rgba, #rrggbb or #rrggbbaa.',
      roundness: 'roundness must be an integer from 0 to 100.',
    }),
  );
});

t.test('a retry of the request that created the preset creates nothing more', async (t) => {
  spec(t, [created]).when(create()).then([]);
});

t.test('a preset id is never taken over by another organization', async (t) => {
  spec(t, [created]).when(create({}, otherOrganizationId)).thenThrows(Conflict);
});

t.test('the state is the preset as document 1 shows it', async (t) => {
  const state = [created].reduce(widgetPresetDecider.evolve, widgetPresetDecider.initialState);
  t.same(state, { id: presetId, organizationId, name: 'Summer', options, created: testMeta.now, modified: testMeta.now });
});
