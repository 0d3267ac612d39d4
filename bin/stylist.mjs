#!/usr/bin/env node
// The `stylist` command: loads the TypeScript sources through tsx, from any working directory.
import { register } from 'tsx/esm/api';

// `stylist serve` on Linux starts itself again (process.execve, Node >= 22.15; on an older Node it
// goes on as it is) with what only a starting process reads (docs/performance.md, Memory):
// - MALLOC_ARENA_MAX=2 unless the environment sets it: the image threads (sharp) otherwise leave up
//   to ~150 MB in malloc arenas glibc keeps.
// - A V8 heap limit unless one is given (--max-old-space-size or --max-heap-size, on the command line
//   or in NODE_OPTIONS): below a 2 GB heap V8 lets the heap grow to about twice what a collection
//   left alive, above it to four times, and a sync allocating gigabytes of short-lived text reached
//   four times its live set. 1 GB past the search memory's budget, 1.5 GB at least.
const heapFlag = /--max-old-space-size|--max-heap-size/;
const hasHeapLimit = process.execArgv.some((arg) => heapFlag.test(arg)) || heapFlag.test(process.env.NODE_OPTIONS ?? '');
if (process.platform === 'linux' && process.argv[2] === 'serve' && (process.env.MALLOC_ARENA_MAX === undefined || !hasHeapLimit) && typeof process.execve === 'function') {
  const heapLimit = hasHeapLimit ? [] : [`--max-old-space-size=${Math.max(1536, (Number(process.env.SEARCH_MEMORY_MB) || 512) + 1024)}`];
  process.execve(process.execPath, [process.execPath, ...heapLimit, ...process.execArgv, ...process.argv.slice(1)], { MALLOC_ARENA_MAX: '2', ...process.env });
}

register();
await import('../app/cli/main.ts');
