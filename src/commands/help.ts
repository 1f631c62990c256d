import { verbHandler } from './verb-handler.js';

/** Anyone may read the help, anywhere: it names no cluster. */
export const help = verbHandler(async () => ({ kind: 'help' }), { help: ['`help`: this text'] });
