// The heaviest functions of a `.cpuprofile` by self time, and of the project's own files by total
// time (self plus callees), as tables: where a search's CPU goes, without opening DevTools.
//   node --import tsx bench/search/profile-summary.ts FILE [ROWS]
// (PROFILE_MAPS=tsx when the profiled process ran under tsx on a Node that strips types itself.)
import { readdir, readFile, stat } from 'node:fs/promises';
import { SourceMap } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number; columnNumber: number };
  children?: number[];
}
interface Profile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

const [file, rowsArg] = process.argv.slice(2);
if (!file) throw new Error('usage: profile-summary.ts FILE [ROWS]');
const profile = JSON.parse(await readFile(file, 'utf8')) as Profile;
const rows = Number(rowsArg) || 30;

const self = new Map<number, number>();
profile.samples.forEach((id, i) => self.set(id, (self.get(id) ?? 0) + (profile.timeDeltas[i] ?? 0)));
const byId = new Map(profile.nodes.map((node) => [node.id, node]));
const parent = new Map<number, number>();
for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);

// tsx runs TypeScript as whitespace-minified JavaScript, so the profile's positions are in that
// code: they are mapped back through the source maps tsx keeps in its cache (the newest per file).
// The cache is keyed by content, so a map may name the same file in another checkout: files are
// matched by their last three path segments. Where Node strips the types itself (the benches'
// `bin/typescript.mjs` on Node 22.18+), positions are the source's own and no map applies: a map
// left in the cache by another tsx run would move every function to a wrong line.
const tail = (file: string) => file.split(path.sep).slice(-3).join('/');
const sourceMaps = new Map<string, SourceMap>();
const cacheDir = path.join(os.tmpdir(), `tsx-${process.getuid?.() ?? 0}`);
const strippedByNode = (process.features as { typescript?: unknown }).typescript !== undefined && process.env.PROFILE_MAPS !== 'tsx';
const cached = strippedByNode ? [] : await readdir(cacheDir).catch(() => [] as string[]);
const newestFirst = (await Promise.all(cached.map(async (name) => ({ name, at: (await stat(path.join(cacheDir, name))).mtimeMs })))).sort((a, b) => b.at - a.at);
for (const { name } of newestFirst) {
  let entry: { map?: { sources?: string[] } };
  try {
    entry = JSON.parse(await readFile(path.join(cacheDir, name), 'utf8')) as typeof entry;
  } catch {
    continue;
  }
  const source = entry.map?.sources?.[0];
  if (source && !sourceMaps.has(tail(source))) sourceMaps.set(tail(source), new SourceMap(entry.map as never));
}
const label = (node: ProfileNode) => {
  const { functionName, url, lineNumber, columnNumber } = node.callFrame;
  let line = lineNumber + 1;
  const file = url.startsWith('file:') ? fileURLToPath(url) : url;
  const map = sourceMaps.get(tail(file));
  const entry = map?.findEntry(lineNumber, columnNumber) as { originalLine?: number } | undefined;
  if (entry?.originalLine !== undefined) line = entry.originalLine + 1;
  const where = url.replace(/^file:\/\/.*?\/(node_modules\/|(?=[a-z-]+\/))/, '$1');
  return `${functionName || '(anonymous)'} ${where ? `${where}:${line}` : ''}`.trim();
};
const total = [...self.values()].reduce((a, b) => a + b, 0);
const idle = [...self].filter(([id]) => ['(idle)', '(program)', '(garbage collector)'].includes(byId.get(id)!.callFrame.functionName));

const selfBy = new Map<string, number>();
for (const [id, us] of self) selfBy.set(label(byId.get(id)!), (selfBy.get(label(byId.get(id)!)) ?? 0) + us);
// Total time: each sample counted once for every distinct function on its stack.
const totalBy = new Map<string, number>();
for (const [id, us] of self) {
  const seen = new Set<string>();
  for (let at: number | undefined = id; at !== undefined; at = parent.get(at)) {
    const name = label(byId.get(at)!);
    if (seen.has(name)) continue;
    seen.add(name);
    totalBy.set(name, (totalBy.get(name) ?? 0) + us);
  }
}
const ms = (us: number) => (us / 1000).toFixed(0);
const pct = (us: number) => ((100 * us) / total).toFixed(1);
console.log(`${ms(total)} ms sampled; ${idle.map(([id, us]) => `${byId.get(id)!.callFrame.functionName} ${pct(us)}%`).join(', ')}`);
console.log('\n| Self ms | % | Function |\n| --- | --- | --- |');
for (const [name, us] of [...selfBy].sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`| ${ms(us)} | ${pct(us)} | ${name} |`);
console.log('\n| Total ms | % | Function (project files) |\n| --- | --- | --- |');
const own = [...totalBy].filter(([name]) => !name.includes('node_modules') && /\.ts:\d+$/.test(name));
for (const [name, us] of own.sort((a, b) => b[1] - a[1]).slice(0, rows)) console.log(`| ${ms(us)} | ${pct(us)} | ${name} |`);
