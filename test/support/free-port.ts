// A TCP port on loopback that nothing listens on at the moment it is asked: for a server the test
// starts in another process (nginx, a throwaway Postgres, a browser's page server) or for an
// address that must refuse connections.
import { createServer } from 'node:net';

export const freePort = (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      server.close(() => (address && typeof address === 'object' ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
