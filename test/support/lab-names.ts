import { labMs } from './lab-time.js';

/** Where the lab's nodes answer: one loopback address each, never the operators' network. */
export const DEV_ADDRESSES = {
  'k3s-dev-1': '127.0.0.11',
  'k3s-dev-2': '127.0.0.12',
  'k3s-dev-3': '127.0.0.13',
};
export type DevNode = keyof typeof DEV_ADDRESSES;
export const PROD_ADDRESSES = {
  'k3s-prod-1': '127.0.0.21',
  'k3s-prod-2': '127.0.0.22',
  'k3s-prod-3': '127.0.0.23',
};
export type ProdNode = keyof typeof PROD_ADDRESSES;
/** The loopback placeholders the lab inventory gives prod's nodes as ansible_host (infra-repo hosts.ini). */
export const PROD_INVENTORY_ADDRESSES: Readonly<Record<ProdNode, string>> = {
  'k3s-prod-1': '127.0.2.10',
  'k3s-prod-2': '127.0.2.11',
  'k3s-prod-3': '127.0.2.12',
};
/** A loopback address nothing listens on: a prod node that is not racked yet. */
export const UNSERVED_ADDRESS = '127.0.0.29';
/** What the lab's curl answers for a lookup outside the tunnel: the home ISP's address. */
export const HOME_EXIT_IP = '198.51.100.20';
/** The lab tofu layer's VM of a dev node (`infra/tofu/main.tf`: one per dev node). */
export const TOFU_RESOURCE = (node: string) => `proxmox_vm_qemu.k3s_node["${node}"]`;
/** Real ansible runs take seconds each, and much longer on a loaded 2-core machine. */
export const LAB_TEST_TIMEOUT_MS = labMs(180_000);
