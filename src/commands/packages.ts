import { submitLifecycle } from './submit-lifecycle.js';

export const packages = submitLifecycle('packages');
