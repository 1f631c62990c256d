import { submitLifecycle } from './submit-lifecycle.js';

export const cilium = submitLifecycle('cilium');
