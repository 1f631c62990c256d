/**
 * Where the ops host's Ansible comes from, as its own answers name it: what a toolchain stamp looks at.
 * Every path is absolute (a relative one, or one starting with `-`, would be read as an option by find).
 */
export interface ToolchainPlaces {
  /** The ansible executable, the Python it runs on and the config file it reads (symlinks followed). */
  readonly files: readonly string[];
  /** ansible-core's own package folder, every file in it. */
  readonly packages: readonly string[];
  /** Each `ansible_collections` folder Ansible looks in, down to every collection's top files. */
  readonly collections: readonly string[];
  /** Python's import path and the user's site folder (present or not), their entries only. */
  readonly importPath: readonly string[];
}

const versionField = (version: string, name: string) =>
  new RegExp(`^\\s*${name} = (.*)$`, 'm').exec(version)?.[1]?.trim();

/** The Python `ansible --version` says it runs on (the path it prints last on its python line). */
export function ansiblePython(version: string): string | undefined {
  return /\((\/[^()]*)\)$/.exec(versionField(version, 'python version') ?? '')?.[1];
}

/**
 * The places behind `ansible --version`, `ansible-galaxy collection list` and the Python import path
 * as Ansible's Python printed it. Undefined when an answer does not name them (another Ansible's
 * wording, an error): the toolchain is then read whole each time, as before stamps.
 */
export function toolchainPlaces(
  version: string,
  collectionList: string,
  importPath: string,
): ToolchainPlaces | undefined {
  const field = (name: string) => versionField(version, name);
  const python = ansiblePython(version);
  const executable = field('executable location');
  const packageFolder = field('ansible python module location');
  const configFile = field('config file');
  const configured = (field('ansible collection location') ?? '')
    .split(':')
    .filter(Boolean)
    .map(collectionsFolder);
  const scanned = collectionList
    .split('\n')
    .flatMap((line) => (line.startsWith('# /') ? [line.slice(2).trim()] : []));
  const paths = importPath
    .split('\n')
    .map((line) => line.trim())
    .filter(Boolean);
  if (python === undefined || executable === undefined || packageFolder === undefined) return undefined;
  const places = {
    files: [executable, python, ...(configFile && configFile !== 'None' ? [configFile] : [])],
    packages: [packageFolder],
    collections: [...new Set([...configured, ...scanned])],
    importPath: [...new Set(paths)],
  };
  const everyPath = Object.values(places).flat();
  return everyPath.every((path) => path.startsWith('/')) && places.importPath.length > 0 ? places : undefined;
}

/** Ansible looks in a configured location's `ansible_collections`, or in the location itself when it is one. */
function collectionsFolder(location: string): string {
  const trimmed = location.replace(/\/+$/, '');
  return trimmed.endsWith('/ansible_collections') ? trimmed : `${trimmed}/ansible_collections`;
}
