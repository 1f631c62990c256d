/** Kubernetes timestamps: RFC 3339 in UTC with whole seconds ("2026-03-01T10:00:00Z"). */
export function rfc3339(date: Date | number): string {
  return new Date(date).toISOString().replace(/\.\d{3}Z$/, 'Z');
}
