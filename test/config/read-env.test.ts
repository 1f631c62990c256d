import { describe, expect, it } from 'vitest';
import { readEnv, secretsOf } from '../../src/config/read-env.js';

describe('environment', () => {
  it('applies defaults and needs no Slack for console mode', () => {
    const env = readEnv({});
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
    expect(env.SLACK_API_URL).toBe('https://slack.com/api/');
    expect(env.PORT).toBe(3000);
    expect(env.SLACK_BOT_TOKEN).toBeUndefined();
  });

  it('names each bad variable and why', () => {
    expect(() => readEnv({ PORT: 'eighty', REDIS_URL: 'http://x' })).toThrow(
      /REDIS_URL: expected a redis:\/\/ or rediss:\/\/ URL\nPORT: expected a port number/,
    );
    expect(() => readEnv({ SLACK_BOT_TOKEN: 'xoxb-1' })).toThrow(
      'SLACK_SIGNING_SECRET: required for the HTTP transport (or set SLACK_APP_TOKEN for Socket Mode)',
    );
  });

  it('accepts Socket Mode without a signing secret and lists the secrets to redact', () => {
    const env = readEnv({
      SLACK_BOT_TOKEN: 'xoxb-123-abc',
      SLACK_APP_TOKEN: 'xapp-1-A0-xyz',
      REDIS_URL: 'rediss://:s3cretpass@127.0.0.1:6380',
    });
    expect(secretsOf(env).sort()).toEqual(['s3cretpass', 'xapp-1-A0-xyz', 'xoxb-123-abc']);
  });
});
