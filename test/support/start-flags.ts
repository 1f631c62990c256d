import { readFileSync } from 'node:fs';

/**
 * The Node flags `npm start` runs `dist/main.js` with (the heap cap, which the worker's memory
 * depends on): a built process started by a test or the benchmark runs as deployed.
 */
export const START_FLAGS: readonly string[] = (
  JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as {
    scripts: { start: string };
  }
).scripts.start
  .split(' ')
  .filter((arg) => arg.startsWith('--'));
