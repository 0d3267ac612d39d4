// A client that sends a request over a raw socket, then drips the rest on a timer (or stops), as an
// attacker holding a connection open would: for the body budget's, the deadline's and Node's
// timeouts' tests. It stops when the server answers or closes, or after `giveUpMs`.
import { connect } from 'node:net';

export interface SlowAnswer {
  /** 0 when the server closed without an answer, or the client gave up. */
  status: number;
  text: string;
  /** The body as JSON, or undefined when it is not JSON. */
  json: any;
  /** From the first byte sent to the answer (or the close). */
  ms: number;
}

export interface SlowClient {
  answer: Promise<SlowAnswer>;
  /** Bytes written so far, head included. */
  sent(): number;
  /** More bytes, on the caller's own schedule (nothing once the exchange ended). */
  write(bytes: Buffer | string): void;
}

export interface SlowRequest {
  /** Written at once: the head (with or without its blank line) and the start of any body. */
  prefix: Buffer | string;
  /** Then `bytes` every `everyMs`, until the answer; without it the client just waits. */
  drip?: { bytes: Buffer | string; everyMs: number };
  giveUpMs?: number;
}

export function slowRequest(port: number, { prefix, drip, giveUpMs = 15_000 }: SlowRequest): SlowClient {
  let sent = 0;
  let write: (bytes: Buffer | string) => void = () => {};
  const answer = new Promise<SlowAnswer>((resolve) => {
    const started = performance.now();
    const chunks: Buffer[] = [];
    let timer: NodeJS.Timeout | undefined;
    let done = false;
    const socket = connect({ port, host: '127.0.0.1' });
    const finish = () => {
      if (done) return;
      done = true;
      clearInterval(timer);
      clearTimeout(giveUp);
      socket.destroy();
      resolve(parse(Buffer.concat(chunks), performance.now() - started));
    };
    const giveUp = setTimeout(finish, giveUpMs);
    write = (bytes: Buffer | string) => {
      if (done || socket.destroyed) return;
      const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'latin1') : bytes;
      sent += buffer.length;
      socket.write(buffer);
    };
    // Written before the connection is up, the prefix goes first whatever the caller writes next.
    write(prefix);
    if (drip) socket.on('connect', () => (timer = setInterval(() => write(drip.bytes), drip.everyMs)));
    socket.on('data', (data) => {
      chunks.push(data);
      clearInterval(timer);
      // A whole answer (its Content-Length read) ends the exchange; else the close does.
      const text = Buffer.concat(chunks).toString('latin1');
      const end = text.indexOf('\r\n\r\n');
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1];
      if (end >= 0 && length !== undefined && Buffer.byteLength(text.slice(end + 4), 'latin1') >= Number(length)) finish();
    });
    socket.on('error', finish);
    socket.on('close', finish);
  });
  return { answer, sent: () => sent, write: (bytes) => write(bytes) };
}

function parse(received: Buffer, ms: number): SlowAnswer {
  const text = received.toString('latin1');
  const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(text)?.[1] ?? 0);
  const body = Buffer.from(text.split('\r\n\r\n').slice(1).join('\r\n\r\n'), 'latin1').toString('utf8');
  let json: unknown;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return { status, text, json, ms };
}

/** A request head for `slowRequest`, ending in its blank line. */
export function head(method: string, path: string, headers: Record<string, string | number>): string {
  return [`${method} ${path} HTTP/1.1`, 'Host: 127.0.0.1', ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`), '', ''].join('\r\n');
}
