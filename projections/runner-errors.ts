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
  constructor(
    readonly position: string,
    readonly behind: readonly BehindProjection[],
    readonly timeoutMs: number,
    /** What may explain it beyond the projections themselves (no runner in this process). */
    readonly hint?: string,
  ) {
    const listed = behind.map((p) => `${p.name} at ${p.position ?? 'start'}${p.error ? ` (${p.stopped ? 'stopped: ' : ''}${p.error})` : ''}`).join(', ');
    super(`projections did not reach ${position} within ${timeoutMs} ms: ${listed}${hint ? `; ${hint}` : ''}`);
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
  constructor(readonly failures: ReadonlyArray<{ name: string; error: string }>) {
    super(`rebuild failed: ${failures.map((f) => `${f.name}: ${f.error}`).join('; ')}`);
  }
}
