// Lets this process import the project's TypeScript sources: `import './bin/typescript.mjs'` (the
// `stylist` command) or `node --import ./bin/typescript.mjs` (the tests, `.taprc`).
//
// Where Node strips types itself (22.18+, 23.6+, 24) it runs them so, with one resolve hook: the
// sources import each other as `./file.js` (NodeNext's spelling), and the file is `./file.ts`.
// Elsewhere, and from inside a node_modules folder (Node will not strip types there), tsx runs them.
// Why not tsx everywhere: starting a process is a large part of a command's and a test file's CPU,
// and V8's compile cache (below) keeps code only for the source Node read itself, not tsx's
// output. Measured importing the test service (the whole app, some 1,000 modules) on 2 cores:
// tsx 2.8 s of CPU, tsx with the cache 2.2 s, Node's own stripping with the cache 1.2 s.
// Stripping only erases types, so the code must be erasable TypeScript: tsconfig's
// `erasableSyntaxOnly` holds it to that (no parameter properties, enums or namespaces), and tsx
// and Node then run the same JavaScript.
import { lstatSync, mkdirSync } from 'node:fs';
import module from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

// V8's compiled code kept on disk between processes, in a folder of this user's own in the OS's
// temporary folder: code read from a cache another user could write would run as this one, so a
// folder that is not this user's alone is not used. NODE_COMPILE_CACHE picks another folder,
// NODE_DISABLE_COMPILE_CACHE=1 turns it off. Children inherit the folder.
const cacheDir = process.env.NODE_COMPILE_CACHE || ownFolder(path.join(tmpdir(), `stylist-compile-cache-${process.getuid?.() ?? 'user'}`));
if (cacheDir && module.enableCompileCache) {
  const cache = module.enableCompileCache(cacheDir);
  if (cache?.directory) process.env.NODE_COMPILE_CACHE = cache.directory;
}

/**
 * `dir`, made if missing, when it is a directory only this user can write to; else undefined. The
 * service's own folders are held to this by app/data-dir.ts, which this file cannot import: it runs
 * before any TypeScript can be loaded.
 */
function ownFolder(dir) {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    const stat = lstatSync(dir);
    const mine = process.getuid ? stat.uid === process.getuid() : true;
    return stat.isDirectory() && mine && (stat.mode & 0o022) === 0 ? dir : undefined;
  } catch {
    return undefined;
  }
}

const here = fileURLToPath(import.meta.url);
const nativeTypes = Boolean(process.features.typescript) && typeof module.registerHooks === 'function' && !here.includes('/node_modules/');

if (nativeTypes) {
  module.registerHooks({
    resolve(specifier, context, nextResolve) {
      // A relative `.js` import from a `.ts` source names its `.ts` sibling; a real `.js` file is
      // still found when there is no such sibling.
      if (context.parentURL?.endsWith('.ts') && specifier.endsWith('.js') && (specifier.startsWith('./') || specifier.startsWith('../'))) {
        try {
          return nextResolve(`${specifier.slice(0, -3)}.ts`, context);
        } catch (error) {
          if (error?.code !== 'ERR_MODULE_NOT_FOUND') throw error;
        }
      }
      return nextResolve(specifier, context);
    },
  });
} else {
  const { register } = await import('tsx/esm/api');
  register();
}
