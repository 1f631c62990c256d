import type { Watch } from '@kubernetes/client-node';
import type { KubeGateway, WatchTarget } from '../lifecycle/ports/kube-gateway.js';

export interface KubeWatchOptions {
  /** Pause before re-opening a watch that ended (server timeout, cut stream). */
  readonly rewatchDelayMs?: number;
  readonly onWatchError?: (target: WatchTarget, error: unknown) => void;
}

/** The gateway's watch: any change calls onChange; an ended watch is re-opened until the signal aborts. */
export function createKubeWatch(watcher: Watch, options: KubeWatchOptions): KubeGateway['watch'] {
  const rewatchDelayMs = options.rewatchDelayMs ?? 1_000;
  return (target, onChange, signal) => {
    const { path, query } = watchRequest(target);
    const open = async (): Promise<void> => {
      if (signal.aborted) return;
      let retried = false;
      const again = (error?: unknown) => {
        if (retried || signal.aborted) return;
        retried = true;
        if (error) options.onWatchError?.(target, error);
        // A re-opened watch starts with a fresh list: tell the caller to re-read.
        setTimeout(() => {
          onChange();
          void open();
        }, rewatchDelayMs).unref();
      };
      try {
        const controller = await watcher.watch(path, query, () => onChange(), again);
        if (signal.aborted) controller.abort();
        else signal.addEventListener('abort', () => controller.abort(), { once: true });
      } catch (error) {
        again(error);
      }
    };
    void open();
  };
}

function watchRequest(target: WatchTarget): { path: string; query: Record<string, string> } {
  switch (target.kind) {
    case 'nodes':
      return { path: '/api/v1/nodes', query: {} };
    case 'pods':
      return {
        path: `/api/v1/namespaces/${target.namespace}/pods`,
        query: target.labelSelector ? { labelSelector: target.labelSelector } : {},
      };
    case 'daemonset':
      return {
        path: `/apis/apps/v1/namespaces/${target.namespace}/daemonsets`,
        query: { fieldSelector: `metadata.name=${target.name}` },
      };
  }
}
