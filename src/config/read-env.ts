import { isIP } from 'node:net';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { z } from 'zod';
import { ClusterBotError } from '../errors.js';
import { parseDuration } from './parse-duration.js';

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export const PROCESS_ROLES = ['all', 'bot', 'worker'] as const;

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value === undefined || value.trim() === '' ? undefined : value.trim()));

const envSchema = z
  .object({
    SLACK_BOT_TOKEN: optionalText.refine(
      (v) => v === undefined || /^xox[bp]-/.test(v),
      'expected a bot token (xoxb-…)',
    ),
    SLACK_SIGNING_SECRET: optionalText,
    SLACK_APP_TOKEN: optionalText.refine(
      (v) => v === undefined || v.startsWith('xapp-'),
      'expected an app token (xapp-…)',
    ),
    // The bot token travels with every call: in clear only to a fake Slack on this machine.
    SLACK_API_URL: z
      .url({ error: 'expected a URL' })
      .refine(
        (url) =>
          url.startsWith('https://') || (url.startsWith('http://') && isLoopback(new URL(url).hostname)),
        'expected an https:// URL (http:// only to a loopback host)',
      )
      .default('https://slack.com/api/'),
    REDIS_URL: z
      .string()
      .regex(/^rediss?:\/\//, 'expected a redis:// or rediss:// URL')
      .default('redis://127.0.0.1:6379'),
    /** `host:port,host:port`: connect through Redis Sentinel (REDIS_URL then gives password/TLS/db). */
    REDIS_SENTINELS: z
      .string()
      .regex(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/, 'expected host:port[,host:port…]')
      .optional(),
    /**
     * `host:port,host:port`: the seed nodes of a Redis Cluster (REDIS_URL then gives password/TLS).
     * Every key then carries REDIS_PREFIX's hash tag, so each transaction stays in one slot.
     */
    REDIS_CLUSTER_NODES: z
      .string()
      .regex(/^[A-Za-z0-9.-]+:\d{1,5}(,[A-Za-z0-9.-]+:\d{1,5})*$/, 'expected host:port[,host:port…]')
      .optional(),
    /** PEM file of the CA that signed Redis's TLS certificate (rediss://), for private CAs. */
    REDIS_CA_FILE: z.string().min(1).optional(),
    REDIS_SENTINEL_NAME: z
      .string()
      .regex(/^[A-Za-z0-9_.-]+$/, 'expected a master name')
      .default('mymaster'),
    /** Default `cluster-bot`, or `{cluster-bot}` on a Redis Cluster. */
    REDIS_PREFIX: z
      .string()
      .regex(
        /^([A-Za-z0-9_.-]{1,64}|\{[A-Za-z0-9_.-]{1,62}\})$/,
        'expected letters, digits, _ . - (no colon), or those in braces as a hash tag: {cluster-bot}',
      )
      .optional(),
    /**
     * The address every listener binds (Slack's and the job pages' PORT, OPS_PORT): loopback unless
     * told otherwise, so a laptop's demo is not on the LAN; the image sets 0.0.0.0.
     */
    HOST: z
      .string()
      .trim()
      .refine((host) => isIP(host) !== 0, 'expected an IP address to listen on, e.g. 127.0.0.1 or 0.0.0.0')
      .default('127.0.0.1'),
    PORT: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65_535).default(3000),
    /** `/healthz`, `/readyz` and `/metrics` for probes and Prometheus, apart from Slack's port. */
    OPS_PORT: z.coerce.number({ error: 'expected a port number' }).int().min(0).max(65_535).default(9090),
    /** Commands one user may send per minute; more get a "slow down" answer and no look-up. */
    COMMANDS_PER_USER_PER_MINUTE: z.coerce
      .number({ error: 'expected a number' })
      .int()
      .min(1)
      .max(10_000)
      .default(10),
    /** How long a finished job's record, steps, approvals and thread state (and its log file) are kept. */
    JOB_RETENTION: duration('30d'),
    /**
     * The base URL people reach this process's HTTP listener at (e.g. https://bot.example.org): when
     * set, each job's board links to its page there; unset, there is no link and no page.
     */
    PUBLIC_URL: optionalText.superRefine((value, ctx) => {
      if (value === undefined) return;
      const url = URL.canParse(value) ? new URL(value) : undefined;
      if (!url || !/^https?:$/.test(url.protocol) || url.search || url.hash || url.username) {
        ctx.addIssue({
          code: 'custom',
          message: 'expected an http(s):// base URL without query, fragment or credentials',
        });
      } else if (url.protocol === 'http:' && !isLoopback(url.hostname)) {
        // A link's signature is its whole secret: over plain HTTP anyone on the path can read and reuse it.
        ctx.addIssue({
          code: 'custom',
          message: `expected an https:// URL (http:// only to a loopback host), got ${url.origin}`,
        });
      }
    }),
    /** The secret the job pages' signed links are keyed from (HKDF); required with PUBLIC_URL. */
    JOB_PAGE_SECRET: optionalText.refine(
      (v) => v === undefined || v.length >= 32,
      'expected at least 32 characters (e.g. openssl rand -hex 32)',
    ),
    /** How long a job page link opens its page. */
    JOB_PAGE_TTL: duration('7d'),
    /** Job page log streams this process serves at once; one more is answered 429. */
    JOB_PAGE_STREAMS: count(200),
    /** Log streams of one job at once (at most JOB_PAGE_STREAMS). */
    JOB_PAGE_STREAMS_PER_JOB: count(20),
    /** The most one log stream event carries: about what a stream with a slow reader holds. */
    JOB_PAGE_BATCH_KB: z.coerce
      .number({ error: 'expected kilobytes' })
      .int({ error: 'expected whole kilobytes' })
      .min(4, { error: 'expected at least 4 (kilobytes)' })
      .max(4_096, { error: 'expected at most 4096 (kilobytes)' })
      .default(64),
    /** A log stream whose reader takes nothing for this long is closed. */
    JOB_PAGE_STREAM_IDLE: duration('30s'),
    /** An OTLP/HTTP collector's base URL: traces (a span per job run, step, remote command) go to its /v1/traces. */
    OTEL_EXPORTER_OTLP_ENDPOINT: optionalText.refine(
      (value) => value === undefined || (URL.canParse(value) && /^https?:$/.test(new URL(value).protocol)),
      'expected an http(s):// URL of an OTLP/HTTP collector (e.g. http://otel-collector:4318)',
    ),
    OTEL_SERVICE_NAME: z.string().min(1).default('cluster-bot'),
    /** The job logs under DATA_DIR are pruned, oldest first, to stay within this total. */
    JOB_LOGS_MAX_MB: z.coerce.number({ error: 'expected megabytes' }).int().min(1).default(1_024),
    CLUSTER_BOT_CONFIG: z.string().min(1).optional(),
    CLUSTER_BOT_ROLE: z.enum(PROCESS_ROLES).default('all'),
    // Under the user's home, not /tmp: another local user could otherwise create it first.
    DATA_DIR: z
      .string()
      .min(1)
      .default(() => join(homedir(), '.local', 'state', 'cluster-bot')),
    LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
    CONSOLE_USER: z
      .string()
      .regex(/^[UW][A-Z0-9]{2,}$/, 'expected a Slack user id (U…)')
      .optional(),
    SHUTDOWN_GRACE_SECONDS: z.coerce
      .number({ error: 'expected seconds' })
      .int()
      .min(0)
      .max(3_600)
      .default(30),
    /**
     * BullMQ's lock on a running job, renewed at half of it, and how often workers look for jobs whose
     * lock lapsed (a killed worker's): a stalled job is resumed within about their sum.
     */
    JOB_LOCK_DURATION: duration('30s'),
    JOB_STALLED_INTERVAL: duration('30s'),
    /**
     * Commands run at once on one SSH connection (a job run keeps one per host); more wait their turn.
     * At most sshd's default MaxSessions, 10: a host set lower is met by waiting too.
     */
    SSH_CHANNELS_PER_CONNECTION: z.coerce
      .number({ error: 'expected a number of channels' })
      .int()
      .min(1)
      .max(10)
      .default(10),
  })
  .superRefine((env, ctx) => {
    if (env.REDIS_CLUSTER_NODES && env.REDIS_SENTINELS) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_CLUSTER_NODES'],
        message: 'set either REDIS_CLUSTER_NODES or REDIS_SENTINELS, not both',
      });
    }
    if (env.REDIS_CLUSTER_NODES && env.REDIS_PREFIX && !env.REDIS_PREFIX.startsWith('{')) {
      ctx.addIssue({
        code: 'custom',
        path: ['REDIS_PREFIX'],
        message: `on a Redis Cluster it must be a hash tag, e.g. {${env.REDIS_PREFIX}}, so a job's keys, its lease and BullMQ's queue share one slot`,
      });
    }
    if (env.CLUSTER_BOT_ROLE === 'worker') {
      // A worker runs what the ops host and the clusters hand it: if anything there ever ran code in
      // it, these would let it forge Slack's requests (approvals) or take Slack's events.
      for (const key of ['SLACK_SIGNING_SECRET', 'SLACK_APP_TOKEN'] as const) {
        if (env[key]) {
          ctx.addIssue({
            code: 'custom',
            path: [key],
            message:
              "must not be set for CLUSTER_BOT_ROLE=worker: only the process that takes Slack's requests holds it",
          });
        }
      }
    } else if (env.SLACK_BOT_TOKEN && !env.SLACK_APP_TOKEN && !env.SLACK_SIGNING_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['SLACK_SIGNING_SECRET'],
        message: 'required for the HTTP transport (or set SLACK_APP_TOKEN for Socket Mode)',
      });
    }
    if (env.PUBLIC_URL && !env.JOB_PAGE_SECRET) {
      ctx.addIssue({
        code: 'custom',
        path: ['JOB_PAGE_SECRET'],
        message: "required when PUBLIC_URL is set: the job page links' key is derived from it alone",
      });
    }
    if (env.JOB_PAGE_STREAMS_PER_JOB > env.JOB_PAGE_STREAMS) {
      ctx.addIssue({
        code: 'custom',
        path: ['JOB_PAGE_STREAMS_PER_JOB'],
        message: `expected at most JOB_PAGE_STREAMS (${env.JOB_PAGE_STREAMS}), got ${env.JOB_PAGE_STREAMS_PER_JOB}`,
      });
    }
    if ((env.SLACK_APP_TOKEN || env.SLACK_SIGNING_SECRET) && !env.SLACK_BOT_TOKEN) {
      ctx.addIssue({
        code: 'custom',
        path: ['SLACK_BOT_TOKEN'],
        message: 'required when Slack is configured',
      });
    }
  })
  .transform((env) => ({
    ...env,
    REDIS_PREFIX: env.REDIS_PREFIX ?? (env.REDIS_CLUSTER_NODES ? '{cluster-bot}' : 'cluster-bot'),
  }));

export type Env = z.output<typeof envSchema>;

/** The one place the process environment is read. Secrets stay in the result; loggers redact them. */
export function readEnv(env: NodeJS.ProcessEnv = process.env): Env {
  const parsed = envSchema.safeParse(env);
  if (parsed.success) return parsed.data;
  const problems = parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`);
  throw new ClusterBotError('ENV_INVALID', `environment is invalid:\n${problems.join('\n')}`, {
    details: { problems },
  });
}

/** Values that must never appear in anything the bot posts or logs. */
export function secretsOf(env: Env): string[] {
  return [
    env.SLACK_BOT_TOKEN,
    env.SLACK_SIGNING_SECRET,
    env.SLACK_APP_TOKEN,
    env.JOB_PAGE_SECRET,
    passwordOf(env.REDIS_URL),
  ].filter((value): value is string => value !== undefined && value.length >= 6);
}

/** A whole number of things, at least one. */
function count(fallback: number) {
  return z.coerce
    .number({ error: 'expected a whole number' })
    .int({ error: 'expected a whole number' })
    .min(1, { error: 'expected at least 1' })
    .max(100_000, { error: 'expected at most 100000' })
    .default(fallback);
}

/** A duration such as `30d` or `12h`, in milliseconds; zero is refused. */
function duration(fallback: string) {
  return z
    .string()
    .default(fallback)
    .transform((text, ctx) => {
      const ms = parseDuration(text);
      if (ms === undefined || ms === 0) {
        ctx.addIssue({ code: 'custom', message: 'expected a duration such as 30d or 12h' });
        return z.NEVER;
      }
      return ms;
    });
}

function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host === '::1') return true;
  return isIP(host) === 4 && host.startsWith('127.');
}

function passwordOf(url: string): string | undefined {
  try {
    return decodeURIComponent(new URL(url).password) || undefined;
  } catch {
    return undefined;
  }
}
