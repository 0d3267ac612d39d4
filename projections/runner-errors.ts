// Errors the projection runner hands to its callers.

export interface BehindProjection {
  name: string;
  position: string | null;
  error?: string;
}

/**
 * A read-your-writes wait did not see every named projection reach the position in time, or one
 * of them has stopped on a handler error (then it fails at once: waiting longer cannot help).
 * The API maps it to 500.
 */
export class ProjectionTimeout extends Error {
  override name = 'ProjectionTimeout';
  constructor(
    readonly position: string,
    readonly behind: readonly BehindProjection[],
    readonly timeoutMs: number,
  ) {
    const listed = behind.map((p) => `${p.name} at ${p.position ?? 'start'}${p.error ? ` (stopped: ${p.error})` : ''}`).join(', ');
    super(`projections did not reach ${position} within ${timeoutMs} ms: ${listed}`);
  }
}

/** A rebuild finished with some projectors stopped on a handler error or a moved checkpoint. */
export class RebuildFailed extends Error {
  override name = 'RebuildFailed';
  constructor(readonly failures: ReadonlyArray<{ name: string; error: string }>) {
    super(`rebuild failed: ${failures.map((f) => `${f.name}: ${f.error}`).join('; ')}`);
  }
}
