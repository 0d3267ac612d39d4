// What read queries do to a row's timestamps: whatever form a driver hands back (pg a Date, PGlite
// text), the answer carries the instant as Date#toISOString prints it.
import fc from 'fast-check';
import t from 'tap';
import { iso } from '../../projections/queries/rows.js';

t.test('an instant reads the same from a Date, from its ISO text and from Postgres text', async (t) => {
  const instants = fc.date({ min: new Date('1970-01-01T00:00:00.000Z'), max: new Date('9999-12-31T23:59:59.999Z'), noInvalidDate: true });
  fc.assert(
    fc.property(instants, (date) => {
      const expected = date.toISOString();
      const postgresText = expected.replace('T', ' ').replace('Z', '+00');
      return iso(date) === expected && iso(expected) === expected && iso(postgresText) === expected;
    }),
    { numRuns: 500 },
  );
  t.equal(iso('2026-11-28 23:30:00.5+01'), '2026-11-28T22:30:00.500Z', 'an offset is taken into account');
  t.equal(iso('2026-11-28T22:30:00Z'), '2026-11-28T22:30:00.000Z', 'ISO text without milliseconds is printed with them');
  t.throws(() => iso('not a time'), RangeError, 'text that is no instant is not passed on');
});
