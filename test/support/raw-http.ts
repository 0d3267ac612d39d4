// One raw HTTP/1.1 exchange over a socket, for what app.inject cannot send: chunked bodies, a
// Content-Length shorter than the body, repeated headers, non-ASCII header bytes, bare LF lines.
import { connect } from 'node:net';

const IDLE_MS = 30_000;

/** One raw HTTP/1.1 exchange: the bytes as given, the first response as parsed. */
export async function exchange(port: number, bytes: Buffer): Promise<{ status: number; contentType: string; body: string }> {
  const received = await new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    // Written, not ended: the server closes the connection after its answer (Connection: close).
    const socket = connect({ port, host: '127.0.0.1' }, () => socket.write(bytes));
    // Only a server that hangs reaches this: it counts from the last byte that moved either way.
    // The slowest request the fuzz tests send, a 1 MB body in one-byte chunks, is answered 4 s after
    // it was sent on an idle Xeon and 9 s after with both cores busy; the server works through the
    // bytes the sockets still buffer in that silence (CI once timed out at 10 s, when that body
    // cost a promise per chunk and took 14 s on an idle machine).
    socket.setTimeout(IDLE_MS, () => socket.destroy(new Error(`no answer in ${IDLE_MS / 1000} s`)));
    socket.on('data', (chunk) => chunks.push(chunk));
    socket.on('error', (error) => (chunks.length ? resolve(Buffer.concat(chunks)) : reject(error)));
    socket.on('close', () => resolve(Buffer.concat(chunks)));
  });
  const text = received.toString('latin1');
  const [head = '', ...rest] = text.split('\r\n\r\n');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
  const header = (name: string) => new RegExp(`^${name}: *(.*)$`, 'im').exec(head)?.[1] ?? '';
  const length = Number(header('content-length') || Number.NaN);
  const raw = rest.join('\r\n\r\n');
  return { status, contentType: header('content-type'), body: Buffer.from(Number.isFinite(length) ? raw.slice(0, length) : raw, 'latin1').toString('utf8') };
}

export type Framing =
  | 'length'
  | 'short-length'
  | 'chunked'
  | 'byte-chunks'
  | 'bad-chunk'
  | 'length-and-chunked'
  | 'two-content-types'
  | 'two-keys'
  | 'latin1-header'
  | 'bare-lf'
  | 'huge-header'
  | 'over-body-limit';
export const FRAMINGS: Framing[] = [
  'length', 'short-length', 'chunked', 'byte-chunks', 'bad-chunk', 'length-and-chunked', 'two-content-types', 'two-keys', 'latin1-header', 'bare-lf', 'huge-header', 'over-body-limit',
];

/** Over the API's 10 MiB body limit. */
const OVER_LIMIT = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);

export function rawRequest(method: string, path: string, key: string, framing: Framing, body: Buffer): Buffer {
  const chunked = (parts: Buffer[]) => Buffer.concat([...parts.flatMap((part) => [Buffer.from(`${part.length.toString(16)}\r\n`), part, Buffer.from('\r\n')]), Buffer.from('0\r\n\r\n')]);
  const headers = [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', `Authorization: Bearer ${key}`, 'Connection: close'];
  let payload = body;
  switch (framing) {
    case 'length':
    case 'bare-lf':
      headers.push('Content-Type: application/json', `Content-Length: ${body.length}`);
      break;
    case 'short-length':
      headers.push('Content-Type: application/json', `Content-Length: ${Math.max(0, body.length - 3)}`);
      break;
    case 'chunked':
      headers.push('Content-Type: application/json', 'Transfer-Encoding: chunked');
      payload = chunked([body]);
      break;
    case 'byte-chunks':
      // A multi-byte character split over chunks must still decode as one.
      headers.push('Content-Type: application/json', 'Transfer-Encoding: chunked');
      payload = chunked([...body].map((byte) => Buffer.from([byte])));
      break;
    case 'bad-chunk':
      headers.push('Content-Type: application/json', 'Transfer-Encoding: chunked');
      payload = Buffer.concat([Buffer.from('zz\r\n'), body, Buffer.from('\r\n0\r\n\r\n')]);
      break;
    case 'length-and-chunked':
      headers.push('Content-Type: application/json', `Content-Length: ${body.length}`, 'Transfer-Encoding: chunked');
      payload = chunked([body]);
      break;
    case 'two-content-types':
      headers.push('Content-Type: application/json', 'Content-Type: text/plain', `Content-Length: ${body.length}`);
      break;
    case 'two-keys':
      headers.push(`Authorization: Bearer ${key}`, 'Content-Type: application/json', `Content-Length: ${body.length}`);
      break;
    case 'huge-header':
      headers.push('Content-Type: application/json', `X-Padding: ${'p'.repeat(20_000)}`, `Content-Length: ${body.length}`);
      break;
    case 'over-body-limit':
      headers.push('Content-Type: application/json', `Content-Length: ${OVER_LIMIT.length}`);
      payload = OVER_LIMIT;
      break;
    case 'latin1-header':
      headers.push('Content-Type: application/json; charset=\u00ff\u00e9', `Idempotency-Key: \u00e9\u00ff`, `Content-Length: ${body.length}`);
      break;
  }
  const eol = framing === 'bare-lf' ? '\n' : '\r\n';
  return Buffer.concat([Buffer.from(headers.join(eol) + eol + eol, 'latin1'), payload]);
}

