// A real load balancer in front of API processes for tests and benchmarks: nginx, run as a child
// process with a configuration of its own around the proxy settings of deploy/nginx.conf (the
// compose file's), so "two API processes behind a load balancer" is tested and measured through
// one rather than by clients that split themselves. `{ missing }`, with the reason, where nginx is
// not installed (`apt-get install nginx-light`; NGINX_BINARY names another binary).
import { spawn, spawnSync } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { freePort } from './free-port.js';

export interface Balancer {
  url: string;
  stop(): Promise<void>;
}


/** The nginx binary, or why there is none. */
export function findNginx(): { binary: string } | { missing: string } {
  const binary = process.env.NGINX_BINARY || 'nginx';
  const probe = spawnSync(binary, ['-v'], { encoding: 'utf8' });
  if (probe.error) return { missing: `${binary} not found (apt-get install nginx-light, or NGINX_BINARY=/path/to/nginx)` };
  return { binary };
}

/** The proxy block of deploy/nginx.conf, the part between its markers, so the bench measures the shipped settings. */
async function shippedProxySettings(): Promise<string> {
  const text = await readFile(new URL('../../deploy/nginx.conf', import.meta.url), 'utf8');
  const match = /# proxy settings: begin\n([\s\S]*?)# proxy settings: end/.exec(text);
  if (!match) throw new Error('deploy/nginx.conf lost its "# proxy settings: begin/end" markers');
  return match[1]!;
}

/** nginx round-robin over `upstreams` (http://host:port each), listening on a free loopback port. */
export async function startNginx(upstreams: readonly string[]): Promise<Balancer | { missing: string }> {
  const found = findNginx();
  if ('missing' in found) return found;
  const dir = await mkdtemp(path.join(os.tmpdir(), 'stylist-bench-nginx-'));
  const port = await freePort();
  const servers = upstreams.map((url) => `    server ${new URL(url).host};`).join('\n');
  const config = `worker_processes 1;
daemon off;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log warn;
events { worker_connections 1024; }
http {
  access_log off;
  client_body_temp_path ${dir}/body;
  proxy_temp_path ${dir}/proxy;
  fastcgi_temp_path ${dir}/fastcgi;
  uwsgi_temp_path ${dir}/uwsgi;
  scgi_temp_path ${dir}/scgi;
  upstream stylist_api {
${servers}
    keepalive 64;
  }
  server {
    listen 127.0.0.1:${port};
    location / {
      proxy_pass http://stylist_api;
${await shippedProxySettings()}    }
  }
}
`;
  await writeFile(path.join(dir, 'nginx.conf'), config);
  const child = spawn(found.binary, ['-p', dir, '-c', path.join(dir, 'nginx.conf')], { stdio: ['ignore', 'ignore', 'pipe'] });
  let stderr = '';
  child.stderr.on('data', (chunk) => (stderr += String(chunk)));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  // Ready once it answers; an exit first is a configuration error worth its message.
  for (let attempt = 0; ; attempt++) {
    if (child.exitCode !== null) throw new Error(`nginx exited: ${stderr.trim() || (await readFile(path.join(dir, 'error.log'), 'utf8').catch(() => ''))}`);
    const answered = await fetch(`${url}/healthz`).then((r) => r.ok, () => false);
    if (answered) break;
    if (attempt > 200) throw new Error(`nginx did not answer on ${url}: ${stderr.trim()}`);
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
  return {
    url,
    stop: async () => {
      child.kill('SIGTERM');
      await exited;
      await rm(dir, { recursive: true, force: true });
    },
  };
}
