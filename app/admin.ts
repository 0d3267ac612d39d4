// The local admin channel (document 3 §2). PGlite files open in one process only, so while a
// server runs, the CLI hands it the command line: an HTTP listener on the loopback address whose
// URL and random token sit in DATA_DIR/admin.json, readable by the owner only.
import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFile, rm, writeFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import type { Progress, ProgressSink } from './cli/progress.js';

const adminFile = (dataDir: string) => path.join(dataDir, 'admin.json');

const AdminAddress = z.object({ url: z.string().url(), token: z.string().min(32), pid: z.number().int() });
const AdminRequest = z.object({
  argv: z.array(z.string()).max(100),
  /**
   * Epoch ms after which the server must not start the command: the CLI's deadline for the answer's
   * headers (past it, it reports a refusal) less a margin that keeps a command starting now clear of it.
   */
  startBy: z.number().int().positive().optional(),
});

export type AdminAnswer = { ok: true; result: Record<string, unknown> } | { ok: false; error: string; usage?: boolean };

export interface AdminChannel {
  close(): Promise<void>;
}

export async function openAdminChannel(
  dataDir: string,
  execute: (argv: string[], progress: ProgressSink) => Promise<AdminAnswer>,
  options: { onLate?: (argv: string[]) => void } = {},
): Promise<AdminChannel> {
  const token = randomBytes(32).toString('base64url');
  const expected = Buffer.from(`Bearer ${token}`);
  const server = http.createServer((request, response) => {
    const reply = (status: number, body: unknown) => {
      response.writeHead(status, { 'content-type': 'application/json' });
      response.end(JSON.stringify(body));
    };
    const given = Buffer.from(request.headers.authorization ?? '');
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) return reply(401, { ok: false, error: 'admin token rejected' });
    if (request.method !== 'POST' || request.url !== '/command') return reply(404, { ok: false, error: 'unknown admin route' });
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      let parsed: z.infer<typeof AdminRequest>;
      try {
        parsed = AdminRequest.parse(JSON.parse(Buffer.concat(chunks).toString('utf8')));
      } catch {
        return reply(400, { ok: false, error: 'admin request must be {"argv": [strings]}' });
      }
      const { argv, startBy } = parsed;
      // Read only now (this process was stopped, or busy): the CLI has told its operator that nothing
      // was done, so nothing is.
      if (startBy !== undefined && Date.now() > startBy) {
        options.onLate?.(argv);
        return reply(408, { ok: false, error: 'the command arrived after the CLI had given up on it; nothing was done' });
      }
      // One JSON object a line: `{"progress": …}` while the command works (the CLI draws it), then the answer.
      response.writeHead(200, { 'content-type': 'application/x-ndjson' });
      // Sent now, not with the first line: the CLI takes prompt headers as the server being alive.
      response.flushHeaders();
      const progress: ProgressSink = (step) => void response.write(`${JSON.stringify({ progress: step })}\n`);
      execute(argv, progress).then(
        (answer) => response.end(`${JSON.stringify(answer)}\n`),
        (error: Error) => response.end(`${JSON.stringify({ ok: false, error: error.message })}\n`),
      );
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  await writeFile(adminFile(dataDir), JSON.stringify({ url: `http://127.0.0.1:${port}`, token, pid: process.pid }), { mode: 0o600 });
  return {
    close: async () => {
      await rm(adminFile(dataDir), { force: true });
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** The running server's answer, or null when no server holds this DATA_DIR; its progress goes to `progress` as it comes. */
export async function sendToServer(dataDir: string, argv: string[], progress: ProgressSink = () => undefined, answerMs = ADMIN_ANSWER_MS): Promise<AdminAnswer | null> {
  let address: z.infer<typeof AdminAddress>;
  try {
    address = AdminAddress.parse(JSON.parse(await readFile(adminFile(dataDir), 'utf8')));
  } catch {
    return null;
  }
  if (!isAlive(address.pid)) return null;
  // A server that holds the DATA_DIR but does not answer (stopped, stuck) cannot take the command,
  // and the CLI cannot open the stores it holds: refuse at once rather than wait on it for good.
  const answering = new AbortController();
  const timer = setTimeout(() => answering.abort(), answerMs);
  const response = await fetch(`${address.url}/command`, {
    method: 'POST',
    headers: { authorization: `Bearer ${address.token}`, 'content-type': 'application/json' },
    body: JSON.stringify({ argv, startBy: Date.now() + answerMs - Math.min(LATE_MARGIN_MS, answerMs / 2) }),
    signal: answering.signal,
  })
    .catch(() => null)
    .finally(() => clearTimeout(timer));
  if (!response && answering.signal.aborted) throw new ServerNotAnswering(dataDir, address.pid, answerMs);
  if (!response || !response.body) return null;
  if (!response.ok) return (await response.json()) as AdminAnswer;
  let answer: AdminAnswer | null = null;
  let buffer = '';
  const decoder = new TextDecoder();
  const take = (line: string) => {
    if (!line.trim()) return;
    const message = JSON.parse(line) as { progress?: Progress } | AdminAnswer;
    if ('progress' in message && message.progress) progress(message.progress);
    else answer = message as AdminAnswer;
  };
  for await (const chunk of response.body) {
    buffer += decoder.decode(chunk as Uint8Array, { stream: true });
    const lines = buffer.split('\n');
    buffer = lines.pop() ?? '';
    lines.forEach(take);
  }
  take(buffer);
  return answer ?? { ok: false, error: 'the server closed the admin channel without an answer' };
}

/** How long a running server may take to start answering a command (its headers come at once); ADMIN_ANSWER_SECONDS. */
const ADMIN_ANSWER_MS = 10_000;
/** A server takes a command only this long before the CLI's deadline (at most half the wait), so the two never disagree. */
const LATE_MARGIN_MS = 2_000;

export class ServerNotAnswering extends Error {
  override name = 'ServerNotAnswering';
  constructor(dataDir: string, pid: number, answerMs = ADMIN_ANSWER_MS) {
    super(
      `DATA_DIR ${dataDir} is in use by another stylist process (pid ${pid}), which did not answer on its admin channel within ${answerMs / 1000} s; nothing was changed: check that process, or stop it`,
    );
  }
}

export const isAlive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
};
