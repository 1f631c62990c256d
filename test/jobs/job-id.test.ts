import { describe, expect, it } from 'vitest';
import { approvalId, parseApprovalId } from '../../src/jobs/approval-id.js';
import { isJobId, jobIdOf } from '../../src/jobs/ports/job-id.js';
import { createJobLinks } from '../../src/web/job-links.js';

const links = createJobLinks({
  baseUrl: 'https://bot.example.org',
  key: Buffer.alloc(32, 7),
  ttlMs: 60_000,
  now: Date.now,
});
const NONCE = 'AAAAAAAAAAAAAAAAAAAAAA';
// What each reader of a job id makes of one: a signed page link, an approval button, the id itself.
const readers = {
  link: (id: string) => {
    const query = new URL(links.url(id, NONCE)!).searchParams;
    return links.check(id, query.get('n'), query.get('exp'), query.get('mac')) === 'ok';
  },
  approval: (id: string) => parseApprovalId(approvalId(id, '2-cilium', 1_700_000_000_000))?.jobId === id,
  id: isJobId,
};

describe('a job id', () => {
  it.each([1, 42, 999_999_999_999])('every reader takes the id job %i is given', (number) => {
    for (const read of Object.values(readers)) expect(read(jobIdOf(number))).toBe(true);
  });

  it.each(['job-0', 'job-042', 'job-1234567890123', 'job-', 'job-7x', 'Job-7', 'job-٧'])(
    'every reader refuses %s alike',
    (id) => {
      for (const [name, read] of Object.entries(readers)) expect(read(id), name).toBe(false);
    },
  );
});
