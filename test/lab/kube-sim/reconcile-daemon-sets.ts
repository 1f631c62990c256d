import { randomUUID } from 'node:crypto';
import { buildPod } from './build-pod.js';
import { controllerOf } from './controller-of.js';
import { isPodReady } from './is-pod-ready.js';
import type { ControllerRevision, DaemonSet, Node, Pod } from './kube-types.js';
import { computeTemplateHash } from './names.js';
import { rfc3339 } from './rfc3339.js';
import { scaledValue } from './scaled-value.js';
import type { SimContext } from './sim-context.js';

const HASH_LABEL = 'controller-revision-hash';

/**
 * The DaemonSet controller: one pod per eligible node, a ControllerRevision per template, and a
 * RollingUpdate (maxSurge 0) that deletes old pods within maxUnavailable, as pkg/controller/daemon
 * does: old pods that are already unavailable are replaced without counting against the budget.
 * Replacements are created on the next pass, so "old pod gone, new pod not yet there" is visible.
 */
export function reconcileDaemonSets(ctx: SimContext): void {
  for (const ds of ctx.store.list<DaemonSet>('daemonsets')) reconcileDaemonSet(ctx, ds);
}

function reconcileDaemonSet(ctx: SimContext, ds: DaemonSet): void {
  const { store } = ctx;
  const hash = computeTemplateHash(ds.spec.template, Number(ds.status.collisionCount ?? 0));
  ensureRevision(ctx, ds, hash);
  const nodes = store.list<Node>('nodes').filter((n) => matchesNodeSelector(ds, n));
  const eligible = new Set(nodes.map((n) => n.metadata.name));
  const owned = ownedPods(ctx, ds);
  for (const pod of owned) {
    if (pod.spec.nodeName === undefined || !eligible.has(pod.spec.nodeName))
      store.delete('pods', pod.metadata.namespace, pod.metadata.name);
  }
  const byNode = podsByNode(owned);
  for (const node of nodes) {
    const onNode = byNode.get(node.metadata.name) ?? [];
    if (onNode.length === 0) createDaemonPod(ctx, ds, node.metadata.name, hash);
    for (const extra of onNode.slice(1)) store.delete('pods', extra.metadata.namespace, extra.metadata.name);
  }
  if (ds.spec.updateStrategy.type === 'RollingUpdate') rollOldPods(ctx, ds, nodes, byNode, hash);
  writeStatus(ctx, ds, hash);
}

function rollOldPods(
  ctx: SimContext,
  ds: DaemonSet,
  nodes: Node[],
  byNode: Map<string, Pod[]>,
  hash: string,
): void {
  const rolling = ds.spec.updateStrategy.rollingUpdate ?? {};
  const surge = scaledValue(rolling.maxSurge, nodes.length, true, 0);
  let maxUnavailable = scaledValue(rolling.maxUnavailable, nodes.length, true, 1);
  if (surge === 0 && maxUnavailable === 0) maxUnavailable = 1;
  let unavailable = 0;
  const replaceAnyway: Pod[] = [];
  const candidates: Pod[] = [];
  for (const node of nodes) {
    const onNode = byNode.get(node.metadata.name) ?? [];
    const fresh = onNode.find((p) => p.metadata.labels?.[HASH_LABEL] === hash);
    const old = onNode.find((p) => p.metadata.labels?.[HASH_LABEL] !== hash);
    if (onNode.length !== 1 || fresh !== undefined) {
      if (onNode.length !== 1 || !isPodReady(fresh!)) unavailable++;
    } else if (!isPodReady(old!)) {
      replaceAnyway.push(old!);
    } else if (unavailable < maxUnavailable) {
      candidates.push(old!);
    }
  }
  const budget = Math.max(0, Math.min(maxUnavailable - unavailable, candidates.length));
  for (const pod of [...replaceAnyway, ...candidates.slice(0, budget)]) {
    ctx.store.delete('pods', pod.metadata.namespace, pod.metadata.name);
  }
}

function writeStatus(ctx: SimContext, ds: DaemonSet, hash: string): void {
  const nodes = ctx.store.list<Node>('nodes');
  const byNode = podsByNode(ownedPods(ctx, ds));
  let desired = 0;
  let current = 0;
  let misscheduled = 0;
  let ready = 0;
  let updated = 0;
  for (const node of nodes) {
    const onNode = byNode.get(node.metadata.name) ?? [];
    if (!matchesNodeSelector(ds, node)) {
      if (onNode.length > 0) misscheduled++;
      continue;
    }
    desired++;
    const first = onNode[0];
    if (first === undefined) continue;
    current++;
    if (isPodReady(first)) ready++;
    if (first.metadata.labels?.[HASH_LABEL] === hash) updated++;
  }
  const fresh = ctx.store.get<DaemonSet>('daemonsets', ds.metadata.namespace, ds.metadata.name);
  if (fresh === undefined) return;
  const { collisionCount, conditions } = fresh.status;
  fresh.status = {
    currentNumberScheduled: current,
    desiredNumberScheduled: desired,
    numberMisscheduled: misscheduled,
    numberReady: ready,
    // omitempty fields: a real API server leaves zeros out
    ...(ready > 0 ? { numberAvailable: ready } : {}),
    ...(desired - ready > 0 ? { numberUnavailable: desired - ready } : {}),
    observedGeneration: fresh.metadata.generation,
    ...(updated > 0 ? { updatedNumberScheduled: updated } : {}),
    ...(collisionCount !== undefined ? { collisionCount } : {}),
    ...(conditions !== undefined ? { conditions } : {}),
  };
  ctx.store.update('daemonsets', fresh);
}

function ensureRevision(ctx: SimContext, ds: DaemonSet, hash: string): void {
  const name = `${ds.metadata.name}-${hash}`;
  const revisions = ctx.store
    .list<ControllerRevision>('controllerrevisions')
    .filter(
      (r) => r.metadata.namespace === ds.metadata.namespace && controllerOf(r)?.uid === ds.metadata.uid,
    );
  const highest = Math.max(0, ...revisions.map((r) => r.revision));
  const existing = revisions.find((r) => r.metadata.name === name);
  if (existing !== undefined) {
    // Going back to an older template re-uses its revision object with a new, highest number.
    if (existing.revision < highest)
      ctx.store.update('controllerrevisions', { ...existing, revision: highest + 1 });
    return;
  }
  const revision: ControllerRevision = {
    apiVersion: 'apps/v1',
    kind: 'ControllerRevision',
    metadata: {
      name,
      namespace: ds.metadata.namespace!,
      uid: randomUUID(),
      resourceVersion: '',
      creationTimestamp: rfc3339(ctx.seeding ? ctx.bornAt : ctx.now()),
      labels: { ...ds.spec.template.metadata.labels, [HASH_LABEL]: hash },
      annotations: {
        'deprecated.daemonset.template.generation':
          ds.metadata.annotations?.['deprecated.daemonset.template.generation'] ?? '1',
      },
      ownerReferences: [
        {
          apiVersion: 'apps/v1',
          kind: 'DaemonSet',
          name: ds.metadata.name,
          uid: ds.metadata.uid,
          controller: true,
          blockOwnerDeletion: true,
        },
      ],
    },
    data: { spec: { template: { $patch: 'replace', ...ds.spec.template } } },
    revision: highest + 1,
  };
  ctx.store.create('controllerrevisions', revision);
}

function createDaemonPod(ctx: SimContext, ds: DaemonSet, nodeName: string, hash: string): void {
  const templateGeneration = ds.metadata.annotations?.['deprecated.daemonset.template.generation'] ?? '1';
  const pod = buildPod({
    owner: ds,
    template: ds.spec.template,
    extraLabels: { [HASH_LABEL]: hash, 'pod-template-generation': templateGeneration },
    nodeName,
    created: ctx.seeding ? ctx.bornAt : ctx.now(),
    daemon: true,
  });
  ctx.store.create('pods', pod);
}

function ownedPods(ctx: SimContext, ds: DaemonSet): Pod[] {
  return ctx.store.list<Pod>('pods').filter((p) => controllerOf(p)?.uid === ds.metadata.uid);
}

/** Pods per node, oldest first (the controller reports on the oldest). */
function podsByNode(pods: Pod[]): Map<string, Pod[]> {
  const byNode = new Map<string, Pod[]>();
  const sorted = [...pods].sort((a, b) =>
    a.metadata.creationTimestamp.localeCompare(b.metadata.creationTimestamp),
  );
  for (const pod of sorted) {
    if (pod.spec.nodeName === undefined) continue;
    byNode.set(pod.spec.nodeName, [...(byNode.get(pod.spec.nodeName) ?? []), pod]);
  }
  return byNode;
}

function matchesNodeSelector(ds: DaemonSet, node: Node): boolean {
  const selector = ds.spec.template.spec.nodeSelector ?? {};
  return Object.entries(selector).every(([key, value]) => node.metadata.labels?.[key] === value);
}
