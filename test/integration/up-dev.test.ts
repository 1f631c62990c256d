import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LAB_TEST_TIMEOUT_MS } from '../support/lab-names.js';
import { type LifecycleLab, startLifecycleLab } from '../support/start-lifecycle-lab.js';

let lab: LifecycleLab;
beforeAll(async () => {
  lab = await startLifecycleLab();
});
afterAll(async () => {
  await lab?.stop();
});

const ciliumPods = () => lab.sim.state().pods.filter((pod) => pod.metadata.labels?.['k8s-app'] === 'cilium');

describe('up dev against the lab (real sshd, ansible-playbook, kube-sim)', () => {
  it(
    'brings the formed dev cluster up: approvals bound to the real commit with a --check --diff preview, a real Cilium rollout, VPN and verify gates',
    async () => {
      const revisionsBefore = lab.sim.state().controllerRevisions.map((revision) => revision.metadata.name);
      const commit = await lab.repo.head();
      const job = lab.startJob('up dev');
      // The bot's SSH connections so far, on the ops host's sshd and the nodes': a run's are those after the last cut.
      const connectionsNow = async () => [
        ...(await lab.ops.botConnections()).map((each) => `ops ${each.address} ${each.clientPort}`),
        ...(await lab.nodes.botConnections()).map((each) => `node ${each.address} ${each.clientPort}`),
      ];
      const cuts = [await connectionsNow()];

      const result = await job.runUntilDone({
        approve: true,
        onWaiting: async () => {
          cuts.push(await connectionsNow());
        },
      });
      cuts.push(await connectionsNow());

      expect(result).toMatchObject({
        status: 'finished',
        outcome: 'succeeded',
        summary: 'all 18 steps done',
      });
      const texts = job.texts();

      // k3s.yml founds a cluster only on its first run: kube-sim answers with three nodes, so no approval.
      expect(job.approvals.requests.map((request) => request.stepId)).toEqual([
        '5-cilium',
        '9-flux-bootstrap',
      ]);
      expect(texts.filter((text) => text.includes('waiting for approval'))).toEqual([
        '5-cilium waiting for approval approval-1',
        '9-flux-bootstrap waiting for approval approval-2',
      ]);
      for (const [request, playbook] of [
        [job.approvals.requests[0]!, 'cilium.yml'],
        [job.approvals.requests[1]!, 'flux-bootstrap.yml'],
      ] as const) {
        expect(request.binding.commit).toBe(commit);
        expect(request.binding.commandLine).toBe(
          `[${lab.ops.user}@127.0.0.1] cd ${lab.repo.ansibleDir} && ansible-playbook -i inventory/hosts.ini playbooks/${playbook}`,
        );
        expect(request.binding.preview?.ran).toBe(true);
      }
      const ciliumPreview = job.approvals.requests[0]!.binding.preview!;
      expect(ciliumPreview.changedTasks['k3s-dev-1']).toEqual(
        expect.arrayContaining(['cilium : Render Cilium values', 'cilium : Helm upgrade --install cilium']),
      );
      expect(ciliumPreview.diffExcerpt).toContain('+k8sServiceHost: 127.0.1.11');
      const opsCommands = await lab.ops.commands();
      const checkAt = opsCommands.findIndex((line) =>
        line.endsWith(' ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml --check --diff'),
      );
      const runAt = opsCommands.findIndex((line) =>
        line.endsWith(' ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml'),
      );
      expect(checkAt).toBeGreaterThan(-1);
      expect(runAt).toBeGreaterThan(checkAt);
      expect(opsCommands).toContain(`cd -- ${lab.repo.root} && git rev-parse HEAD`);
      // Each repo file is read once: the job keeps what it read at the commit, across its three runs (two approvals).
      const reads = new Map<string, number>();
      for (const line of opsCommands.filter((command) => command.startsWith(`cat -- ${lab.repo.root}/`))) {
        reads.set(line, (reads.get(line) ?? 0) + 1);
      }
      const readTwice = [...reads].filter(([, count]) => count > 1).map(([line]) => line);
      expect(readTwice).toEqual([]);
      expect(reads.size).toBeGreaterThan(10);

      // Each run of the job (three: two approvals park it) opened at most one connection per host it touched.
      const runs = cuts.slice(1).map((cut, i) => cut.filter((each) => !cuts[i]!.includes(each)));
      expect(runs).toHaveLength(3);
      for (const opened of runs) {
        const hosts = opened.map((each) => each.split(' ').slice(0, 2).join(' '));
        expect(hosts).toContain('ops 127.0.0.1');
        expect(hosts).toEqual([...new Set(hosts)]);
      }

      // Every playbook ran exactly once for real, in the plan's order.
      expect(await lab.playbookRuns()).toEqual([
        'ansible-playbook -i inventory/hosts.ini playbooks/node-baseline.yml',
        'ansible-playbook -i inventory/hosts.ini playbooks/k3s.yml',
        'ansible-playbook -i inventory/hosts.ini playbooks/cilium.yml',
        'ansible-playbook -i inventory/hosts.ini playbooks/verify.yml',
        'ansible-playbook -i inventory/hosts.ini playbooks/flux-bootstrap.yml',
        'ansible-playbook -i inventory/hosts.ini playbooks/kube-vip.yml',
        'ansible-playbook -i inventory/hosts.ini playbooks/vpn.egress.gateway.yml --limit k3s-dev-3',
      ]);

      // Ansible's banners became progress, counted from the first banner on.
      const progressOf = (stepId: string) =>
        job.reporter.events.flatMap((event) =>
          event.type === 'step-progress' && event.stepId === stepId ? [event.text] : [],
        );
      expect(progressOf('5-cilium')).toEqual([
        // The approval's fresh preflight names what it could not check: the lab's dev runs no Flux yet.
        '? not checked: the commit Flux serves (no GitRepository flux-system/flux-system on dev)',
        'cilium.yml targets exactly k3s-dev-1, k3s-dev-2, k3s-dev-3',
        'play 1/1: Cilium CNI (Gateway API CRDs, Helm install)',
        'play 1/1, task 1: cilium : Install Gateway API CRDs',
        'play 1/1, task 2: cilium : Render Cilium values',
        'play 1/1, task 3: cilium : Helm upgrade --install cilium',
        'play 1/1, task 4: cilium : Roll out Cilium agents',
        'play 1/1, task 5: cilium : Wait for Cilium DaemonSet rollout',
        'play 1/1, task 6: cilium : Report Cilium',
      ]);
      expect(progressOf('3-k3s')).toContain('play 2/2, task 11: k3s_server : Install k3s');
      expect(texts).toContain('3-k3s-kubeconfig succeeded: the kubeconfig in use reaches dev (3 nodes)');
      // On the formed cluster k3s.yml's preview found nothing to change, so it ran without approval.
      const k3sPreview = 'k3s.yml --check --diff: no change on the formed cluster, nothing to approve';
      expect(progressOf('3-k3s')[0]).toBe(k3sPreview);
      for (const step of [
        '2-node-baseline',
        '3-k3s',
        '9-flux-bootstrap',
        '10-kube-vip',
        '11-vpn-egress-gateway',
      ]) {
        // First the targets --list-hosts proved, then ansible's banners.
        const [proof, ...banners] = progressOf(step).filter((text) => text !== k3sPreview);
        expect(proof).toMatch(/^\S+\.yml targets exactly k3s-dev-/);
        expect(banners.every((text) => /^play \d+\/\d+[,:]/.test(text))).toBe(true);
      }

      // cilium.yml's Helm upgrade really rolled the DaemonSet (the --check run did not), one agent at a time.
      const revisionsAfter = lab.sim.state().controllerRevisions.map((revision) => revision.metadata.name);
      expect(revisionsAfter).toHaveLength(revisionsBefore.length + 1);
      const newHash = revisionsAfter
        .find((name) => !revisionsBefore.includes(name))!
        .split('-')
        .at(-1);
      expect(ciliumPods().map((pod) => pod.metadata.labels?.['controller-revision-hash'])).toEqual([
        newHash,
        newHash,
        newHash,
      ]);
      const readyTexts = texts.filter((text) => text.startsWith('6-cilium-rollout agent '));
      expect(readyTexts).toEqual([
        expect.stringMatching(/^6-cilium-rollout agent cilium-\w+ on k3s-dev-\d Ready \(1\/3\)$/),
        expect.stringMatching(/^6-cilium-rollout agent cilium-\w+ on k3s-dev-\d Ready \(2\/3\)$/),
        expect.stringMatching(/^6-cilium-rollout agent cilium-\w+ on k3s-dev-\d Ready \(3\/3\)$/),
      ]);
      expect(new Set(readyTexts.map((text) => text.split(' ')[4])).size).toBe(3);
      expect(texts).toContain(
        `6-cilium-rollout succeeded: 3/3 agents rolled to revision ${newHash} one at a time, all Ready`,
      );

      expect(texts).toContain(
        '12-vpn-check succeeded: vpn-egress-tunnel.service active; tun0 exits from 203.0.113.7, not the home ISP (198.51.100.20)',
      );
      expect(await lab.nodes.commands()).toEqual(
        expect.arrayContaining([
          'systemctl is-active vpn-egress-tunnel.service',
          'curl --interface tun0 -sS --max-time 15 https://ipinfo.io/ip',
        ]),
      );
      for (const verify of ['7-verify', '13-verify']) {
        expect(texts).toContain(
          `${verify} succeeded: 3/3 nodes Ready, 3/3 updated, 3/3 available, hubble-relay 1/1 available, ` +
            'kube-proxy absent: no DaemonSet or pods, k3s starts with disable-kube-proxy on k3s-dev-1, k3s-dev-2, ' +
            "k3s-dev-3 (their Nodes' k3s.io/node-args), Cilium kube-proxy-replacement true, maxUnavailable 1",
        );
      }

      // The repo's own gate #1 ran where site.yml runs it: after cilium, before flux.
      expect(texts).toContainEqual(
        expect.stringMatching(/^8-verify-yml succeeded: verify\.yml ok \(k3s-dev-1 ok=/),
      );

      // What the lab's playbooks did, host by host (cilium/flux also report from their --check preview,
      // and so does k3s.yml, whose preview decides on a formed cluster whether it asks first).
      const events = await lab.labEvents();
      for (const [playbook, times] of [
        ['node-baseline.yml', 1],
        ['k3s.yml', 2],
        ['kube-vip.yml', 1],
      ] as const) {
        expect(events.filter((line) => line.startsWith(`${playbook} `)).sort()).toEqual(
          ['k3s-dev-1', 'k3s-dev-2', 'k3s-dev-3'].flatMap((node) => Array(times).fill(`${playbook} ${node}`)),
        );
      }
      expect(events.filter((line) => line.startsWith('vpn.egress.gateway.yml'))).toEqual([
        'vpn.egress.gateway.yml k3s-dev-3',
      ]);

      const finished = job.reporter.finishedSteps();
      // This job suspended no Flux (the lab's dev has no HelmRelease yet), so there is nothing to hand back.
      expect(finished.map((event) => [event.stepId, event.status])).toEqual(
        [
          ...['1-preconditions', '2-node-baseline', '3-k3s', '3-k3s-kubeconfig', '4-cilium-preflight'],
          ...['5-cilium', '6-cilium-rollout', '7-verify'],
          ...['7-verify-resume-flux', '7-verify-resume-flux-settled', '7-verify-resume-flux-rollout'],
          '7-verify-resume-flux-verify',
          ...['8-verify-yml', '9-flux-bootstrap', '10-kube-vip', '11-vpn-egress-gateway', '12-vpn-check'],
          '13-verify',
        ].map((id) => [id, id.startsWith('7-verify-resume-flux') ? 'skipped' : 'succeeded']),
      );
      expect(
        finished.filter((event) => event.status === 'succeeded').every((event) => event.durationMs > 0),
      ).toBe(true);
    },
    LAB_TEST_TIMEOUT_MS,
  );
});
