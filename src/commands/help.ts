import type { VerbHandler } from './verb-handler.js';

/** Anyone may read the help, anywhere: it names no cluster. */
export const help: VerbHandler = async () => ({ kind: 'help' });
