import { submitLifecycle } from './submit-lifecycle.js';

export const reprovision = submitLifecycle('reprovision');
