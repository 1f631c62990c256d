import { homedir } from 'node:os';
import { join } from 'node:path';
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
    expect(() => readEnv({ OTEL_EXPORTER_OTLP_ENDPOINT: 'otel-collector:4318' })).toThrow(
      'OTEL_EXPORTER_OTLP_ENDPOINT: expected an http(s):// URL of an OTLP/HTTP collector',
    );
    expect(readEnv({}).OTEL_EXPORTER_OTLP_ENDPOINT).toBeUndefined();
    expect(readEnv({}).OTEL_SERVICE_NAME).toBe('cluster-bot');
  });

  it('runs at most 10 commands at once on one SSH connection (sshd’s default MaxSessions), fewer if told', () => {
    expect(readEnv({}).SSH_CHANNELS_PER_CONNECTION).toBe(10);
    expect(readEnv({ SSH_CHANNELS_PER_CONNECTION: '4' }).SSH_CHANNELS_PER_CONNECTION).toBe(4);
    expect(() => readEnv({ SSH_CHANNELS_PER_CONNECTION: '11' })).toThrow(/SSH_CHANNELS_PER_CONNECTION/);
    expect(() => readEnv({ SSH_CHANNELS_PER_CONNECTION: '0' })).toThrow(/SSH_CHANNELS_PER_CONNECTION/);
  });

  it('binds loopback unless HOST names another address, and refuses a HOST that is not one', () => {
    expect(readEnv({}).HOST).toBe('127.0.0.1');
    expect(readEnv({ HOST: '0.0.0.0' }).HOST).toBe('0.0.0.0');
    expect(readEnv({ HOST: '::' }).HOST).toBe('::');
    for (const bad of ['localhost', '0.0.0.0:3000', 'bot.example.org', '']) {
      expect(() => readEnv({ HOST: bad })).toThrow(
        'HOST: expected an IP address to listen on, e.g. 127.0.0.1 or 0.0.0.0',
      );
    }
  });

  it('on a Redis Cluster the key prefix is a hash tag: {cluster-bot} by default, refused without braces', () => {
    expect(readEnv({}).REDIS_PREFIX).toBe('cluster-bot');
    const nodes = '10.0.0.21:6379,10.0.0.22:6379';
    expect(readEnv({ REDIS_CLUSTER_NODES: nodes }).REDIS_PREFIX).toBe('{cluster-bot}');
    expect(readEnv({ REDIS_CLUSTER_NODES: nodes, REDIS_PREFIX: '{homelab}' }).REDIS_PREFIX).toBe('{homelab}');
    expect(() => readEnv({ REDIS_CLUSTER_NODES: nodes, REDIS_PREFIX: 'homelab' })).toThrow(
      "REDIS_PREFIX: on a Redis Cluster it must be a hash tag, e.g. {homelab}, so a job's keys, its lease and BullMQ's queue share one slot",
    );
    expect(() => readEnv({ REDIS_CLUSTER_NODES: nodes, REDIS_SENTINELS: '10.0.0.21:26379' })).toThrow(
      'REDIS_CLUSTER_NODES: set either REDIS_CLUSTER_NODES or REDIS_SENTINELS, not both',
    );
    expect(() => readEnv({ REDIS_CLUSTER_NODES: '10.0.0.21' })).toThrow(
      'REDIS_CLUSTER_NODES: expected host:port[,host:port…]',
    );
  });

  it('sends the bot token in clear only to a loopback Slack', () => {
    for (const url of ['http://slack.example.com/api/', 'http://10.0.0.5:3000/api/', 'ftp://127.0.0.1/']) {
      expect(() => readEnv({ SLACK_API_URL: url }), url).toThrow(
        'SLACK_API_URL: expected an https:// URL (http:// only to a loopback host)',
      );
    }
    for (const url of [
      'https://slack.com/api/',
      'http://127.0.0.1:4000/api/',
      'http://localhost:1/api/',
      'http://[::1]:9/api/',
    ]) {
      expect(readEnv({ SLACK_API_URL: url }).SLACK_API_URL, url).toBe(url);
    }
  });

  it('reads the ops port, the per-user command limit and the retention, with defaults', () => {
    expect(readEnv({})).toMatchObject({
      OPS_PORT: 9090,
      COMMANDS_PER_USER_PER_MINUTE: 10,
      JOB_RETENTION: 30 * 86_400_000,
      JOB_LOGS_MAX_MB: 1_024,
    });
    expect(readEnv({ JOB_RETENTION: '12h', OPS_PORT: '9464' })).toMatchObject({
      JOB_RETENTION: 12 * 3_600_000,
      OPS_PORT: 9464,
    });
    expect(() => readEnv({ JOB_RETENTION: 'forever' })).toThrow(
      'JOB_RETENTION: expected a duration such as 30d or 12h',
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

  it('refuses the signing secret and the app token to a worker, naming each: only the bot takes Slack requests', () => {
    expect(() =>
      readEnv({
        CLUSTER_BOT_ROLE: 'worker',
        SLACK_BOT_TOKEN: 'xoxb-1',
        SLACK_SIGNING_SECRET: 'a-signing-secret',
        SLACK_APP_TOKEN: 'xapp-1',
      }),
    ).toThrow(
      "SLACK_SIGNING_SECRET: must not be set for CLUSTER_BOT_ROLE=worker: only the process that takes Slack's requests holds it\n" +
        "SLACK_APP_TOKEN: must not be set for CLUSTER_BOT_ROLE=worker: only the process that takes Slack's requests holds it",
    );
    // A worker needs only the bot token (it posts progress); no transport secret is asked of it.
    expect(
      readEnv({ CLUSTER_BOT_ROLE: 'worker', SLACK_BOT_TOKEN: 'xoxb-1' }).SLACK_SIGNING_SECRET,
    ).toBeUndefined();
  });

  it("keeps DATA_DIR under the user's home by default, never in world-writable /tmp", () => {
    expect(readEnv({}).DATA_DIR).toBe(join(homedir(), '.local', 'state', 'cluster-bot'));
  });
});
