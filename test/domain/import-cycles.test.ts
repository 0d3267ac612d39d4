// domain/ imports without circles: two modules that need each other's names share a third module
// instead (domain/sync-job/terms.ts, domain/agent/stylist/said.ts). Type-only imports count too:
// a circle of types is still two modules that cannot be read one without the other.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import t from 'tap';

const domain = path.resolve(import.meta.dirname, '../../domain');

function importGraph(): Map<string, string[]> {
  const files = readdirSync(domain, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith('.ts'));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const source = readFileSync(path.join(domain, file), 'utf8');
    const targets = [...source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s+'(\.[^']+)'/gm)].map((match) =>
      path.join(path.dirname(file), match[1]!.replace(/\.js$/, '.ts')),
    );
    graph.set(file, targets.filter((target) => files.includes(target)));
  }
  return graph;
}

/** Circles found by a depth-first walk (at least one through each knot of modules), each as the files along it. */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = [];
  const done = new Set<string>();
  const walk = (file: string, trail: string[]) => {
    const at = trail.indexOf(file);
    if (at >= 0) return void found.push([...trail.slice(at), file]);
    if (done.has(file)) return;
    for (const next of graph.get(file) ?? []) walk(next, [...trail, file]);
    done.add(file);
  };
  for (const file of graph.keys()) walk(file, []);
  return found;
}

t.test('no module of domain/ imports itself back through others', async (t) => {
  const graph = importGraph();
  t.ok(graph.size > 50 && graph.get('source/decide.ts')?.includes('sync-job/decide.ts'), 'the graph holds domain/ and its imports');
  t.same(circles(graph).map((circle) => circle.join(' > ')), []);
});
