/** The node flags and environment `stylist serve` starts itself again with, or null (bin/serve-restart.mjs). */
export function serveRestart(flags: readonly string[], env: NodeJS.ProcessEnv): { flags: string[]; env: NodeJS.ProcessEnv } | null;
/** Whether this process can start itself again in place (Linux, process.execve). */
export function canRestart(): boolean;
