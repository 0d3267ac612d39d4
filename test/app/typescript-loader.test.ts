// bin/typescript.mjs, the loader of the `stylist` command and of the tests: a TypeScript source
// importing `./file.js` gets `./file.ts`, a real `./file.js` is still found, and a missing one is
// Node's own error; the same with Node's type stripping turned off, through tsx instead.
import { execFile } from 'node:child_process';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import t from 'tap';

const loader = fileURLToPath(new URL('../../bin/typescript.mjs', import.meta.url));
const run = promisify(execFile);

t.test('a TypeScript source imports its siblings by their .js names, natively and through tsx', async (t) => {
  const dir = await mkdtemp(path.join(tmpdir(), 'stylist-loader-'));
  t.teardown(() => rm(dir, { recursive: true, force: true }));
  await writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module' }));
  await writeFile(path.join(dir, 'typed.ts'), 'export const typed = (n: number): string => `typed ${n}`;\n');
  await writeFile(path.join(dir, 'plain.js'), 'export const plain = "plain";\n');
  await writeFile(
    path.join(dir, 'main.ts'),
    [
      "import { typed } from './typed.js';",
      "import { plain } from './plain.js';",
      'interface Shown { typed: string; plain: string; stripping: unknown }',
      'const shown: Shown = { typed: typed(2), plain, stripping: process.features.typescript ?? false };',
      'console.log(JSON.stringify(shown));',
    ].join('\n'),
  );
  await writeFile(path.join(dir, 'missing.ts'), "import './nowhere.js';\n");

  for (const [label, flags] of [
    ['Node strips the types', []],
    ['tsx, with Node not stripping', ['--no-experimental-strip-types']],
  ] as const) {
    const { stdout } = await run(process.execPath, [...flags, '--import', loader, path.join(dir, 'main.ts')], { cwd: dir });
    const shown = JSON.parse(stdout) as { typed: string; plain: string; stripping: unknown };
    t.same({ typed: shown.typed, plain: shown.plain }, { typed: 'typed 2', plain: 'plain' }, `${label}: the .ts sibling and the real .js file are found`);
    t.equal(Boolean(shown.stripping), flags.length === 0, `${label}: process.features.typescript is ${String(shown.stripping)}`);

    const failed = await run(process.execPath, [...flags, '--import', loader, path.join(dir, 'missing.ts')], { cwd: dir }).then(
      () => null,
      (error: { code: number; stderr: string }) => error,
    );
    t.equal(failed?.code, 1, `${label}: a missing import fails the process`);
    t.match(failed?.stderr ?? '', /nowhere/, `${label}: naming the file it could not find`);
  }
});
