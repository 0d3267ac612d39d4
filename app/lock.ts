// The embedded database may be opened by one process at a time: a second opener would corrupt
// it. A pid file under DATA_DIR says who holds it; a stale one (its process gone) is taken over.
import { readFile, rm, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { isAlive } from './admin.js';
import { StartupError } from './platform.js';

export async function lockDataDir(dataDir: string): Promise<{ release(): Promise<void> }> {
  const file = path.join(dataDir, 'stylist.pid');
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      await writeFile(file, String(process.pid), { flag: 'wx', mode: 0o600 });
      return { release: () => rm(file, { force: true }) };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      const holder = Number((await readFile(file, 'utf8').catch(() => '')).trim());
      if (holder && holder !== process.pid && isAlive(holder)) {
        throw new StartupError(`DATA_DIR ${dataDir} is in use by another stylist process (pid ${holder}); stop it or use another DATA_DIR`);
      }
      await rm(file, { force: true });
    }
  }
  throw new StartupError(`DATA_DIR ${dataDir} could not be locked`);
}
