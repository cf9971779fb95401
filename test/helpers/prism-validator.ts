/* eslint-disable @typescript-eslint/no-require-imports */
/**
 * Stoplight Prism's own response validator, in-process: the routing and OpenAPI reading of
 * `prism proxy --errors`, applied to every response the e2e suites see (a proxy in front of supertest
 * would answer some requests itself, and mangles malformed bodies on purpose sent by the suites).
 * Deep imports because the package index loads the mocker, whose ESM-only faker Jest cannot require on
 * Node 20; the version is pinned in package.json for that reason.
 */
const { getHttpOperationsFromSpec } = require('@stoplight/prism-http/dist/utils/operations') as {
  getHttpOperationsFromSpec(doc: object): Promise<unknown[]>;
};
const route = (require('@stoplight/prism-http/dist/router') as { default: (input: object) => Either<unknown, unknown> }).default;
const { validateOutput } = require('@stoplight/prism-http/dist/validator') as { validateOutput(input: object): Either<Diagnostic[], unknown> };

type Either<L, R> = { _tag: 'Left'; left: L } | { _tag: 'Right'; right: R };
interface Diagnostic {
  path?: (string | number)[];
  message: string;
  severity: number;
}

const ERROR = 0;

export class PrismResponseValidator {
  readonly violations: string[] = [];
  checked = 0;

  private constructor(private readonly operations: unknown[]) {}

  static async create(doc: object): Promise<PrismResponseValidator> {
    return new PrismResponseValidator(await getHttpOperationsFromSpec(JSON.parse(JSON.stringify(doc)) as object));
  }

  check(method: string, url: string, status: number, headers: Record<string, string>, body: unknown): void {
    const path = url.replace(/^https?:\/\/[^/]+/, '').split('?', 1)[0];
    const routed = route({ resources: this.operations, input: { method: method.toLowerCase(), url: { path }, headers: {} } });
    if (routed._tag === 'Left') return; // not a documented route (docs, unknown paths answered 404)
    this.checked++;
    const result = validateOutput({ resource: routed.right, element: { statusCode: status, headers, body } });
    if (result._tag === 'Right') return;
    for (const d of result.left) {
      if (d.severity === ERROR) this.violations.push(`Prism: ${method.toUpperCase()} ${path} -> ${status}: ${(d.path ?? []).join('.')} ${d.message}`);
    }
  }
}
