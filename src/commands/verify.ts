import { submitLifecycle } from './submit-lifecycle.js';

export const verify = submitLifecycle('verify');
