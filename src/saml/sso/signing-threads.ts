import { coresForThisProcess } from '../../common/cores';

/**
 * Threads for SSO's signing when SAML_SIGNING_THREADS is unset (decision 1026): one when this process has a core
 * beyond the one its event loop uses (one process on two cores), none when the cluster's workers already fill the cores.
 */
export function signingThreadCount(configured: number | undefined, cores = coresForThisProcess()): number {
  return configured ?? Math.min(1, cores - 1);
}
