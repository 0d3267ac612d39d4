// The documentation against the code: the operators' configuration table names exactly the
// variables the configuration reads, the command-line table exactly the commands `stylist help`
// lists, and every relative link between README.md and docs/*.md reaches a file and a heading
// that exist. Both lists come from the running code, so a new variable or command fails here
// until the docs describe it.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';
import { loadConfig } from '../../infra/config/config.js';
import { cleanEnv, runStylistInProcess } from '../support/cli.js';

const root = path.resolve(import.meta.dirname, '../..');
const read = (file: string) => readFileSync(path.join(root, file), 'utf8');
const docFiles = ['README.md', ...readdirSync(path.join(root, 'docs')).filter((name) => name.endsWith('.md')).map((name) => `docs/${name}`)];

/** The text outside fenced code blocks: a `#` or a link inside one is an example, not the document's own. */
const prose = (markdown: string) => markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '');

/** The first cell of each body row of the first table under the heading `title`. */
function firstCells(markdown: string, title: string): string[] {
  const lines = prose(markdown).split('\n');
  const start = lines.findIndex((line) => /^#+ /.test(line) && line.replace(/^#+ /, '').trim() === title);
  if (start < 0) return [];
  const cells: string[] = [];
  let inTable = false;
  for (const line of lines.slice(start + 1)) {
    if (/^#+ /.test(line)) break;
    if (!line.startsWith('|')) {
      if (inTable) break;
      continue;
    }
    inTable = true;
    // A `\|` inside a cell is a literal bar (alternatives such as `start\|status`), not a column break.
    const cell = line.split(/(?<!\\)\|/)[1]!.trim();
    if (!/^-+$/.test(cell)) cells.push(cell);
  }
  return cells.slice(1);
}

const sorted = (names: Iterable<string>) => [...new Set(names)].sort();

t.test('the configuration table documents every variable the configuration reads, and no other', async (t) => {
  const readNames = new Set<string>();
  const recording = new Proxy({} as Record<string, string | undefined>, {
    get: (_target, name) => {
      if (typeof name === 'string') readNames.add(name);
      return undefined;
    },
  });
  loadConfig(recording);
  t.ok(readNames.size > 10, 'the configuration reads its variables by name');

  const cells = firstCells(read('docs/operations.md'), 'Configuration');
  const documented = cells.flatMap((cell) => [...cell.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1]!));
  t.same(sorted(documented), sorted(readNames), 'docs/operations.md › Configuration lists exactly these');
  t.same(documented.length, new Set(documented).size, 'each variable has one row');
});

/** `sync start\|status` → ['sync start', 'sync status']: the command words before the first option or argument. */
function commandNames(usage: string): string[] {
  const words = usage.replace(/^stylist\s+/, '').split(/\s+/);
  let names = [''];
  for (const word of words) {
    const alternatives = word.split('\\|');
    if (!alternatives.every((alternative) => /^[a-z][a-z-]*$/.test(alternative))) break;
    names = names.flatMap((name) => alternatives.map((alternative) => `${name} ${alternative}`.trim()));
  }
  return names;
}

t.test('the command-line table documents every stylist command, and no other', async (t) => {
  const help = await runStylistInProcess(['help'], cleanEnv({}));
  t.equal(help.code, 0, help.stderr);
  const listed = help.stdout
    .split('\n')
    .filter((line) => /^\s+stylist /.test(line))
    .flatMap((line) => commandNames(line.trim()));
  t.ok(listed.includes('serve') && listed.length > 10, 'stylist help lists its commands');

  const cells = firstCells(read('docs/operations.md'), 'Operator command line');
  const documented = cells.flatMap((cell) => [...cell.matchAll(/`([^`]+)`/g)].flatMap((match) => commandNames(match[1]!)));
  t.same(sorted(documented), sorted(listed), 'docs/operations.md › Operator command line lists exactly these');
});

/** GitHub's anchor for a heading: lower case, punctuation dropped, spaces as dashes, repeats numbered. */
function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>();
  const seen = new Map<string, number>();
  for (const [, heading] of prose(markdown).matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const text = heading!.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1');
    const base = text.toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(base) ?? 0;
    seen.set(base, count + 1);
    anchors.add(count ? `${base}-${count}` : base);
  }
  return anchors;
}

t.test('every relative link in README.md and docs/ reaches a file, and a heading where it names one', async (t) => {
  let checked = 0;
  for (const file of docFiles) {
    const text = prose(read(file)).replace(/`[^`\n]*`/g, '');
    const targets = [...text.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g), ...text.matchAll(/\b(?:src|href)="([^"]+)"/g)].map((match) => match[1]!);
    for (const target of targets) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue;
      const [pathPart, anchor] = target.split('#') as [string, string | undefined];
      const resolved = pathPart ? path.join(path.dirname(file), decodeURIComponent(pathPart)) : file;
      checked += 1;
      if (!existsSync(path.join(root, resolved))) {
        t.fail(`${file}: ${target} names a file that does not exist`);
        continue;
      }
      if (anchor && resolved.endsWith('.md')) t.ok(anchorsOf(read(resolved)).has(anchor), `${file}: ${target} names a heading of ${resolved}`);
    }
  }
  t.ok(checked > 10, `${checked} links checked`);
});
