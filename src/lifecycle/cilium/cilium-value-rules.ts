import { valueAt } from './cilium-values.js';

/**
 * The rules any set of Cilium values must meet before it runs, wherever it comes from (the three
 * files of a rollout, an old revision a rollback restores): an API host that is set, kube-proxy
 * replaced (k3s runs without it), and one agent at a time. `where` names the source in each problem.
 */
export function checkValueRules(values: Record<string, unknown>, where: string): string[] {
  const problems: string[] = [];
  const host = valueAt(values, 'k8sServiceHost');
  if (host === undefined || host === null || String(host).trim() === '') {
    problems.push(`k8sServiceHost is empty in ${where}`);
  } else if (/REPLACE-ME/i.test(String(host))) {
    problems.push(`k8sServiceHost is still "${String(host)}" in ${where}`);
  }
  const replacement = valueAt(values, 'kubeProxyReplacement');
  if (replacement !== true && replacement !== 'true') {
    problems.push(
      `kubeProxyReplacement is ${replacement === undefined ? 'unset' : JSON.stringify(replacement)} in ${where}, must be true (k3s runs with --disable-kube-proxy)`,
    );
  }
  const maxUnavailable = valueAt(values, 'updateStrategy.rollingUpdate.maxUnavailable');
  if (maxUnavailable !== 1) {
    problems.push(
      `updateStrategy.rollingUpdate.maxUnavailable is ${maxUnavailable === undefined ? 'unset (chart default 2)' : JSON.stringify(maxUnavailable)} in ${where}, must be 1`,
    );
  }
  return problems;
}
