import { submitLifecycle } from './submit-lifecycle.js';

export const up = submitLifecycle('up');
