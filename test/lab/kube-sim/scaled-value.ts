/** intstr.GetScaledValueFromIntOrPercent: an int as is, "N%" of total rounded up or down. */
export function scaledValue(
  value: number | string | undefined,
  total: number,
  roundUp: boolean,
  fallback: number,
): number {
  if (value === undefined) return fallback;
  if (typeof value === 'number') return value;
  const match = /^(\d+)%$/.exec(value);
  if (!match) return Number.parseInt(value, 10) || 0;
  const exact = (Number(match[1]) * total) / 100;
  return roundUp ? Math.ceil(exact) : Math.floor(exact);
}
