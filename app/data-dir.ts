// DATA_DIR holds the server secret, the embedded database, stored files and the admin channel:
// only the service's own user may enter it or read what is in it.
import { chmod, mkdir, stat } from 'node:fs/promises';

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
