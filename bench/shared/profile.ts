// A CPU profile of the bench's own process (the API and whatever else it runs in-process) over one
// stretch of a run, for the benchmarks that serve from this process: bench/search.ts and
// bench/agent.ts. Written as a `.cpuprofile` (Chrome DevTools, or
// `node --import tsx bench/search/profile-summary.ts FILE`). Started and stopped around the phase
// measured, so the catalogue's loading before it stays out of the profile.
import { writeFile } from 'node:fs/promises';

/** Starts sampling (every 200 µs) now; `stop` writes what was sampled and says so, naming the process as `of` does. */
export async function startCpuProfile(of?: string): Promise<{ stop(file: string): Promise<void> }> {
  const { Session } = await import('node:inspector/promises');
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 200 });
  await session.post('Profiler.start');
  return {
    async stop(file) {
      const { profile } = await session.post('Profiler.stop');
      await writeFile(file, JSON.stringify(profile));
      session.disconnect();
      console.error(`  CPU profile${of ? ` of ${of}` : ''} written to ${file}`);
    },
  };
}
