import type { CustomObjectsApi } from '@kubernetes/client-node';
import type {
  GitRepositoryState,
  HelmReleaseState,
  KubeGateway,
  KustomizationState,
} from '../lifecycle/ports/kube-gateway.js';
import { callKubeOrUndefinedOn404 } from './call-kube.js';

/** The wire fields of a HelmRelease the bot reads. */
interface HelmReleaseObject {
  metadata?: { generation?: number };
  spec?: { suspend?: boolean; chart?: { spec?: { version?: string } } };
  status?: { observedGeneration?: number; conditions?: { type?: string; status?: string }[] };
}

/** The wire fields of a GitRepository the bot reads. */
interface GitRepositoryObject {
  status?: { artifact?: { revision?: string } };
}

/** The wire fields of a Kustomization the bot reads. */
interface KustomizationObject {
  spec?: { path?: string };
}

/** Flux's objects, read through the custom objects API (a 404 also when Flux's CRD is not installed). */
export function createFluxReads(
  custom: CustomObjectsApi,
): Pick<KubeGateway, 'readHelmRelease' | 'readGitRepository' | 'readKustomization'> {
  const read = (
    what: string,
    group: string,
    version: string,
    plural: string,
    namespace: string,
    name: string,
  ) =>
    callKubeOrUndefinedOn404(`read ${what} ${namespace}/${name}`, () =>
      custom.getNamespacedCustomObject({ group, version, namespace, plural, name }),
    );
  return {
    async readHelmRelease(namespace, name) {
      const object = (await read(
        'HelmRelease',
        'helm.toolkit.fluxcd.io',
        'v2',
        'helmreleases',
        namespace,
        name,
      )) as HelmReleaseObject | undefined;
      return object && toHelmReleaseState(namespace, name, object);
    },
    async readGitRepository(namespace, name): Promise<GitRepositoryState | undefined> {
      const object = (await read(
        'GitRepository',
        'source.toolkit.fluxcd.io',
        'v1',
        'gitrepositories',
        namespace,
        name,
      )) as GitRepositoryObject | undefined;
      return object && { name, namespace, revision: object.status?.artifact?.revision };
    },
    async readKustomization(namespace, name): Promise<KustomizationState | undefined> {
      const object = (await read(
        'Kustomization',
        'kustomize.toolkit.fluxcd.io',
        'v1',
        'kustomizations',
        namespace,
        name,
      )) as KustomizationObject | undefined;
      return object && { name, namespace, path: object.spec?.path };
    },
  };
}

function toHelmReleaseState(namespace: string, name: string, object: HelmReleaseObject): HelmReleaseState {
  const ready = object.status?.conditions?.find((condition) => condition.type === 'Ready');
  return {
    name,
    namespace,
    ready: ready?.status === 'True',
    suspended: object.spec?.suspend === true,
    chartVersion: object.spec?.chart?.spec?.version,
    generation: object.metadata?.generation ?? 0,
    observedGeneration: object.status?.observedGeneration ?? 0,
  };
}
