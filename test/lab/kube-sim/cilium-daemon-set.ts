import { randomBytes } from 'node:crypto';
import { buildDaemonSet } from './build-daemon-set.js';
import type { Container, DaemonSet } from './kube-types.js';

const CILIUM_IMAGE =
  'quay.io/cilium/cilium:v1.18.2@sha256:858f807ea4e20e85e3ea3240a762e1f4b29f1cb5bbd0463b8aa77e7b097c0667';
export const CILIUM_CHECKSUM_ANNOTATION = 'cilium.io/cilium-configmap-checksum';

/** What the `config` init container prints when the agent cannot reach the API server (the incident). */
export const CONFIG_INIT_FAILURE =
  'time="2026-01-01T00:00:00Z" level=fatal msg="Unable to build config" error="failed to get configmap kube-system/cilium-config: ' +
  'Get \\"https://10.43.0.1:443/api/v1/namespaces/kube-system/configmaps/cilium-config\\": dial tcp 10.43.0.1:443: i/o timeout" subsys=build-config';

const initContainer = (name: string, command: string[]): Container => ({
  name,
  image: CILIUM_IMAGE,
  imagePullPolicy: 'IfNotPresent',
  command,
  terminationMessagePath: '/dev/termination-log',
  terminationMessagePolicy: 'FallbackToLogsOnError',
});

/** The Helm-rendered cilium agent DaemonSet; a new config checksum is how a Helm upgrade changes the template. */
export function buildCiliumDaemonSet(
  maxUnavailable: number | string,
  created: Date,
  checksum = newConfigChecksum(),
): DaemonSet {
  const labels = {
    'app.kubernetes.io/name': 'cilium-agent',
    'app.kubernetes.io/part-of': 'cilium',
    'k8s-app': 'cilium',
  };
  return buildDaemonSet({
    name: 'cilium',
    namespace: 'kube-system',
    labels: { ...labels, 'app.kubernetes.io/managed-by': 'Helm' },
    annotations: { 'meta.helm.sh/release-name': 'cilium', 'meta.helm.sh/release-namespace': 'kube-system' },
    selector: { 'k8s-app': 'cilium' },
    maxUnavailable,
    created,
    template: {
      metadata: {
        annotations: {
          [CILIUM_CHECKSUM_ANNOTATION]: checksum,
          'kubectl.kubernetes.io/default-container': 'cilium-agent',
        },
        labels,
      },
      spec: {
        automountServiceAccountToken: true,
        containers: [
          {
            name: 'cilium-agent',
            image: CILIUM_IMAGE,
            imagePullPolicy: 'IfNotPresent',
            command: ['cilium-agent'],
            args: ['--config-dir=/tmp/cilium/config-map'],
            env: [
              {
                name: 'K8S_NODE_NAME',
                valueFrom: { fieldRef: { apiVersion: 'v1', fieldPath: 'spec.nodeName' } },
              },
            ],
            readinessProbe: {
              httpGet: { host: '127.0.0.1', path: '/healthz', port: 9879, scheme: 'HTTP' },
              periodSeconds: 30,
              failureThreshold: 3,
              successThreshold: 1,
              timeoutSeconds: 5,
            },
            terminationMessagePath: '/dev/termination-log',
            terminationMessagePolicy: 'FallbackToLogsOnError',
          },
        ],
        initContainers: [
          initContainer('config', ['cilium-dbg', 'build-config']),
          initContainer('mount-cgroup', [
            'sh',
            '-ec',
            'nsenter --cgroup=/hostproc/1/ns/cgroup --mount=/hostproc/1/ns/mnt "$BIN_PATH/cilium-mount" $CGROUP_ROOT',
          ]),
          initContainer('apply-sysctl-overwrites', [
            'sh',
            '-ec',
            'nsenter --mount=/hostproc/1/ns/mnt "$BIN_PATH/cilium-sysctlfix"',
          ]),
          initContainer('mount-bpf-fs', [
            '/bin/bash',
            '-c',
            '--',
            'mount | grep "/sys/fs/bpf type bpf" || mount -t bpf bpf /sys/fs/bpf',
          ]),
          initContainer('clean-cilium-state', ['/init-container.sh']),
          initContainer('install-cni-binaries', ['/install-plugin.sh']),
        ],
        dnsPolicy: 'ClusterFirst',
        hostNetwork: true,
        nodeSelector: { 'kubernetes.io/os': 'linux' },
        priorityClassName: 'system-node-critical',
        restartPolicy: 'Always',
        schedulerName: 'default-scheduler',
        serviceAccount: 'cilium',
        serviceAccountName: 'cilium',
        terminationGracePeriodSeconds: 1,
        tolerations: [{ operator: 'Exists' }],
      },
    },
  });
}

export function newConfigChecksum(): string {
  return randomBytes(32).toString('hex');
}
