// The embedded database may be opened by one process at a time: a second opener would corrupt
// it. A pid file under DATA_DIR says who holds it; a stale one (its process gone) is taken over.
import { link, readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAlive } from './admin.js';
import { StartupError } from './platform.js';

export async function lockDataDir(dataDir: string): Promise<{ release(): Promise<void> }> {
  const file = path.join(dataDir, 'stylist.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    // Written whole under a name of its own, then linked into place: the pid file never exists
    // empty, so another process starting at the same moment cannot take it for a stale one.
    const draft = `${file}.${process.pid}`;
    try {
      await writeFile(draft, String(process.pid), { mode: 0o600 });
      await link(draft, file);
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new StartupError(`DATA_DIR ${dataDir} is in use by another stylist process (pid ${holder}); stop it or use another DATA_DIR`);
      }
      await rm(file, { force: true });
    } finally {
      await rm(draft, { force: true });
    }
  }
  throw new StartupError(`DATA_DIR ${dataDir} could not be locked`);
}
