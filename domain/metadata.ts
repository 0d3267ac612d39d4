// What every command carries besides its own data. Time arrives here; domain code never reads the clock.
export interface Actor {
  /** `account`: a signed-in person (the session upload route), not an API key. */
  kind: 'key' | 'source' | 'system' | 'account';
  id: string;
}

export interface CommandMeta {
  now: string;
  actor: Actor;
  /** Ties every event of one request together, and derives event ids for idempotent retries. */
  correlationId: string;
}
