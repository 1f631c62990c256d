import type { IncomingMessage } from 'node:http';

/** Arguments WebClient sends JSON-encoded inside a form (it stringifies every non-scalar value). */
const jsonEncodedArgs = new Set(['blocks', 'attachments', 'files', 'metadata', 'view']);

function decodeNested(args: Record<string, unknown>): Record<string, unknown> {
  for (const name of jsonEncodedArgs) {
    const value = args[name];
    if (typeof value !== 'string') continue;
    try {
      args[name] = JSON.parse(value);
    } catch {
      // Left as sent: the method answers invalid_* like Slack does for malformed JSON.
    }
  }
  return args;
}

/** A multipart body as a flat record; file parts become Buffers. */
export async function parseMultipart(contentType: string, raw: Buffer): Promise<Record<string, unknown>> {
  const form = await new Response(new Uint8Array(raw), {
    headers: { 'content-type': contentType },
  }).formData();
  const args: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) {
    args[name] = typeof value === 'string' ? value : Buffer.from(await value.arrayBuffer());
  }
  return args;
}

/**
 * Web API arguments from the query string and the body, whichever way the client sent them:
 * form (WebClient's default), JSON (with a Bearer token), or multipart.
 */
export async function parseApiArgs(
  req: IncomingMessage,
  url: URL,
  raw: Buffer,
): Promise<Record<string, unknown>> {
  const args: Record<string, unknown> = Object.fromEntries(url.searchParams);
  const contentType = req.headers['content-type'] ?? '';
  const mediaType = contentType.split(';')[0]!.trim().toLowerCase();
  if (raw.length === 0) return decodeNested(args);
  if (mediaType === 'application/json') {
    const parsed: unknown = JSON.parse(raw.toString('utf8'));
    if (typeof parsed === 'object' && parsed !== null) Object.assign(args, parsed);
  } else if (mediaType === 'multipart/form-data') {
    Object.assign(args, await parseMultipart(contentType, raw));
  } else {
    Object.assign(args, Object.fromEntries(new URLSearchParams(raw.toString('utf8'))));
  }
  return decodeNested(args);
}
