// STYLIST_SECRET, or on the embedded default one generated once and kept under DATA_DIR,
// readable by the owner only, so key hashes stay valid across restarts.
import { randomBytes } from 'node:crypto';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { ensureDataDir } from './data-dir.js';

export async function serverSecret(dataDir: string, configured?: string): Promise<string> {
  if (configured) return configured;
  const file = path.join(dataDir, 'secret');
  try {
    const stored = (await readFile(file, 'utf8')).trim();
    if (stored.length >= 32) return stored;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  await ensureDataDir(dataDir);
  const secret = randomBytes(32).toString('base64url');
  // 'wx': two processes starting at once must not each write a different secret.
  try {
    await writeFile(file, `${secret}\n`, { mode: 0o600, flag: 'wx' });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return (await readFile(file, 'utf8')).trim();
  }
}
