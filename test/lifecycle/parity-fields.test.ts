import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { parityFieldsOf } from '../../src/lifecycle/steps/parity-fields.js';

const HELMRELEASE = readFileSync(
  new URL('../lab/infra-repo/platform/cilium/helmrelease.yaml', import.meta.url),
  'utf8',
);

describe('parity fields, as the HelmRelease marks them', () => {
  it('reads every `# [parity]` field of the infra repo, at the end of its line or on the comment above it', () => {
    expect(parityFieldsOf(HELMRELEASE)).toEqual([
      'kubeProxyReplacement',
      'k8sServiceHost',
      'k8sServicePort',
      'updateStrategy.rollingUpdate.maxUnavailable',
      'ipam.mode',
      'routingMode',
      'autoDirectNodeRoutes',
      'ipv4NativeRoutingCIDR',
      'bpf.masquerade',
      'gatewayAPI.enabled',
      'egressGateway.enabled',
      'l2announcements.enabled',
      'hubble.enabled',
      'hubble.relay.enabled',
      'hubble.ui.enabled',
    ]);
  });

  it('follows a marker added to the file, and drops one taken away', () => {
    const edited = HELMRELEASE.replace(
      '    operator:\n      replicas: 1',
      '    operator:\n      replicas: 1                       # [parity]',
    ).replace('routingMode: native                 # [parity]', 'routingMode: native');
    const fields = parityFieldsOf(edited);
    expect(fields).toContain('operator.replicas');
    expect(fields).not.toContain('routingMode');
  });

  it('ignores markers outside spec.values, and finds none in a file without them', () => {
    expect(parityFieldsOf('# [parity] header\napiVersion: v2\nspec:\n  values:\n    a: 1\n')).toEqual([]);
  });
});
