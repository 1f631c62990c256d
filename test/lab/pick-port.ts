import { randomInt } from 'node:crypto';
import { createServer } from 'node:net';

/**
 * Ports for processes that bind them later (sshd, a bot starting up takes seconds). They come from
 * below the kernel's ephemeral range (32768–60999), where no outgoing connection of a neighbouring
 * test can take them as its source port meanwhile, and from a block of their own per vitest worker,
 * so two test files running at once never pick the same one. `area` keeps kinds apart (sshd, bots).
 */
const BLOCK = 1_000;
const WORKERS = 10;

export function createPortPicker(area: number): (addresses?: readonly string[]) => Promise<number> {
  const base = area + (Number(process.env.VITEST_POOL_ID ?? 0) % WORKERS) * BLOCK;
  // A random start: two processes given the same block (a worker's next file) rarely start alike.
  let next = randomInt(BLOCK);
  return async (addresses = ['127.0.0.1']) => {
    for (let tried = 0; tried < BLOCK; tried += 1) {
      const port = base + (next++ % BLOCK);
      const free = await Promise.all(addresses.map((address) => canListen(address, port)));
      if (free.every(Boolean)) return port;
    }
    throw new Error(`no free port in ${base}–${base + BLOCK - 1} on ${addresses.join(', ')}`);
  };
}

export function canListen(address: string, port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = createServer();
    server.once('error', () => resolve(false));
    server.listen(port, address, () => server.close(() => resolve(true)));
  });
}
