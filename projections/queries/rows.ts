// What every read query does to a row from either driver: pg and PGlite hand back timestamps as
// Date (or text) and jsonb as objects (or text); ids from a request are checked before a uuid
// column sees them, so a malformed one finds nothing instead of failing the statement.
export const iso = (value: Date | string): string => (value instanceof Date ? value : new Date(value)).toISOString();
export const json = <T>(value: unknown): T => (typeof value === 'string' ? JSON.parse(value) : value) as T;
export const isUuid = (id: string): boolean => /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(id);
