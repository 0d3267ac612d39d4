// A local HTTP server standing in for a store's image CDN: real PNG and JPEG photos drawn with
// sharp, and the ways real ones fail (missing, not an image, endless redirects, too slow, stalled
// or trickling bodies, bodies without end, redirects anywhere).
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import sharp from 'sharp';
import type { Teardown } from './database.js';

export interface PhotoServer {
  url: string;
  /** How many times each path was asked for. */
  hits: Map<string, number>;
}

/** A product shot: a garment-coloured block on a white studio background. */
export const productShot = (hex: string, format: 'png' | 'jpeg' = 'png', size = 400): Promise<Buffer> => {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${size}" height="${size * 1.25}"><rect width="100%" height="100%" fill="#ffffff"/><rect x="${size * 0.25}" y="${size * 0.2}" width="${size * 0.5}" height="${size * 0.8}" rx="20" fill="${hex}"/></svg>`;
  const image = sharp(Buffer.from(svg));
  return (format === 'png' ? image.png() : image.jpeg()).toBuffer();
};

export async function startPhotoServer(t: Teardown, photos: Record<string, Buffer> = {}): Promise<PhotoServer> {
  const hits = new Map<string, number>();
  const server: Server = createServer((request, response) => {
    const path = (request.url ?? '/').split('?')[0]!;
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const photo = photos[path];
    if (photo) {
      response.writeHead(200, { 'content-type': path.endsWith('.png') ? 'image/png' : 'image/jpeg', 'content-length': photo.length });
      response.end(photo);
    } else if (path === '/not-an-image.jpg') {
      // Says it is a JPEG; is a web page.
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.end('<html><body>Sorry, this image has moved</body></html>');
    } else if (path === '/loop.jpg') {
      response.writeHead(302, { location: '/loop.jpg' });
      response.end();
    } else if (path.startsWith('/moved/')) {
      response.writeHead(301, { location: path.slice('/moved'.length) });
      response.end();
    } else if (path === '/slow.jpg') {
      setTimeout(() => response.destroy(), 60_000).unref();
    } else if (path === '/stalls.jpg') {
      // Headers and the start of a JPEG, then silence.
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.write(Buffer.from([0xff, 0xd8, 0xff]));
    } else if (path === '/trickle.jpg') {
      // Never silent for long, never done: only a cap on the whole photo ends it.
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      response.write(Buffer.from([0xff, 0xd8, 0xff]));
      const timer = setInterval(() => response.write(Buffer.alloc(1)), 50);
      response.on('close', () => clearInterval(timer));
    } else if (path === '/endless.jpg') {
      // Chunked, no Content-Length: only counting the bytes finds it too large.
      response.writeHead(200, { 'content-type': 'image/jpeg' });
      const chunk = Buffer.alloc(64 * 1024, 0xff);
      let sent = 0;
      const more = () => {
        while (!response.destroyed && sent < 64 * 1024 * 1024) {
          sent += chunk.length;
          if (!response.write(chunk)) return void response.once('drain', more);
        }
        response.end();
      };
      more();
    } else if (path === '/away') {
      // Sends the client wherever ?to= says.
      response.writeHead(302, { location: new URL(request.url ?? '/', 'http://photos.invalid').searchParams.get('to') ?? '/' });
      response.end();
    } else {
      response.writeHead(404, { 'content-type': 'text/plain' });
      response.end('not found');
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  t.teardown(() => new Promise<void>((resolve) => { server.closeAllConnections(); server.close(() => resolve()); }));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, hits };
}
