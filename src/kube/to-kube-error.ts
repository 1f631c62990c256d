import { ApiException } from '@kubernetes/client-node';
import { ClusterBotError } from '../errors.js';

/** API answers keep their HTTP code; anything else (refused, reset, DNS) means the API is unreachable. */
export function toKubeError(what: string, error: unknown): ClusterBotError {
  if (error instanceof ApiException) {
    const body = typeof error.body === 'string' ? error.body : JSON.stringify(error.body);
    const message = safeMessage(body) ?? `HTTP ${error.code}`;
    return new ClusterBotError('KUBE_REQUEST_FAILED', `${what}: ${message}`, {
      cause: error,
      details: { status: error.code },
    });
  }
  return new ClusterBotError(
    'KUBE_UNREACHABLE',
    `${what}: Kubernetes API unreachable (${(error as Error).message})`,
    {
      cause: error,
    },
  );
}

export function statusCodeOf(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
}

function safeMessage(body: string): string | undefined {
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    return typeof parsed.message === 'string' ? parsed.message : undefined;
  } catch {
    return body ? body.slice(0, 200) : undefined;
  }
}
