// DATA_DIR holds the server secret, the embedded database, stored files and the admin channel:
// only the service's own user may enter it or read what is in it.
import { chmod, lstat, mkdir, readdir, stat } from 'node:fs/promises';
import path from 'node:path';

export const DATA_DIR_MODE = 0o700;
/** Every file and directory the `stylist` process creates: 0600 / 0700 whatever the caller's umask. */
export const PROCESS_UMASK = 0o077;

/**
 * Creates DATA_DIR for the owner only. A directory left by an older version (created 0755) is
 * narrowed too: the files inside it are not safe behind a directory anyone may enter.
 */
export async function ensureDataDir(dir: string): Promise<void> {
  await mkdir(dir, { recursive: true, mode: DATA_DIR_MODE });
  const { mode, uid } = await stat(dir);
  // Only a directory this user owns is ours to narrow; chmod on another's fails anyway.
  if ((mode & 0o077) !== 0 && uid === process.getuid?.()) await chmod(dir, DATA_DIR_MODE);
}

/**
 * Takes group and other permissions off everything under `dir` (files 0600, directories 0700).
 * PGlite unpacks its initial database with modes of its own (0666, whatever the process umask)
 * and its file layer writes a few files 0644, so the embedded database is narrowed each time it
 * opens; PostgreSQL itself creates its relation files 0600. Symbolic links are left alone.
 */
export async function narrowTreeToOwner(dir: string): Promise<number> {
  let narrowed = 0;
  const entries = await readdir(dir, { recursive: true });
  for (const name of ['', ...entries]) {
    const file = path.join(dir, name);
    const info = await lstat(file).catch(() => undefined);
    if (!info || info.isSymbolicLink() || (info.mode & 0o077) === 0 || info.uid !== process.getuid?.()) continue;
    await chmod(file, info.mode & 0o700).catch(() => undefined);
    narrowed++;
  }
  return narrowed;
}
