import { createPortPicker } from '../lab/pick-port.js';

/** A port on 127.0.0.1 for a process the test starts (a bot, a Redis); see pick-port.ts. */
export const freePort: () => Promise<number> = createPortPicker(20_000);
