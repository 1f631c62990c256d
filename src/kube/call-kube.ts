import { statusCodeOf, toKubeError } from './to-kube-error.js';

/** One API call; a failure becomes a ClusterBotError that names what was asked. */
export async function callKube<T>(what: string, request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    throw toKubeError(what, error);
  }
}

/** As `callKube`, but a 404 is an answer (the object is not there), not a failure. */
export async function callKubeOrUndefinedOn404<T>(
  what: string,
  request: () => Promise<T>,
): Promise<T | undefined> {
  try {
    return await request();
  } catch (error) {
    if (statusCodeOf(error) === 404) return undefined;
    throw toKubeError(what, error);
  }
}
