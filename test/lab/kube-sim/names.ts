import { randomInt } from 'node:crypto';
import { stableStringify } from './stable-stringify.js';

/** The alphabet of k8s.io/apimachinery/pkg/util/rand: no vowels, no look-alikes. */
const ALPHANUMS = 'bcdfghjklmnpqrstvwxz2456789';

/** A generateName suffix, as `rand.String(5)` gives for pod names ("cilium-7xk2p"). */
export function randomSuffix(length = 5): string {
  let text = '';
  for (let i = 0; i < length; i++) text += ALPHANUMS[randomInt(ALPHANUMS.length)];
  return text;
}

/**
 * The controller-revision-hash / pod-template-hash of a pod template: FNV-32a of the template (and the
 * collision count), then SafeEncodeString of its decimal form, as controller.ComputeHash does. Only
 * the template is hashed, so an updateStrategy-only change keeps the hash.
 */
export function computeTemplateHash(template: unknown, collisionCount = 0): string {
  const text = stableStringify(template) + (collisionCount > 0 ? String(collisionCount) : '');
  let hash = 0x811c9dc5;
  for (const byte of Buffer.from(text, 'utf8')) {
    hash ^= byte;
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return [...String(hash)].map((digit) => ALPHANUMS[digit.charCodeAt(0) % ALPHANUMS.length]).join('');
}
