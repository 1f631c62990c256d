import { parse as parseYaml } from 'yaml';

/**
 * The chart version appears twice: `cilium_version` in the Ansible role's defaults (what the
 * bootstrap installs) and `chart.spec.version` in the HelmRelease (what Flux then adopts). Read as
 * plain text (YAML's failsafe schema), so 1.20 stays "1.20" instead of becoming the number 1.2.
 */
export function checkCiliumVersion(
  defaults: { readonly name: string; readonly text: string },
  helmrelease: { readonly name: string; readonly text: string },
): string[] {
  const ansible = stringAt(defaults.text, ['cilium_version']);
  const flux = stringAt(helmrelease.text, ['spec', 'chart', 'spec', 'version']);
  const problems: string[] = [];
  if (ansible === undefined) problems.push(`cilium_version is not set in ${defaults.name}`);
  if (flux === undefined) problems.push(`chart.spec.version is not set in ${helmrelease.name}`);
  if (ansible !== undefined && flux !== undefined && ansible !== flux) {
    problems.push(
      `Cilium chart versions differ: cilium_version ${ansible} in ${defaults.name}, ` +
        `chart.spec.version ${flux} in ${helmrelease.name}`,
    );
  }
  return problems;
}

/**
 * Once Flux has adopted Cilium, the live HelmRelease's `spec.chart.spec.version` is what Flux will
 * reconcile to: a `cilium_version` other than that means the two would fight over the chart.
 */
export function checkLiveChartVersion(
  defaults: { readonly name: string; readonly text: string },
  live: { readonly name: string; readonly version: string },
): string[] {
  const ansible = stringAt(defaults.text, ['cilium_version']);
  if (ansible === undefined || ansible === live.version) return [];
  return [
    `Cilium chart versions differ: cilium_version ${ansible} in ${defaults.name}, ` +
      `spec.chart.spec.version ${live.version} in the live ${live.name}`,
  ];
}

function stringAt(text: string, path: readonly string[]): string | undefined {
  let current: unknown = parseYaml(text, { schema: 'failsafe' });
  for (const key of path) {
    if (current === null || typeof current !== 'object') return undefined;
    current = (current as Record<string, unknown>)[key];
  }
  return typeof current === 'string' && current.trim() !== '' ? current.trim() : undefined;
}
