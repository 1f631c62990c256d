export interface DockerInstruction {
  readonly keyword: string;
  readonly args: string;
}

export interface DockerStage {
  /** The FROM image with global ARG defaults substituted. */
  readonly from: string;
  readonly name: string | undefined;
  readonly instructions: DockerInstruction[];
}

/** A Dockerfile as stages of instructions: continuations joined, comments and blank lines dropped. */
export function parseDockerfile(text: string): DockerStage[] {
  const logical = text
    .split('\n')
    .filter((line) => !/^\s*#/.test(line))
    .join('\n')
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line !== '');
  const globalArgs = new Map<string, string>();
  const stages: DockerStage[] = [];
  for (const line of logical) {
    const [, keyword = '', args = ''] = /^(\S+)\s*(.*)$/.exec(line) ?? [];
    const instruction = { keyword: keyword.toUpperCase(), args: args.replace(/\s+/g, ' ') };
    if (instruction.keyword === 'FROM') {
      const [image = '', as, name] = instruction.args.split(' ');
      const from = image.replace(/\$\{?(\w+)\}?/g, (_, arg: string) => globalArgs.get(arg) ?? '');
      stages.push({ from, name: as?.toUpperCase() === 'AS' ? name : undefined, instructions: [] });
    } else if (stages.length === 0 && instruction.keyword === 'ARG') {
      const [arg = '', value = ''] = instruction.args.split('=');
      globalArgs.set(arg, value);
    } else {
      stages.at(-1)?.instructions.push(instruction);
    }
  }
  return stages;
}
