/* global process */
// Preloaded into an agent worker process when the agent benchmark profiles it (NODE_OPTIONS
// `--import`; Node refuses `--cpu-prof` there): profiles from the start, and on each SIGUSR2 writes
// what it sampled since the last one to `${BENCH_PROFILE_PREFIX}-<n>.cpuprofile` and starts again,
// so the bench brackets each phase with two signals. Read a file with
// `node --import tsx bench/search/profile-summary.ts FILE`.
import { rename, writeFile } from 'node:fs/promises';
import { Session } from 'node:inspector/promises';

const prefix = process.env.BENCH_PROFILE_PREFIX;
if (prefix) {
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.setSamplingInterval', { interval: 500 });
  await session.post('Profiler.start');
  let written = 0;
  process.on('SIGUSR2', async () => {
    const { profile } = await session.post('Profiler.stop');
    const file = `${prefix}-${++written}.cpuprofile`;
    // Under its name only once complete: the bench waits for the name.
    await writeFile(`${file}.partial`, JSON.stringify(profile));
    await rename(`${file}.partial`, file);
    await session.post('Profiler.start');
  });
}
