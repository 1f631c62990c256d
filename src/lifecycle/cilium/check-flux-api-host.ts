import { parseAllDocuments } from 'yaml';
import type { StepContext } from '../plan/step.js';
import { captureRemote } from '../remote/capture-remote.js';
import { readRepoText } from '../repo/read-repo-text.js';
import { repoPaths } from '../repo-paths.js';
import { opsTarget } from '../targets.js';
import type { RenderedApiHost } from './check-api-host-render.js';
import type { PreflightFindings } from './check-flux-source.js';

const HELMRELEASE_DIR = 'platform/cilium';
const VARIABLE = 'K3S_API_HOST';

interface Manifest {
  readonly file: string;
  readonly kind: unknown;
  readonly apiVersion: unknown;
  readonly name: unknown;
  readonly body: Record<string, unknown>;
}

interface Supplier {
  readonly value: unknown;
  readonly from: string;
}

/**
 * `${K3S_API_HOST}` in the HelmRelease is Flux's post-build substitution: the Kustomization under
 * `clusters/<cluster>/` that applies the platform names where it comes from (`postBuild.substitute`,
 * `substituteFrom` a ConfigMap in git). It must equal what Ansible renders, and that Kustomization
 * must depend on flux-system (the commit's root-cause fix: the platform is never applied before its
 * variables exist). What the bot cannot find or read is named as not checked.
 */
export async function checkFluxApiHost(
  ctx: StepContext,
  ansible: RenderedApiHost | undefined,
): Promise<PreflightFindings> {
  const dir = `clusters/${ctx.cluster.name}`;
  const manifests = await readManifests(ctx, dir);
  const notChecked = (what: string) => ({
    problems: [],
    notChecked: [`\${${VARIABLE}} for ${dir} (${what})`],
  });
  if (manifests.length === 0) return notChecked(`no YAML under ${dir}/ in git`);
  const platform = manifests.find(
    (manifest) =>
      manifest.kind === 'Kustomization' &&
      String(manifest.apiVersion).startsWith('kustomize.toolkit.fluxcd.io/') &&
      appliesHelmRelease(record(manifest.body.spec).path),
  );
  if (!platform) return notChecked(`no Flux Kustomization under ${dir}/ applies ${HELMRELEASE_DIR}`);
  const spec = record(platform.body.spec);
  const label = `Kustomization ${String(platform.name)} (${platform.file})`;
  const problems: string[] = [];
  const dependsOn = Array.isArray(spec.dependsOn) ? spec.dependsOn.map((entry) => record(entry).name) : [];
  if (!dependsOn.includes('flux-system'))
    problems.push(
      `${label} does not dependsOn flux-system: the platform can be applied before its variables exist`,
    );

  const postBuild = record(spec.postBuild);
  const skipped: string[] = [];
  let supplier: Supplier | undefined;
  for (const ref of Array.isArray(postBuild.substituteFrom) ? postBuild.substituteFrom.map(record) : []) {
    const source = `${String(ref.kind)} ${String(ref.name)}`;
    if (ref.kind !== 'ConfigMap') {
      skipped.push(`${source} named by ${label}: not read (a Secret is encrypted in git)`);
      continue;
    }
    const configMap = manifests.find(
      (manifest) => manifest.kind === 'ConfigMap' && manifest.name === ref.name,
    );
    if (!configMap) {
      skipped.push(`${source} named by ${label}: not in git under ${dir}/`);
      continue;
    }
    const data = record(configMap.body.data);
    // A later substituteFrom entry overrides an earlier one, as Flux applies them.
    if (VARIABLE in data)
      supplier = { value: data[VARIABLE], from: `ConfigMap ${String(ref.name)} (${configMap.file})` };
  }
  const inline = record(postBuild.substitute);
  // Inline postBuild.substitute wins over substituteFrom in Flux.
  if (VARIABLE in inline) supplier = { value: inline[VARIABLE], from: `postBuild.substitute of ${label}` };

  const notRead = skipped.map((what) => `\${${VARIABLE}} for ${dir} (${what})`);
  if (!supplier) {
    if (notRead.length > 0) return { problems, notChecked: notRead };
    problems.push(`nothing supplies \${${VARIABLE}} to ${label}: Flux would render k8sServiceHost empty`);
    return { problems, notChecked: [] };
  }
  const value = supplier.value === null || supplier.value === undefined ? '' : String(supplier.value);
  if (value.trim() === '')
    problems.push(`\${${VARIABLE}} is empty in ${supplier.from}: k8sServiceHost: "" is the incident`);
  else if (ansible && value !== ansible.value)
    problems.push(
      `\${${VARIABLE}} is ${value} in ${supplier.from} but k3s_api_host renders ${ansible.value} (${ansible.file}): ` +
        'Flux and Ansible would point Cilium at different API hosts',
    );
  return { problems, notChecked: notRead };
}

function appliesHelmRelease(path: unknown): boolean {
  if (typeof path !== 'string') return false;
  const dir = path.replace(/^\.\//, '').replace(/\/+$/, '');
  return dir === '' || dir === '.' || `${HELMRELEASE_DIR}/`.startsWith(`${dir}/`);
}

/** Every YAML document of the files git tracks under `dir`, as checked out on the ops host. */
async function readManifests(ctx: StepContext, dir: string): Promise<Manifest[]> {
  const listed = await captureRemote(ctx, opsTarget(ctx.world), ['git', 'ls-files', '--', dir], {
    cwd: repoPaths(ctx.world).root,
  });
  if (listed.exitCode !== 0) return [];
  const files = listed.stdout.split('\n').filter((file) => /\.ya?ml$/.test(file));
  const manifests: Manifest[] = [];
  for (const file of files) {
    const text = await readRepoText(ctx, file);
    if (text === undefined) continue;
    for (const document of parseAllDocuments(text)) {
      if (!('toJS' in document) || document.errors.length > 0) continue;
      const body = record(document.toJS());
      manifests.push({
        file,
        kind: body.kind,
        apiVersion: body.apiVersion,
        name: record(body.metadata).name,
        body,
      });
    }
  }
  return manifests;
}

function record(value: unknown): Record<string, unknown> {
  return value !== null && typeof value === 'object' && !Array.isArray(value)
    ? (value as Record<string, unknown>)
    : {};
}
