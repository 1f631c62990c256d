import { stringify } from 'yaml';

/** A kubeconfig shaped like k3s's /etc/rancher/k3s/k3s.yaml, with a bearer token user. */
export function buildKubeconfig(server: string, caPem: string, token: string): string {
  return stringify({
    apiVersion: 'v1',
    kind: 'Config',
    clusters: [
      {
        name: 'default',
        cluster: { server, 'certificate-authority-data': Buffer.from(caPem).toString('base64') },
      },
    ],
    contexts: [{ name: 'default', context: { cluster: 'default', user: 'default' } }],
    'current-context': 'default',
    preferences: {},
    users: [{ name: 'default', user: { token } }],
  });
}
