import { submitLifecycle } from './submit-lifecycle.js';

export const health = submitLifecycle('health');
