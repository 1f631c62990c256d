/**
 * Sent with every job page response. The page loads only what this server serves (no CDN, no
 * fonts, no inline script), cannot be framed, and never sends its URL, whose query is the link's
 * signature, to anyone as a referrer.
 */
export const SECURITY_HEADERS: Readonly<Record<string, string>> = {
  'content-security-policy':
    "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
  'cache-control': 'no-store',
};
