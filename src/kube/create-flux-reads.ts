import type { CustomObjectsApi } from '@kubernetes/client-node';
import type { HelmReleaseState, KubeGateway } from '../lifecycle/ports/kube-gateway.js';
import { callKubeOrUndefinedOn404 } from './call-kube.js';

/** The wire fields of a HelmRelease the bot reads. */
interface HelmReleaseObject {
  spec?: { suspend?: boolean; chart?: { spec?: { version?: string } } };
  status?: { conditions?: { type?: string; status?: string }[] };
}

/** Flux's objects, read through the custom objects API (a 404 also when Flux's CRD is not installed). */
export function createFluxReads(custom: CustomObjectsApi): Pick<KubeGateway, 'readHelmRelease'> {
  return {
    async readHelmRelease(namespace, name) {
      const object = (await callKubeOrUndefinedOn404(`read HelmRelease ${namespace}/${name}`, () =>
        custom.getNamespacedCustomObject({
          group: 'helm.toolkit.fluxcd.io',
          version: 'v2',
          namespace,
          plural: 'helmreleases',
          name,
        }),
      )) as HelmReleaseObject | undefined;
      return object && toHelmReleaseState(namespace, name, object);
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
  };
}
