import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  chooseParityFields,
  DOCUMENTED_PARITY_FIELDS,
} from '../../src/lifecycle/cilium/choose-parity-fields.js';
import { parityFieldsOf } from '../../src/lifecycle/cilium/parity-fields.js';

const lab = (path: string) => readFileSync(new URL(`../lab/infra-repo/${path}`, import.meta.url), 'utf8');
const HELMRELEASE = lab('platform/cilium/helmrelease.yaml');
const TEMPLATE = lab('infra/ansible/roles/cilium/templates/cilium-values.yaml.j2');

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

describe('which parity fields the preflight checks', () => {
  it('reads the markers of the Ansible template and values.yaml at the top level', () => {
    expect(parityFieldsOf(TEMPLATE, '')).toEqual(parityFieldsOf(HELMRELEASE));
  });

  it('takes every marked field with the documented contract, and says it used the markers', () => {
    const chosen = chooseParityFields({
      helmrelease: ['routingMode'],
      template: [],
      reference: ['ipam.mode'],
    });
    expect(chosen.fields).toEqual(['routingMode', 'ipam.mode', ...DOCUMENTED_PARITY_FIELDS]);
    expect(chosen.source).toBe(
      "the # [parity] markers (helmrelease 1, template 0, reference 1) and the runbook's documented contract",
    );
  });

  it('falls back to the documented contract when nothing is marked, and says so', () => {
    const chosen = chooseParityFields({ helmrelease: [], template: [], reference: [] });
    expect(chosen.fields).toEqual(DOCUMENTED_PARITY_FIELDS);
    expect(chosen.source).toMatch(
      /^the runbook's documented contract .* as no file marks a field # \[parity\]$/,
    );
  });
});
