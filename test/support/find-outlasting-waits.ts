import ts from 'typescript';

/** The timeout vitest gives a test that names none (vitest.config.ts, before the lab's time scale). */
export const DEFAULT_TEST_TIMEOUT_MS = 60_000;
/** lab-names.ts's timeout for files of real ansible runs, before the scale. */
const NAMED_TIMEOUTS: Readonly<Record<string, number>> = { LAB_TEST_TIMEOUT_MS: 180_000 };
const TEST_CALLS = new Set(['describe', 'it', 'test']);
const WAIT_KEYS = new Set(['timeoutMs', 'timeout']);

export interface OutlastingWait {
  readonly line: number;
  readonly waitMs: number;
  readonly testTimeoutMs: number;
}

/**
 * Waits in a test file whose own deadline is longer than the timeout of the test holding them: such
 * a wait never gets to say what it waited for, the test is stopped first with a bare "timed out".
 * Values are compared before the lab's time scale, which stretches both alike: `labMs(N)`, a number
 * literal or a named lab timeout count; a wait computed otherwise is not judged.
 */
export function findOutlastingWaits(fileName: string, text: string): OutlastingWait[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: OutlastingWait[] = [];
  const visit = (node: ts.Node, testTimeoutMs: number, inTest: boolean): void => {
    if (ts.isCallExpression(node) && isTestCall(node)) {
      const own = declaredTimeout(node);
      node.arguments.forEach((argument) => {
        visit(argument, own ?? testTimeoutMs, true);
      });
      return;
    }
    if (inTest && ts.isPropertyAssignment(node) && WAIT_KEYS.has(propertyName(node))) {
      const waitMs = valueMs(node.initializer);
      if (waitMs !== undefined && waitMs > testTimeoutMs) {
        const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
        found.push({ line, waitMs, testTimeoutMs });
      }
    }
    ts.forEachChild(node, (child) => visit(child, testTimeoutMs, inTest));
  };
  visit(source, DEFAULT_TEST_TIMEOUT_MS, false);
  return found;
}

function isTestCall(call: ts.CallExpression): boolean {
  const callee = ts.isPropertyAccessExpression(call.expression)
    ? call.expression.expression
    : call.expression;
  return ts.isIdentifier(callee) && TEST_CALLS.has(callee.text);
}

/** `{ timeout: … }` among a test call's arguments, or a bare number as its last one. */
function declaredTimeout(call: ts.CallExpression): number | undefined {
  for (const argument of call.arguments) {
    if (ts.isObjectLiteralExpression(argument)) {
      const timeout = argument.properties.find(
        (p): p is ts.PropertyAssignment => ts.isPropertyAssignment(p) && propertyName(p) === 'timeout',
      );
      if (timeout) return valueMs(timeout.initializer);
    }
  }
  const last = call.arguments.at(-1);
  return last && ts.isNumericLiteral(last) ? Number(last.text) : undefined;
}

function propertyName(property: ts.PropertyAssignment): string {
  return ts.isIdentifier(property.name) ? property.name.text : '';
}

function valueMs(expression: ts.Expression): number | undefined {
  if (ts.isNumericLiteral(expression)) return Number(expression.text.replaceAll('_', ''));
  if (ts.isIdentifier(expression)) return NAMED_TIMEOUTS[expression.text];
  if (ts.isCallExpression(expression) && ts.isIdentifier(expression.expression)) {
    const [argument] = expression.arguments;
    if (expression.expression.text === 'labMs' && argument) return valueMs(argument);
  }
  return undefined;
}
