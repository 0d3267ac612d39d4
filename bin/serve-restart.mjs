// What `stylist serve` starts itself again with (bin/stylist.mjs, with process.execve: Linux, Node
// >= 22.15; on an older Node it goes on as it is), for what only a starting process reads
// (docs/performance.md, Memory). bench/memory.ts starts its service children with the same.
// - MALLOC_ARENA_MAX=2 unless the environment sets it: the image threads (sharp) otherwise leave up
//   to ~150 MB in malloc arenas glibc keeps.
// - A V8 heap limit unless one is given (--max-old-space-size or --max-heap-size, in the flags or in
//   NODE_OPTIONS): below a 2 GB heap V8 lets the heap grow to about twice what a collection left
//   alive, above it to four times, and a sync allocating gigabytes of short-lived text reached four
//   times its live set. 1 GB past the search memory's budget, 1.5 GB at least.
// - A heap growing factor of 1.25 unless one is given (--heap-growing-percent): after each full
//   collection V8 lets the heap grow to twice what survived before it collects again, and a sync's
//   peak is mostly that slack; at 1.25 a 25,000-product sync peaked about 85 MB lower alone, 110
//   with the sync letting go of its listings, in the same time. A full collection marks
//   concurrently, so collecting more often costs the search little (docs/performance.md, Memory).
//   Node refuses the flag in NODE_OPTIONS, so an operator's goes on the command line.

const HEAP_FLAG = /--max-old-space-size|--max-heap-size/;
const GROWING_FLAG = /--heap-growing-percent/;
/** Percent the heap may grow past what a full collection left alive before the next one. */
const HEAP_GROWING_PERCENT = 25;

/**
 * The node flags and environment to start again with, or null when there is nothing to add.
 * `flags`: the node flags the process has (process.execArgv); `env`: its environment.
 */
export function serveRestart(flags, env) {
  const given = (pattern) => flags.some((flag) => pattern.test(flag)) || pattern.test(env.NODE_OPTIONS ?? '');
  const hasHeapLimit = given(HEAP_FLAG);
  const hasGrowing = given(GROWING_FLAG);
  if (env.MALLOC_ARENA_MAX !== undefined && hasHeapLimit && hasGrowing) return null;
  const heapLimit = hasHeapLimit ? [] : [`--max-old-space-size=${Math.max(1536, (Number(env.SEARCH_MEMORY_MB) || 512) + 1024)}`];
  const growing = hasGrowing ? [] : [`--heap-growing-percent=${HEAP_GROWING_PERCENT}`];
  return { flags: [...heapLimit, ...growing, ...flags], env: { MALLOC_ARENA_MAX: '2', ...env } };
}

/** Whether this process can start itself again in place. */
export const canRestart = () => process.platform === 'linux' && typeof process.execve === 'function';
