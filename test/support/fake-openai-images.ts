// A local stand-in for an OpenAI-compatible images endpoint (`POST /images/edits`, multipart), for
// the looks tests: it answers a picture of one colour as `b64_json`, an error status, or nothing
// for a while, chosen per request from the prompt. Every request is recorded with the names of its
// multipart parts and the prompt, so a test can see what the adapter sent.
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { Teardown } from './database.js';

export type FakeImageReply = { colour: string; width?: number; height?: number } | { status: number } | { delayMs: number; then: FakeImageReply } | { b64: string } | { url: string };

export interface FakeImageRequest {
  path: string;
  model: string | null;
  prompt: string;
  /** Names of the file parts, in order (`image` or `image[]`). */
  files: string[];
  /** Every text field, by name. */
  fields: Record<string, string>;
}

export interface FakeOpenAiImages {
  baseURL: string;
  requests: FakeImageRequest[];
}

/** A multipart body's parts, read just well enough for a test: name, and text value for fields without a file name. */
function parts(body: Buffer, contentType: string): Array<{ name: string; file: boolean; value: string }> {
  const boundary = /boundary=(?:"([^"]+)"|([^;]+))/.exec(contentType);
  if (!boundary) return [];
  const marker = `--${boundary[1] ?? boundary[2]}`;
  return body
    .toString('latin1')
    .split(marker)
    .slice(1, -1)
    .map((chunk) => {
      const [head = '', ...rest] = chunk.split('\r\n\r\n');
      const name = /name="([^"]*)"/.exec(head)?.[1] ?? '';
      return { name, file: /filename="/.test(head), value: Buffer.from(rest.join('\r\n\r\n').replace(/\r\n$/, ''), 'latin1').toString('utf8') };
    });
}

export async function startFakeOpenAiImages(t: Teardown, choose: (request: FakeImageRequest) => FakeImageReply): Promise<FakeOpenAiImages> {
  const requests: FakeImageRequest[] = [];
  const server: Server = createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', async () => {
      const body = Buffer.concat(chunks);
      const fields = parts(body, String(request.headers['content-type'] ?? ''));
      const recorded: FakeImageRequest = {
        path: request.url ?? '',
        model: fields.find((p) => p.name === 'model')?.value ?? null,
        prompt: fields.find((p) => p.name === 'prompt')?.value ?? '',
        files: fields.filter((p) => p.file).map((p) => p.name),
        fields: Object.fromEntries(fields.filter((p) => !p.file).map((p) => [p.name, p.value])),
      };
      requests.push(recorded);
      const answer = async (reply: FakeImageReply): Promise<void> => {
        if ('delayMs' in reply) {
          const timer = setTimeout(() => void answer(reply.then), reply.delayMs);
          response.once('close', () => clearTimeout(timer));
          return;
        }
        if ('status' in reply) {
          response.writeHead(reply.status, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ error: { message: 'The server had an error.', type: 'server_error' } }));
          return;
        }
        if ('url' in reply) {
          response.writeHead(200, { 'content-type': 'application/json' });
          response.end(JSON.stringify({ created: 1, data: [{ url: reply.url }] }));
          return;
        }
        const b64 =
          'b64' in reply
            ? reply.b64
            : (await sharp({ create: { width: reply.width ?? 1024, height: reply.height ?? 1536, channels: 3, background: reply.colour } }).png().toBuffer()).toString('base64');
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ created: 1, data: [{ b64_json: b64 }] }));
      };
      await answer(choose(recorded));
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => {
    server.closeAllConnections();
    server.close(() => resolve());
  }));
  return { baseURL: `http://127.0.0.1:${(server.address() as AddressInfo).port}/v1`, requests };
}
