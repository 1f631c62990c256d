/** How keys and known_hosts are read (node:fs/promises readFile by default; injectable for tests). */
export type ReadFile = (path: string) => Promise<Buffer | string>;
