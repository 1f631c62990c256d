import { describe, expect, it } from 'vitest';
import { findCiliumDrift } from '../../src/lifecycle/cilium/find-cilium-drift.js';

/** Flux's substitution, spelled without a template literal. */
const FLUX_API_HOST = ['$', '{K3S_API_HOST}'].join('');
const files = (port: number, host: string) => ({ k8sServicePort: port, k8sServiceHost: host });

describe('findCiliumDrift', () => {
  it('names the one place that differs from the rest, with its value and what the others say', () => {
    expect(
      findCiliumDrift(
        {
          helmrelease: files(6443, FLUX_API_HOST),
          template: files(6444, '{{ k3s_api_host }}'),
          reference: files(6443, FLUX_API_HOST),
          'live values': files(6443, '10.73.0.11'),
        },
        ['k8sServicePort', 'k8sServiceHost'],
        '10.73.0.11',
      ),
    ).toEqual([{ field: 'k8sServicePort', place: 'template', value: '6444', expected: '6443' }]);
  });

  it('takes the live API host for the files’ two spellings only when it is the cluster’s k3s_api_host', () => {
    const differences = findCiliumDrift(
      {
        helmrelease: files(6443, FLUX_API_HOST),
        template: files(6443, '{{ k3s_api_host }}'),
        'live values': files(6443, '192.168.2.10'),
      },
      ['k8sServiceHost'],
      '10.73.0.11',
    );
    expect(differences).toEqual([
      {
        field: 'k8sServiceHost',
        place: 'live values',
        value: '"192.168.2.10"',
        expected: '"<k3s API host>"',
      },
    ]);
  });

  it('compares the live DaemonSet on maxUnavailable only, and says "missing" for a field a place leaves out', () => {
    const strategy = (maxUnavailable: number) => ({ updateStrategy: { rollingUpdate: { maxUnavailable } } });
    expect(
      findCiliumDrift(
        {
          helmrelease: { ...strategy(1), k8sServicePort: 6443 },
          template: { ...strategy(1), k8sServicePort: 6443 },
          reference: { k8sServicePort: 6443 },
          'live DaemonSet': strategy(2),
        },
        ['updateStrategy.rollingUpdate.maxUnavailable', 'k8sServicePort'],
        undefined,
      ),
    ).toEqual([
      {
        field: 'updateStrategy.rollingUpdate.maxUnavailable',
        place: 'reference',
        value: 'missing',
        expected: '1',
      },
      {
        field: 'updateStrategy.rollingUpdate.maxUnavailable',
        place: 'live DaemonSet',
        value: '2',
        expected: '1',
      },
    ]);
  });
});
