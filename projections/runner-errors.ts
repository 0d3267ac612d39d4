// Errors the projection runner hands to its callers.

export interface BehindProjection {
  name: string;
  position: string | null;
  /** Why it is behind, when known: its poisoned event, the error it keeps retrying. */
  error?: string;
  /** Stopped on a poisoned event: waiting longer cannot help. */
  stopped?: boolean;
}

/**
 * A read-your-writes wait did not see every named projection reach the position in time, or one
 * of them has stopped on a poisoned event (then it fails at once: waiting longer cannot help).
 * The API answers it with a 500 carrying `reason`: the change itself was saved.
 */
export class ProjectionTimeout extends Error {
  override name = 'ProjectionTimeout';
  readonly position: string;
  readonly behind: readonly BehindProjection[];
  readonly timeoutMs: number;
  /** What may explain it beyond the projections themselves (no runner in this process). */
  readonly hint?: string;
  constructor(
    position: string,
    behind: readonly BehindProjection[],
    timeoutMs: number,
    hint?: string,
  ) {
    const listed = behind.map((p) => `${p.name} at ${p.position ?? 'start'}${p.error ? ` (${p.stopped ? 'stopped: ' : ''}${p.error})` : ''}`).join(', ');
    super(`projections did not reach ${position} within ${timeoutMs} ms: ${listed}${hint ? `; ${hint}` : ''}`);
    this.position = position;
    this.behind = behind;
    this.timeoutMs = timeoutMs;
    this.hint = hint;
  }

  /** One sentence for the caller of the write that waited. */
  get reason(): string {
    const names = this.behind.map((p) => `'${p.name}'`).join(', ');
    const plural = this.behind.length > 1 ? 's' : '';
    const stopped = this.behind.some((p) => p.stopped);
    const what = stopped ? 'stopped before applying it' : `did not catch up within ${this.timeoutMs / 1000} s`;
    const details = this.behind.map((p) => `${p.name} is at ${p.position ?? 'the start'}${p.error ? `, ${p.error}` : ''}`).join('; ');
    return `The change was saved but projection${plural} ${names} ${what}: ${details}${this.hint ? `; ${this.hint}` : ''}.`;
  }
}

/** A rebuild finished with some projectors stopped on a handler error or a moved checkpoint. */
export class RebuildFailed extends Error {
  override name = 'RebuildFailed';
  readonly failures: ReadonlyArray<{ name: string; error: string }>;
  constructor(failures: ReadonlyArray<{ name: string; error: string }>) {
    super(`rebuild failed: ${failures.map((f) => `${f.name}: ${f.error}`).join('; ')}`);
    this.failures = failures;
  }
}

/** What a degraded organization lane tells the caller of a write (projections/parked.ts). */
export interface DegradedRead {
  projection: string;
  organizationId: string;
  eventType: string;
  position: string;
  error: string;
  parkedAt: string;
}

// A handler's message may quote what it was given: keep its first line, shortened, and blank out
// anything shaped like a credential before a caller sees it.
const SECRET_SHAPES = [/\b[a-z][a-z0-9+.-]*:\/\/[^\s/@]+@/gi, /\bsgpt-(?:pk|sk)-\S+/g, /\bBearer\s+\S+/gi, /\b(?![0-9a-f]{8}-[0-9a-f]{4}-)[A-Za-z0-9_-]{32,}\b/gi];
export const publicError = (error: string): string => {
  let line = error.split('\n')[0] ?? '';
  for (const shape of SECRET_SHAPES) line = line.replace(shape, '[redacted]');
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
};

/**
 * A write was saved, but one of the read models it waited for holds its organization's events
 * parked behind one it could not apply: the change shows once an operator replays them. Other
 * organizations are not affected. The API answers it with a 503 carrying `reason`.
 */
export class ProjectionDegraded extends Error {
  override name = 'ProjectionDegraded';
  readonly lanes: readonly DegradedRead[];
  constructor(lanes: readonly DegradedRead[]) {
    super(`read models degraded: ${lanes.map((l) => `${l.projection} for organization ${l.organizationId} (${l.eventType} at ${l.position}: ${l.error})`).join('; ')}`);
    this.lanes = lanes;
  }

  /** One sentence for the caller: which organization's read model, and why; no stack, no secrets. */
  get reason(): string {
    const details = this.lanes
      .map((l) => `'${l.projection}' of organization ${l.organizationId} has stopped at ${l.eventType} (${l.position}) since ${l.parkedAt}: ${publicError(l.error)}`)
      .join('; ');
    return `The change was saved but is not readable yet: read model ${details}. This organization's changes wait until an operator replays the parked events; other organizations are not affected.`;
  }
}
