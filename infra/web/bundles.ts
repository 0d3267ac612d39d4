// The browser code the service serves (web/: the embeddable widget and the demo storefront), built
// from its TypeScript sources by esbuild when the API starts: one minified script per entry, named
// by a hash of its bytes so it can be cached for a year. Building at start keeps `npm ci && npm
// start` the whole set-up (no build step to forget, no built files in the repository) and costs
// about a tenth of a second; esbuild is already what runs the TypeScript (through tsx).
import { createHash } from 'node:crypto';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

export interface WebBundle {
  /** Minified JavaScript. */
  code: Buffer;
  /** The first 16 hex digits of the SHA-256 of `code`. */
  hash: string;
}

export const WEB_ENTRIES = {
  widget: 'web/widget/index.ts',
  storefront: 'web/storefront/index.ts',
} as const;

export type WebEntry = keyof typeof WEB_ENTRIES;

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** One entry bundled into a single IIFE script for the browsers of the last few years. */
export async function buildWebBundle(entry: WebEntry): Promise<WebBundle> {
  const result = await build({
    entryPoints: [path.join(root, WEB_ENTRIES[entry])],
    bundle: true,
    minify: true,
    format: 'iife',
    // Safari 15: esbuild cannot lower destructuring for Safari 14's bugs.
    target: ['es2020', 'chrome90', 'firefox90', 'safari15'],
    write: false,
    legalComments: 'none',
    logLevel: 'silent',
  });
  const code = Buffer.from(result.outputFiles[0]!.contents);
  return { code, hash: createHash('sha256').update(code).digest('hex').slice(0, 16) };
}

let built: Promise<Record<WebEntry, WebBundle>> | undefined;

/**
 * Every entry, built once per process on first use (the API's many test instances never pay for
 * it; `stylist serve` asks at start, so a shopper never waits for it). A failed build is tried
 * again on the next call.
 */
export function webBundles(): Promise<Record<WebEntry, WebBundle>> {
  built ??= Promise.all([buildWebBundle('widget'), buildWebBundle('storefront')]).then(
    ([widget, storefront]) => ({ widget, storefront }),
    (error: unknown) => {
      built = undefined;
      throw error;
    },
  );
  return built;
}
