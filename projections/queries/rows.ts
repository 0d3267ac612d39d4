// What every read query does to a row from either driver: pg and PGlite hand back timestamps as
// Date (or text) and jsonb as objects (or text); ids from a request are checked before a uuid
// column sees them, so a malformed one finds nothing instead of failing the statement.
export const iso = (value: Date | string): string =>
  // Text already in the form toISOString gives passes as it is: parsing and printing it again cost
  // 3% of a search's CPU (pricing reads every candidate's queuedAt; bench/search.ts profile).
  typeof value === 'string' && ISO_INSTANT.test(value) ? value : (value instanceof Date ? value : new Date(value)).toISOString();
/** What Date#toISOString prints for the years 0 to 9999. */
const ISO_INSTANT = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;
export const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
export const isUuid = (id: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
