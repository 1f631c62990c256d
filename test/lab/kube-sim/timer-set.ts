/** Named timers, so a pod's kubelet timers can be cancelled when the pod goes and all of them at close. */
export class TimerSet {
  readonly #timers = new Map<string, NodeJS.Timeout>();

  has(key: string): boolean {
    return this.#timers.has(key);
  }

  after(key: string, delayMs: number, run: () => void): void {
    this.cancel(key);
    this.#timers.set(
      key,
      setTimeout(() => {
        this.#timers.delete(key);
        run();
      }, delayMs),
    );
  }

  every(key: string, intervalMs: number, run: () => void): void {
    this.cancel(key);
    this.#timers.set(key, setInterval(run, intervalMs));
  }

  cancel(key: string): void {
    const timer = this.#timers.get(key);
    if (timer === undefined) return;
    clearTimeout(timer);
    clearInterval(timer);
    this.#timers.delete(key);
  }

  /** Cancels every timer whose key starts with prefix. */
  cancelPrefix(prefix: string): void {
    for (const key of [...this.#timers.keys()]) if (key.startsWith(prefix)) this.cancel(key);
  }

  clear(): void {
    for (const key of [...this.#timers.keys()]) this.cancel(key);
  }
}
