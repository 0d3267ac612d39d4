// ObjectStore on the local filesystem (the default when S3_ENDPOINT is unset): DATA_DIR/objects.
//
// Layout, for key `images/2024/4f1c.jpeg`:
//   <root>/images+/2024+/4f1c.jpeg              the bytes
//   <root>/images+/2024+/4f1c.jpeg+meta.json    { "contentType": "image/jpeg" }
//   <root>/images+/2024+/4f1c.jpeg+tmp-<uuid>   a write in progress
// `+` is outside the key alphabet, so no key can name a sidecar, a temp file or a directory, and
// directories carry their own marker so that `a` and `a/b` can both be objects, as they can in S3.
import { randomUUID } from 'node:crypto';
import { constants as fsConstants, promises as fs, type BigIntStats } from 'node:fs';
import path from 'node:path';
import { validateObjectKey, type ObjectInfo, type ObjectStore, type ObjectStream, type StoredObject } from './port.js';

const DIR_MARK = '+';
const META_SUFFIX = '+meta.json';
const TEMP_INFIX = '+tmp-';
const DEFAULT_CONTENT_TYPE = 'application/octet-stream';
const SEGMENT = /^[A-Za-z0-9._-]+$/;

interface Sidecar {
  contentType: string;
  /** A fresh id per write: with the data file's stat, the object's version (older sidecars have none). */
  written?: string;
}

/**
 * A write renames a new file into place: a new inode and time. Inodes are reused and times are
 * coarse (a few ms), so two quick writes of the same size could look alike: the sidecar's id of
 * the write tells them apart.
 */
const versionOf = (stat: BigIntStats, written: string | undefined): string => `${stat.ino}-${stat.mtimeNs}-${stat.size}-${written ?? ''}`;

const isMissing = (error: unknown): boolean => {
  const code = (error as NodeJS.ErrnoException | null)?.code;
  // ENOTDIR: a path component is a file, which for this layout only happens if someone else wrote here.
  // ENAMETOOLONG: a name this file system cannot hold cannot name anything stored (the key check
  // bounds segments, but a file system may allow fewer bytes than it does).
  return code === 'ENOENT' || code === 'ENOTDIR' || code === 'ENAMETOOLONG';
};

export async function openFileObjectStore(root: string): Promise<ObjectStore> {
  await fs.mkdir(root, { recursive: true });
  // The containment check below compares strings, so it needs the real path (no symlinked parents, no `..`).
  const base = await fs.realpath(root);

  const directoryOf = (segments: readonly string[]): string => {
    const dir = path.resolve(base, ...segments.map((segment) => segment + DIR_MARK));
    if (dir !== base && !dir.startsWith(base + path.sep)) throw new Error(`object path escapes the store root: ${dir}`);
    return dir;
  };

  const locate = (key: string) => {
    const segments = validateObjectKey(key).split('/');
    const name = segments.pop() as string;
    const dir = directoryOf(segments);
    const data = path.join(dir, name);
    if (path.dirname(data) !== dir) throw new Error(`object path escapes the store root: ${data}`);
    return { dir, name, data, meta: data + META_SUFFIX };
  };

  const readContentType = async (metaPath: string): Promise<string> => (await readSidecar(metaPath)).contentType;

  const readSidecar = async (metaPath: string): Promise<Sidecar> => {
    try {
      const parsed = JSON.parse(await fs.readFile(metaPath, 'utf8')) as Partial<Sidecar>;
      return {
        contentType: typeof parsed.contentType === 'string' && parsed.contentType ? parsed.contentType : DEFAULT_CONTENT_TYPE,
        written: typeof parsed.written === 'string' ? parsed.written : undefined,
      };
    } catch (error) {
      // A missing or unreadable sidecar loses only the type, never the bytes.
      if (isMissing(error) || error instanceof SyntaxError) return { contentType: DEFAULT_CONTENT_TYPE };
      throw error;
    }
  };

  const writeAtomically = async (target: string, dir: string, name: string, content: Buffer | string): Promise<void> => {
    const temp = path.join(dir, `${name}${TEMP_INFIX}${randomUUID()}`);
    try {
      const handle = await fs.open(temp, 'wx');
      try {
        await handle.writeFile(content);
        // Without this a crash shortly after the rename can leave an empty file under the final name.
        await handle.datasync();
      } finally {
        await handle.close();
      }
      await fs.rename(temp, target);
    } catch (error) {
      await fs.rm(temp, { force: true });
      throw error;
    }
  };

  const walk = async (dir: string, keyPrefix: string, out: string[]): Promise<void> => {
    let entries;
    try {
      entries = await fs.readdir(dir, { withFileTypes: true });
    } catch (error) {
      if (isMissing(error)) return;
      throw error;
    }
    for (const entry of entries) {
      if (entry.isDirectory() && entry.name.endsWith(DIR_MARK)) {
        const segment = entry.name.slice(0, -DIR_MARK.length);
        if (SEGMENT.test(segment)) await walk(path.join(dir, entry.name), `${keyPrefix}${segment}/`, out);
      } else if (entry.isFile() && SEGMENT.test(entry.name)) {
        out.push(keyPrefix + entry.name);
      }
    }
  };

  return {
    kind: 'files',

    async put(key, body, options = {}) {
      const { dir, name, data, meta } = locate(key);
      const contentType = options.contentType || DEFAULT_CONTENT_TYPE;
      await fs.mkdir(dir, { recursive: true });
      // Sidecar first: the data file is what makes an object exist, so a reader never finds bytes
      // without their type. An overwrite that changes the type can still be seen with the new type
      // and the old bytes for the moment between the two renames.
      const written = randomUUID();
      await writeAtomically(meta, dir, name, JSON.stringify({ contentType, written } satisfies Sidecar));
      await writeAtomically(data, dir, name, body);
      return { key, contentType, size: body.length, version: versionOf(await fs.stat(data, { bigint: true }), written) };
    },

    async get(key): Promise<StoredObject | null> {
      const { data, meta } = locate(key);
      let body: Buffer;
      try {
        body = await fs.readFile(data);
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      return { key, body, contentType: await readContentType(meta), size: body.length };
    },

    async getStream(key): Promise<ObjectStream | null> {
      const { data, meta } = locate(key);
      let handle: fs.FileHandle;
      try {
        handle = await fs.open(data, 'r');
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      try {
        // The open file is the object as it was when opened, whatever is renamed over it meanwhile.
        const stat = await handle.stat({ bigint: true });
        const { contentType, written } = await readSidecar(meta);
        const body = handle.createReadStream({ autoClose: true });
        return { key, contentType, size: Number(stat.size), version: versionOf(stat, written), body };
      } catch (error) {
        await handle.close();
        throw error;
      }
    },

    async head(key): Promise<ObjectInfo | null> {
      const { data, meta } = locate(key);
      let stat: BigIntStats;
      try {
        stat = await fs.stat(data, { bigint: true });
        if (!stat.isFile()) return null;
      } catch (error) {
        if (isMissing(error)) return null;
        throw error;
      }
      const { contentType, written } = await readSidecar(meta);
      return { key, contentType, size: Number(stat.size), version: versionOf(stat, written) };
    },

    async delete(key) {
      const { data, meta } = locate(key);
      // Data first, mirroring put: once it is gone the object is gone, whatever happens to the sidecar.
      await fs.rm(data, { force: true });
      await fs.rm(meta, { force: true });
    },

    async list(prefix) {
      // A prefix need not be a key ("images/", "images/4f"), so it is checked segment by segment:
      // one that no valid key can start with matches nothing, and is never turned into a path.
      if (!/^[A-Za-z0-9._\-/]*$/.test(prefix)) return [];
      const complete = prefix.split('/');
      complete.pop();
      if (complete.some((segment) => segment === '.' || segment === '..' || !SEGMENT.test(segment))) return [];
      const keys: string[] = [];
      const start = complete.length ? `${complete.join('/')}/` : '';
      await walk(directoryOf(complete), start, keys);
      return keys.filter((key) => key.startsWith(prefix)).sort();
    },

    async ping() {
      await fs.access(base, fsConstants.R_OK | fsConstants.W_OK);
    },

    async close() {},
  };
}
