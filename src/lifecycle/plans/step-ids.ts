/** Stable step ids ("3-cilium"): a resumed job finds its checkpoints by them. */
export function createStepIds(): (name: string) => string {
  let next = 1;
  return (name) =>
    `${next++}-${name
      .replace(/\.yml$/, '')
      .replace(/[^a-z0-9]+/gi, '-')
      .toLowerCase()}`;
}
