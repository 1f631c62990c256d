import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { labMs } from '../support/lab-time.js';
import { type SlackLab, startSlackLab } from '../support/start-slack-lab.js';
import { waitFor } from '../support/wait-for.js';

/** A span as OTLP/HTTP's JSON encoding carries it. */
interface OtlpSpan {
  traceId: string;
  spanId: string;
  parentSpanId?: string;
  name: string;
  kind: number;
  attributes: { key: string; value: { stringValue?: string; intValue?: string | number } }[];
  status?: { code?: number; message?: string };
}
interface OtlpExport {
  resourceSpans: {
    resource: { attributes: OtlpSpan['attributes'] };
    scopeSpans: { spans: OtlpSpan[] }[];
  }[];
}

const SECRETS = ['LabFakeSlackTokenNotReal', 'hunter2-lab-not-a-real-password', 'LabFakeWebhookSecret'];

/** An OTLP/HTTP receiver on loopback that keeps every export it is sent, as it was sent. */
function startReceiver(): Promise<{ server: Server; url: string; bodies: string[]; paths: string[] }> {
  const bodies: string[] = [];
  const paths: string[] = [];
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => {
      body += chunk;
    });
    request.on('end', () => {
      paths.push(`${request.method} ${request.url} ${request.headers['content-type']}`);
      bodies.push(body);
      response.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as AddressInfo;
      resolve({ server, url: `http://127.0.0.1:${port}`, bodies, paths });
    }),
  );
}

const attribute = (span: OtlpSpan, key: string) => {
  const value = span.attributes.find((a) => a.key === key)?.value;
  return value?.stringValue ?? (value?.intValue === undefined ? undefined : Number(value.intValue));
};

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let lab: SlackLab;

beforeAll(async () => {
  receiver = await startReceiver();
  lab = await startSlackLab({
    labVars: { lab_print_secrets: true },
    env: { OTEL_EXPORTER_OTLP_ENDPOINT: `${receiver.url}/`, OTEL_SERVICE_NAME: 'cluster-bot-lab' },
  });
}, labMs(90_000));

afterAll(async () => {
  await lab?.stop();
  await new Promise((resolve) => receiver?.server.close(resolve));
});

describe('OpenTelemetry traces over OTLP/HTTP (bot process, worker, ansible on the lab, a receiver on loopback)', {
  timeout: labMs(120_000),
}, () => {
  it('a job is a span, its steps its children, each remote command a child of its step; nothing secret leaves', async () => {
    await lab.driver.slash('packages k3s-dev-1', { userId: 'U0ALICE', channelId: 'C0OPS' });
    const spans = () =>
      receiver.bodies.flatMap((body) =>
        (JSON.parse(body) as OtlpExport).resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans)),
      );
    const job = await waitFor(
      'the job span',
      async () => spans().find((s) => s.name === 'job packages k3s-dev-1'),
      {
        timeoutMs: 60_000,
      },
    );
    expect(receiver.paths[0]).toBe('POST /v1/traces application/json');
    const resource = (JSON.parse(receiver.bodies[0]!) as OtlpExport).resourceSpans[0]!.resource;
    expect(resource.attributes).toContainEqual({
      key: 'service.name',
      value: { stringValue: 'cluster-bot-lab' },
    });
    expect(attribute(job, 'cluster_bot.cluster')).toBe('dev');
    expect(attribute(job, 'cluster_bot.job.id')).toMatch(/^job-\d+$/);
    expect(attribute(job, 'cluster_bot.outcome')).toBe('succeeded');
    expect(job.parentSpanId ?? '').toBe('');

    const all = spans().filter((s) => s.traceId === job.traceId);
    const steps = all.filter((s) => s.parentSpanId === job.spanId && s.name.startsWith('step '));
    expect(steps.length).toBeGreaterThan(0);
    expect(steps.every((step) => attribute(step, 'cluster_bot.step.status') === 'succeeded')).toBe(true);
    const commands = all.filter((s) => s.name.startsWith('ssh '));
    expect(commands.length).toBeGreaterThan(0);
    const stepIds = new Set(steps.map((step) => step.spanId));
    const playbook = commands.find((c) =>
      String(attribute(c, 'cluster_bot.command_line')).includes('ansible-playbook'),
    );
    expect(playbook, 'the playbook run').toBeDefined();
    expect(stepIds.has(playbook!.parentSpanId!)).toBe(true);
    expect(attribute(playbook!, 'cluster_bot.target')).toBe('ops');
    expect(playbook!.kind).toBe(3); // SPAN_KIND_CLIENT
    for (const secret of SECRETS) expect(receiver.bodies.join('\n')).not.toContain(secret);
  });
});
