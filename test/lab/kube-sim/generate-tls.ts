import { execFile } from 'node:child_process';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface TlsMaterial {
  readonly caPem: string;
  readonly certPem: string;
  readonly keyPem: string;
}

const run = promisify(execFile);

/**
 * A throwaway CA (named like k3s's "k3s-server-ca@<time>") and a server certificate for `host` it
 * signed, made with the openssl CLI. EC P-256 keys keep it fast (tens of ms).
 */
export async function generateTls(host: string): Promise<TlsMaterial> {
  const dir = await mkdtemp(join(tmpdir(), 'kube-sim-tls-'));
  try {
    const at = (name: string) => join(dir, name);
    const ec = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];
    await run('openssl', [
      'req',
      '-x509',
      ...ec,
      '-keyout',
      at('ca.key'),
      '-out',
      at('ca.crt'),
      '-days',
      '3',
      '-subj',
      `/CN=k3s-server-ca@${Math.floor(Date.now() / 1000)}`,
      '-addext',
      'basicConstraints=critical,CA:TRUE',
      '-addext',
      'keyUsage=critical,keyCertSign,cRLSign',
    ]);
    await run('openssl', [
      'req',
      '-new',
      ...ec,
      '-keyout',
      at('server.key'),
      '-out',
      at('server.csr'),
      '-subj',
      '/O=k3s/CN=k3s',
    ]);
    await writeFile(
      at('server.ext'),
      'basicConstraints=CA:FALSE\nkeyUsage=critical,digitalSignature,keyEncipherment\nextendedKeyUsage=serverAuth\n' +
        `subjectAltName=IP:${host},DNS:localhost,DNS:kubernetes,DNS:kubernetes.default,DNS:kubernetes.default.svc\n`,
    );
    await run('openssl', [
      'x509',
      '-req',
      '-in',
      at('server.csr'),
      '-CA',
      at('ca.crt'),
      '-CAkey',
      at('ca.key'),
      '-CAcreateserial',
      '-out',
      at('server.crt'),
      '-days',
      '3',
      '-extfile',
      at('server.ext'),
    ]);
    const [caPem, certPem, keyPem] = await Promise.all(
      ['ca.crt', 'server.crt', 'server.key'].map((f) => readFile(at(f), 'utf8')),
    );
    return { caPem: caPem!, certPem: certPem!, keyPem: keyPem! };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
