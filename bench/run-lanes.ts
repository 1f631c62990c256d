/** Runs `task` `total` times with at most `lanes` in flight; resolves with each result in completion order. */
export async function runLanes<T>(total: number, lanes: number, task: () => Promise<T>): Promise<T[]> {
  const results: T[] = [];
  let started = 0;
  const lane = async () => {
    while (started < total) {
      started++;
      results.push(await task());
    }
  };
  await Promise.all(Array.from({ length: Math.min(lanes, total) }, lane));
  return results;
}
