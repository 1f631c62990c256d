import { submitLifecycle } from './submit-lifecycle.js';

export const drift = submitLifecycle('drift');
