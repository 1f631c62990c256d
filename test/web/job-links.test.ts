import { describe, expect, it } from 'vitest';
import { readEnv, secretsOf } from '../../src/config/read-env.js';
import { createJobLinks } from '../../src/web/job-links.js';
import { jobPageKey } from '../../src/web/job-page-key.js';

const PAGE_SECRET = 'a-job-page-secret-of-enough-length';
let clock = 1_800_000_000_000;
const links = createJobLinks({
  baseUrl: 'https://bot.example.org/ops/',
  key: jobPageKey({ JOB_PAGE_SECRET: PAGE_SECRET }),
  ttlMs: 7 * 86_400_000,
  now: () => clock,
});
const NONCE = 'AAAAAAAAAAAAAAAAAAAAAA';
const OTHER_NONCE = 'BBBBBBBBBBBBBBBBBBBBBB';
const link = (jobId: string, nonce = NONCE) => links.url(jobId, nonce)!;
const parts = (url: string) => {
  const parsed = new URL(url);
  return [
    parsed.searchParams.get('n'),
    parsed.searchParams.get('exp'),
    parsed.searchParams.get('mac'),
  ] as const;
};

describe('job page links', () => {
  it('open their own job until they expire', () => {
    const url = link('job-7');
    expect(url).toMatch(/^https:\/\/bot\.example\.org\/ops\/jobs\/job-7\?n=A{22}&exp=\d+&mac=[\w-]{43}$/);
    expect(links.check('job-7', ...parts(url))).toBe('ok');
    clock += 7 * 86_400_000;
    expect(links.check('job-7', ...parts(url))).toBe('expired');
    clock -= 7 * 86_400_000;
  });

  it('are the same link when drawn again within the hour (a refreshed view stays unchanged), and last at most an hour more', () => {
    clock += 60_000;
    const first = link('job-7');
    clock += 30 * 60_000;
    expect(link('job-7')).toBe(first);
    const [, exp] = parts(first);
    expect(Number(exp) * 1_000 - clock).toBeLessThanOrEqual(7 * 86_400_000 + 3_600_000);
    clock += 7 * 86_400_000 + 3_600_000;
    expect(links.check('job-7', ...parts(first))).toBe('expired');
    clock = 1_800_000_000_000;
  });

  it('refuse another job, another nonce, a changed expiry, a changed, re-spelt or missing signature', () => {
    const [nonce, exp, sig] = parts(link('job-7'));
    expect(links.check('job-7', nonce, exp, sig)).toBe('ok');
    expect(links.check('job-8', nonce, exp, sig)).toBe('invalid');
    expect(links.check('job-7', OTHER_NONCE, exp, sig)).toBe('invalid');
    expect(links.check('job-7', nonce, String(Number(exp) + 86_400), sig)).toBe('invalid');
    const changed = `${sig!.slice(0, -1)}${sig!.endsWith('A') ? 'B' : 'A'}`;
    expect(links.check('job-7', nonce, exp, changed)).toBe('invalid');
    // The same bytes spelt otherwise (base64 padding, standard alphabet): only the one spelling opens.
    const standard = Buffer.from(sig!, 'base64url').toString('base64');
    expect(Buffer.from(standard, 'base64url').equals(Buffer.from(sig!, 'base64url'))).toBe(true);
    expect(links.check('job-7', nonce, exp, standard)).toBe('invalid');
    expect(links.check('job-7', nonce, exp, `${sig}.`)).toBe('invalid');
    expect(links.check('job-7', nonce, exp, null)).toBe('invalid');
    expect(links.check('job-7', nonce, null, sig)).toBe('invalid');
    expect(links.check('job-7', null, exp, sig)).toBe('invalid');
  });

  it('are not drawn for a job recorded without a page nonce', () => {
    expect(links.url('job-7', undefined)).toBeUndefined();
  });

  it('are signed with a key derived from the secret, never the secret itself', () => {
    const key = jobPageKey({ JOB_PAGE_SECRET: PAGE_SECRET });
    expect(key.toString('utf8')).not.toContain(PAGE_SECRET);
    expect(key.equals(jobPageKey({ JOB_PAGE_SECRET: 'x'.repeat(32) }))).toBe(false);
  });
});

describe('job page environment', () => {
  it('reads PUBLIC_URL, JOB_PAGE_SECRET and JOB_PAGE_TTL (7 days by default)', () => {
    const env = readEnv({ PUBLIC_URL: 'https://bot.example.org', JOB_PAGE_SECRET: 's'.repeat(40) });
    expect(env).toMatchObject({ PUBLIC_URL: 'https://bot.example.org', JOB_PAGE_TTL: 7 * 86_400_000 });
    expect(secretsOf(env)).toContain('s'.repeat(40));
    expect(readEnv({}).PUBLIC_URL).toBeUndefined();
  });

  it('names the variable and why when the page cannot be served safely', () => {
    expect(() => readEnv({ PUBLIC_URL: 'https://bot.example.org' })).toThrow(
      /JOB_PAGE_SECRET: required when PUBLIC_URL is set: the job page links' key is derived from it alone/,
    );
    // Not from the Slack signing secret: the worker that writes the links does not hold it.
    expect(() =>
      readEnv({
        PUBLIC_URL: 'https://bot.example.org',
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 's'.repeat(40),
      }),
    ).toThrow(/JOB_PAGE_SECRET: required when PUBLIC_URL is set/);
    expect(() => readEnv({ PUBLIC_URL: 'ftp://bot', JOB_PAGE_SECRET: 's'.repeat(40) })).toThrow(
      /PUBLIC_URL: expected an http\(s\):\/\/ base URL/,
    );
    expect(() => readEnv({ PUBLIC_URL: 'https://bot.example.org', JOB_PAGE_SECRET: 'short' })).toThrow(
      /JOB_PAGE_SECRET: expected at least 32 characters/,
    );
    expect(() => readEnv({ JOB_PAGE_TTL: 'forever' })).toThrow(/JOB_PAGE_TTL: expected a duration/);
  });

  it('refuses a PUBLIC_URL over plain http:// unless it is a loopback host (the link is the key to the page)', () => {
    const secret = { JOB_PAGE_SECRET: 's'.repeat(40) };
    expect(() => readEnv({ PUBLIC_URL: 'http://bot.example.org', ...secret })).toThrow(
      /PUBLIC_URL: expected an https:\/\/ URL \(http:\/\/ only to a loopback host\), got http:\/\/bot\.example\.org/,
    );
    expect(() => readEnv({ PUBLIC_URL: 'http://10.0.0.5:3000', ...secret })).toThrow(
      /PUBLIC_URL: expected an https/,
    );
    for (const local of ['http://127.0.0.1:3000', 'http://localhost:3000', 'http://[::1]:3000'])
      expect(readEnv({ PUBLIC_URL: local, ...secret }).PUBLIC_URL, local).toBe(local);
  });

  it("reads the log streams' caps, batch size and idle timeout, with defaults, and names a bad one", () => {
    expect(readEnv({})).toMatchObject({
      JOB_PAGE_STREAMS: 200,
      JOB_PAGE_STREAMS_PER_JOB: 20,
      JOB_PAGE_BATCH_KB: 64,
      JOB_PAGE_STREAM_IDLE: 30_000,
    });
    expect(readEnv({ JOB_PAGE_STREAMS: '50', JOB_PAGE_STREAM_IDLE: '2m' })).toMatchObject({
      JOB_PAGE_STREAMS: 50,
      JOB_PAGE_STREAM_IDLE: 120_000,
    });
    expect(() => readEnv({ JOB_PAGE_STREAMS: 'lots' })).toThrow(/JOB_PAGE_STREAMS: expected a whole number/);
    expect(() => readEnv({ JOB_PAGE_STREAMS: '0' })).toThrow(/JOB_PAGE_STREAMS: expected at least 1/);
    expect(() => readEnv({ JOB_PAGE_BATCH_KB: '1' })).toThrow(/JOB_PAGE_BATCH_KB: expected at least 4/);
    expect(() => readEnv({ JOB_PAGE_STREAM_IDLE: 'soon' })).toThrow(
      /JOB_PAGE_STREAM_IDLE: expected a duration/,
    );
    expect(() => readEnv({ JOB_PAGE_STREAMS: '10', JOB_PAGE_STREAMS_PER_JOB: '11' })).toThrow(
      /JOB_PAGE_STREAMS_PER_JOB: expected at most JOB_PAGE_STREAMS \(10\), got 11/,
    );
  });
});
