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
const parts = (url: string) => {
  const parsed = new URL(url);
  return [parsed.searchParams.get('exp'), parsed.searchParams.get('sig')] as const;
};

describe('job page links', () => {
  it('open their own job until they expire', () => {
    const url = links.url('job-7');
    expect(url).toMatch(/^https:\/\/bot\.example\.org\/ops\/jobs\/job-7\?exp=\d+&sig=[\w-]{43}$/);
    expect(links.check('job-7', ...parts(url))).toBe('ok');
    clock += 7 * 86_400_000;
    expect(links.check('job-7', ...parts(url))).toBe('expired');
    clock -= 7 * 86_400_000;
  });

  it('are the same link when drawn again within the hour (a refreshed view stays unchanged), and last at most an hour more', () => {
    clock += 60_000;
    const first = links.url('job-7');
    clock += 30 * 60_000;
    expect(links.url('job-7')).toBe(first);
    const [exp] = parts(first);
    expect(Number(exp) * 1_000 - clock).toBeLessThanOrEqual(7 * 86_400_000 + 3_600_000);
    clock += 7 * 86_400_000 + 3_600_000;
    expect(links.check('job-7', ...parts(first))).toBe('expired');
    clock = 1_800_000_000_000;
  });

  it('refuse another job, a changed expiry, a changed or missing signature', () => {
    const [exp, sig] = parts(links.url('job-7'));
    expect(links.check('job-8', exp, sig)).toBe('invalid');
    expect(links.check('job-7', String(Number(exp) + 86_400), sig)).toBe('invalid');
    expect(links.check('job-7', exp, `${sig!.slice(0, -1)}${sig!.endsWith('A') ? 'B' : 'A'}`)).toBe(
      'invalid',
    );
    expect(links.check('job-7', exp, null)).toBe('invalid');
    expect(links.check('job-7', null, sig)).toBe('invalid');
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
});
