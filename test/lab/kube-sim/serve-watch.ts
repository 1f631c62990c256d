import type { ServerResponse } from 'node:http';
import { failure } from './api-status.js';
import type { KubeObject } from './kube-types.js';
import type { ObjectStore, StoreEvent, WatchEventType } from './object-store.js';
import type { ResourceInfo, ResourceName } from './resources.js';

export interface WatchRequest {
  readonly resource: ResourceInfo;
  /** Namespace scope, label and field selectors, folded into one test. */
  readonly matches: (object: KubeObject) => boolean;
  readonly query: URLSearchParams;
}

/**
 * A watch stream: newline-delimited {"type","object"} events. Without a resourceVersion (or "0") it
 * starts with ADDED for every current object; with one it replays what came after it (410 Gone as
 * an ERROR event when that is too old). An object leaving the selection is DELETED, entering it ADDED.
 * Ends after timeoutSeconds; `open` holds live streams so they can be cut.
 */
export function serveWatch(
  res: ServerResponse,
  store: ObjectStore,
  watch: WatchRequest,
  open: Set<ServerResponse>,
): void {
  const { resource, matches, query } = watch;
  res.writeHead(200, { 'Content-Type': 'application/json', 'Cache-Control': 'no-cache, private' });
  // the client waits for the headers before it reads events: send them even when no event is due yet
  res.flushHeaders();
  const send = (type: WatchEventType | 'ERROR' | 'BOOKMARK', object: unknown) =>
    res.write(`${JSON.stringify({ type, object })}\n`);
  const forward = (event: StoreEvent) => {
    if (event.resource !== resource.plural) return;
    const now = matches(event.object);
    const before = event.type === 'MODIFIED' && event.previous !== undefined && matches(event.previous);
    if (event.type === 'MODIFIED') {
      if (now) send(before ? 'MODIFIED' : 'ADDED', event.object);
      else if (before) send('DELETED', event.object);
    } else if (now) {
      send(event.type, event.object);
    }
  };

  const since = query.get('resourceVersion') ?? '';
  if (since === '' || since === '0' || query.get('sendInitialEvents') === 'true') {
    for (const object of store.list(resource.plural as ResourceName))
      if (matches(object)) send('ADDED', object);
    if (query.get('sendInitialEvents') === 'true' && query.get('allowWatchBookmarks') === 'true') {
      send('BOOKMARK', {
        kind: resource.kind,
        apiVersion: resource.group ? `${resource.group}/${resource.version}` : resource.version,
        metadata: {
          resourceVersion: String(store.resourceVersion),
          annotations: { 'k8s.io/initial-events-end': 'true' },
        },
      });
    }
  } else {
    const backlog = store.eventsAfter(Number(since));
    if (backlog === 'expired') {
      send('ERROR', failure(410, 'Expired', `too old resource version: ${since} (${store.resourceVersion})`));
      res.end();
      return;
    }
    for (const event of backlog) forward(event);
  }

  const unsubscribe = store.subscribe(forward);
  open.add(res);
  const timeoutSeconds = Number(query.get('timeoutSeconds') ?? '0');
  const timeout = timeoutSeconds > 0 ? setTimeout(() => res.end(), timeoutSeconds * 1000) : undefined;
  res.on('close', () => {
    unsubscribe();
    clearTimeout(timeout);
    open.delete(res);
  });
}
