import { context, type Span, SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { resourceFromAttributes } from '@opentelemetry/resources';
import { BatchSpanProcessor, TracerProvider } from '@opentelemetry/sdk-trace';
import type { JobTracing, RunTrace, TracedRun } from './job-tracing.js';

export interface OtlpTracingOptions {
  /** OTEL_EXPORTER_OTLP_ENDPOINT: the collector's base URL; traces go to its `/v1/traces` (OTLP/HTTP, JSON). */
  readonly endpoint: string;
  readonly serviceName: string;
  /** How long spans are buffered before they leave; the SDK's default is 5 s. */
  readonly exportDelayMs?: number;
}

/**
 * Traces over OTLP with OpenTelemetry's SDK, on a provider of its own (no global registration, no
 * auto-instrumentation): a span per job run, per step and per remote command, parented explicitly,
 * since the steps run in the engine, which knows nothing of tracing.
 */
export function createOtlpTracing(options: OtlpTracingOptions): JobTracing {
  const exporter = new OTLPTraceExporter({ url: `${options.endpoint.replace(/\/+$/, '')}/v1/traces` });
  const provider = new TracerProvider({
    resource: resourceFromAttributes({ 'service.name': options.serviceName }),
    spanProcessors: [
      new BatchSpanProcessor({
        exporter,
        ...(options.exportDelayMs !== undefined && { scheduledDelayMillis: options.exportDelayMs }),
      }),
    ],
  });
  const tracer = provider.getTracer('cluster-bot');
  return {
    startRun: (run) => traceRun(tracer, run),
    shutdown: () => provider.shutdown(),
  };
}

function traceRun(tracer: ReturnType<TracerProvider['getTracer']>, run: TracedRun): RunTrace {
  const runSpan = tracer.startSpan(`job ${run.command}`, {
    attributes: {
      'cluster_bot.job.id': run.jobId,
      'cluster_bot.job.number': run.number,
      'cluster_bot.cluster': run.cluster,
      'cluster_bot.attempt': run.attempt,
    },
  });
  const runContext = trace.setSpan(context.active(), runSpan);
  const steps = new Map<string, Span>();
  let current: Span | undefined;
  return {
    event(event) {
      if (event.type === 'step-started') {
        current = tracer.startSpan(
          `step ${event.stepId}`,
          { attributes: { 'cluster_bot.step': event.stepId } },
          runContext,
        );
        steps.set(event.stepId, current);
      } else if (event.type === 'step-finished') {
        const span = steps.get(event.stepId);
        if (!span) return;
        span.setAttribute('cluster_bot.step.status', event.status);
        if (event.status === 'failed') span.setStatus({ code: SpanStatusCode.ERROR, message: event.summary });
        span.end();
        steps.delete(event.stepId);
        if (current === span) current = undefined;
      } else if (event.type === 'gate-failed') {
        runSpan.addEvent('gate failed', {
          'cluster_bot.gate': event.gate,
          'cluster_bot.observed': event.observed,
        });
      }
    },
    command(target, commandLine) {
      const parent = current ? trace.setSpan(runContext, current) : runContext;
      const span = tracer.startSpan(
        `ssh ${target}`,
        {
          kind: SpanKind.CLIENT,
          attributes: { 'cluster_bot.target': target, 'cluster_bot.command_line': commandLine },
        },
        parent,
      );
      return (failure) => {
        if (failure) span.setStatus({ code: SpanStatusCode.ERROR, message: failure });
        span.end();
      };
    },
    end(outcome) {
      // A run that parks for an approval, or stops mid-step, leaves its open step spans here.
      for (const span of steps.values()) span.end();
      steps.clear();
      runSpan.setAttribute('cluster_bot.outcome', outcome);
      if (outcome === 'failed') runSpan.setStatus({ code: SpanStatusCode.ERROR });
      runSpan.end();
    },
  };
}
