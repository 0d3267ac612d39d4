#!/usr/bin/env node
// The `stylist` command: loads the TypeScript sources through tsx, from any working directory.
import { register } from 'tsx/esm/api';

// `stylist serve` on Linux runs with MALLOC_ARENA_MAX=2 unless the environment says otherwise: the
// image threads (sharp) otherwise leave up to ~150 MB in malloc arenas glibc keeps, and glibc reads
// the variable only when a process starts, so the process starts itself again with it
// (process.execve, Node >= 22.15; on an older Node it goes on without; docs/performance.md, Memory).
if (process.platform === 'linux' && process.argv[2] === 'serve' && process.env.MALLOC_ARENA_MAX === undefined && typeof process.execve === 'function') {
  process.execve(process.execPath, [process.execPath, ...process.execArgv, ...process.argv.slice(1)], { ...process.env, MALLOC_ARENA_MAX: '2' });
}

register();
await import('../app/cli/main.ts');
