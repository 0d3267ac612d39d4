// A turn id as both channel adapters take it: one NATS subject token (letters, digits, - or _), at
// most 128 characters (the protocol bounds a subscribe line), so the embedded run refuses what
// production would.
export const TURN_ID = /^[A-Za-z0-9_-]{1,128}$/;

export function assertTurnId(turnId: string): void {
  if (!TURN_ID.test(turnId)) throw new TypeError(`invalid turn id ${JSON.stringify(turnId)}: 1–128 letters, digits, - or _`);
}
