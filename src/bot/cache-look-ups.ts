/**
 * Remembers each key's answer for `ttlMs` (one look-up in flight per key, however many ask at
 * once), so requests from anyone cannot use up Slack's quota for it. A failed look-up is not
 * remembered: the next ask tries again. Past `maxKeys` the oldest answer is forgotten first.
 */
export function cacheLookUps<T>(
  lookUp: (key: string) => Promise<T>,
  now: () => number,
  ttlMs: number,
  maxKeys = Number.POSITIVE_INFINITY,
): (key: string) => Promise<T> {
  const cache = new Map<string, { readonly at: number; readonly answer: Promise<T> }>();
  return (key) => {
    const cached = cache.get(key);
    if (cached && now() - cached.at < ttlMs) return cached.answer;
    const answer = lookUp(key);
    cache.delete(key);
    cache.set(key, { at: now(), answer });
    if (cache.size > maxKeys) cache.delete(cache.keys().next().value!);
    answer.catch(() => {
      if (cache.get(key)?.answer === answer) cache.delete(key);
    });
    return answer;
  };
}
