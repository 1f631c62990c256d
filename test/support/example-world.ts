import { loadWorldConfig } from '../../src/config/load-world-config.js';
import type { WorldConfig } from '../../src/config/world-config.js';

export const EXAMPLE_CONFIG_PATH = new URL('../../config/example.yaml', import.meta.url).pathname;

export function loadExampleWorld(): Promise<WorldConfig> {
  return loadWorldConfig(EXAMPLE_CONFIG_PATH);
}
