/** The node flags and environment `stylist serve` starts itself again with, or null (bin/serve-restart.mjs). */
export function serveRestart(flags: readonly string[], env: NodeJS.ProcessEnv): { flags: string[]; env: NodeJS.ProcessEnv } | null;
/** Whether this process can start itself again in place (Linux, process.execve). */
export function canRestart(): boolean;
/** Percent the heap may grow past what a full collection left alive (--heap-growing-percent), unless one is given. */
export const HEAP_GROWING_PERCENT: number;
