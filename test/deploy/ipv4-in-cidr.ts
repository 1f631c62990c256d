/** Whether an IPv4 address lies in an IPv4 CIDR block; anything that is not IPv4 is outside. */
export function ipv4InCidr(address: string, cidr: string): boolean {
  const [network, bits] = cidr.split('/');
  const a = toNumber(address);
  const n = toNumber(network ?? '');
  const prefix = Number(bits ?? '32');
  if (a === undefined || n === undefined || !(prefix >= 0 && prefix <= 32)) return false;
  const mask = prefix === 0 ? 0 : (~0 << (32 - prefix)) >>> 0;
  return (a & mask) >>> 0 === (n & mask) >>> 0;
}

function toNumber(address: string): number | undefined {
  const parts = address.split('.');
  if (parts.length !== 4 || !parts.every((p) => /^\d{1,3}$/.test(p) && Number(p) <= 255)) return undefined;
  return parts.reduce((sum, p) => sum * 256 + Number(p), 0);
}
