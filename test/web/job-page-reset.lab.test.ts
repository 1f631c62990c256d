import { Redis } from 'ioredis';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { REDIS_URL, uniquePrefix } from '../support/redis-prefix.js';
import { startPageLab } from '../support/start-page-lab.js';

const STEP = { id: '1-up', title: 'site.yml', target: 'dev', disruptive: false };
const space = uniquePrefix('page-reset');

let lab: Awaited<ReturnType<typeof startPageLab>>;
beforeAll(async () => {
  lab = await startPageLab({
    connect: () => new Redis(REDIS_URL, { maxRetriesPerRequest: null }),
    prefix: space.prefix,
    cleanup: space.cleanup,
  });
});
afterAll(() => lab?.stop());

describe('a job page link after Redis lost its keys (a reset, or the prefix used again)', () => {
  it('opens only the job it was drawn for, never the new job that took the same id', async () => {
    const before = await lab.startJob([STEP]);
    before.feed.line('TASK [the earlier job] ***');
    await before.feed.flush();
    expect((await fetch(before.url)).status).toBe(200);

    // Every key under the prefix gone: the numbering starts again, and the next job is job-1 again.
    await space.cleanup();
    const after = await lab.startJob([STEP]);
    after.feed.line('TASK [the new job] ***');
    await after.feed.flush();
    expect(after.id).toBe(before.id);

    for (const part of ['', '/data', '/log']) {
      const old = await fetch(before.url.replace(/(\/jobs\/job-\d+)/, `$1${part}`));
      expect(old.status, `old link ${part}`).toBe(403);
      // The page says the job it was drawn for is gone (its data and log: nothing); of the new job, nothing.
      const said = await old.text();
      if (part) expect(said).toBe('');
      else expect(said).toContain('This job is no longer recorded');
      expect(said).not.toMatch(/the (?:earlier|new) job|job-\d/);
    }
    const page = await fetch(after.url.replace(/(\/jobs\/job-\d+)/, '$1/data'));
    expect(page.status).toBe(200);
    expect(await page.text()).not.toContain('the earlier job');
  });
});
