import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { ErrorCode, loadedErrorCatalogs } from './common/errors';

/**
 * Every code the service can answer has exactly one place that gives its status: an error catalog
 * (decision 0161). The type system refuses a DomainError without a catalog entry; these tests keep
 * the rest honest: each catalog file is loaded, every error the sources build names an entry, the
 * SSO refusals (whose code is made from a reason) are all listed, and the OpenAPI document promises
 * no code with a status no catalog gives it.
 */
const SRC = __dirname;

function sourceFiles(dir = SRC): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'migrations' ? [] : sourceFiles(path);
    return entry.name.endsWith('.ts') && !/\.(spec|repo-spec)\.ts$/.test(entry.name) ? [path] : [];
  });
}

const FILES = sourceFiles();
const CATALOG_FILES = FILES.filter((file) => file.endsWith('.errors.ts') && readFileSync(file, 'utf8').includes('errorCatalog('));
const CATALOGS = loadedErrorCatalogs();
const EXPORTS = new Map<string, Record<string, unknown>>();
let ENTRIES: ErrorCode[] = [];
beforeAll(async () => {
  for (const file of CATALOG_FILES) EXPORTS.set(file, (await import(file)) as Record<string, unknown>);
  ENTRIES = [...CATALOGS.values()].flatMap((catalog) => Object.values(catalog));
});

/** The catalogs' exported names (e.g. SCIM_ERRORS) and their entries. */
function catalogsByExportName(): Map<string, Set<string>> {
  const byName = new Map<string, Set<string>>();
  for (const exported of EXPORTS.values()) {
    for (const [name, value] of Object.entries(exported)) {
      if ([...CATALOGS.values()].includes(value as never)) byName.set(name, new Set(Object.keys(value as object)));
    }
  }
  return byName;
}

/** The first argument of every `new DomainError(…)` and of every `super(…)` in a class extending DomainError. */
function errorConstructions(): { where: string; arg: ts.Expression | undefined }[] {
  const found: { where: string; arg: ts.Expression | undefined }[] = [];
  for (const file of FILES) {
    const source = ts.createSourceFile(file, readFileSync(file, 'utf8'), ts.ScriptTarget.Latest, true);
    const visit = (node: ts.Node, inDomainErrorClass: boolean): void => {
      const where = () => `${relative(SRC, file)}:${source.getLineAndCharacterOfPosition(node.getStart()).line + 1}`;
      if (ts.isNewExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'DomainError') {
        found.push({ where: where(), arg: node.arguments?.[0] });
      }
      if (inDomainErrorClass && ts.isCallExpression(node) && node.expression.kind === ts.SyntaxKind.SuperKeyword) {
        found.push({ where: where(), arg: node.arguments[0] });
      }
      const extendsDomainError =
        ts.isClassDeclaration(node) &&
        (node.heritageClauses ?? []).some((clause) => clause.types.some((type) => type.expression.getText() === 'DomainError'));
      ts.forEachChild(node, (child) => visit(child, extendsDomainError || (inDomainErrorClass && !ts.isClassDeclaration(node))));
    };
    visit(source, false);
  }
  return found;
}

describe('error catalogs', () => {
  it('loads one catalog per catalog file, each code with an error status', () => {
    expect(CATALOG_FILES.length).toBeGreaterThanOrEqual(8);
    const elsewhere = FILES.filter(
      (file) => !CATALOG_FILES.includes(file) && /^export const \w+ = errorCatalog\(/m.test(readFileSync(file, 'utf8')),
    );
    expect(elsewhere.map((file) => relative(SRC, file))).toEqual([]);
    expect(CATALOGS.size).toBe(CATALOG_FILES.length);
    for (const entry of ENTRIES) {
      expect({ entry: `${entry.catalog}.${entry.code}`, status: entry.status >= 400 && entry.status <= 599 }).toEqual({
        entry: `${entry.catalog}.${entry.code}`,
        status: true,
      });
    }
  });

  it('gives a shared code the common status everywhere it is declared again', () => {
    const common = CATALOGS.get('common')!;
    const clashes = ENTRIES.filter((entry) => entry.catalog !== 'common')
      .filter((entry) => Object.values(common).some((shared) => shared.code === entry.code && shared.status !== entry.status))
      .map((entry) => `${entry.catalog}.${entry.code}`);
    expect(clashes).toEqual([]);
  });

  it('builds every DomainError from a catalog entry, never from a bare code', () => {
    const catalogs = catalogsByExportName();
    const constructions = errorConstructions();
    expect(constructions.length).toBeGreaterThan(80);
    const uncatalogued = constructions.filter(({ arg }) => {
      if (!arg) return true;
      // SCIM_ERRORS.invalidValue, OAUTH_ERRORS[code] (code typed as the catalog's keys), samlRefusal(code) (checked below)
      if (ts.isPropertyAccessExpression(arg) && ts.isIdentifier(arg.expression)) {
        return !catalogs.get(arg.expression.text)?.has(arg.name.text);
      }
      if (ts.isElementAccessExpression(arg) && ts.isIdentifier(arg.expression)) return !catalogs.has(arg.expression.text);
      if (ts.isCallExpression(arg) && arg.expression.getText() === 'samlRefusal') return false;
      return true;
    });
    expect(uncatalogued.map(({ where, arg }) => `${where}: ${arg?.getText() ?? '(nothing)'}`)).toEqual([]);
  });

  it('lists every SSO refusal reason in the SAML catalog', () => {
    const saml = CATALOGS.get('saml')!;
    const reasons = new Set<string>();
    for (const file of FILES.filter((f) => relative(SRC, f).startsWith('saml'))) {
      const text = readFileSync(file, 'utf8');
      const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
      const visit = (node: ts.Node): void => {
        // refusedWithPage(sp, reason, message, metadata?, { code? }): answered as saml_<reason> unless a code is given.
        const isPageRefusal = ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'refusedWithPage';
        const namesItsCode = isPageRefusal && node.arguments[4]?.getText().includes('code:');
        if (isPageRefusal && !namesItsCode && ts.isStringLiteral(node.arguments[1])) reasons.add(node.arguments[1].text);
        // catalogued('saml_…'): a page refusal that names its code.
        const isCatalogued = ts.isCallExpression(node) && ts.isIdentifier(node.expression) && node.expression.text === 'catalogued';
        if (isCatalogued && ts.isStringLiteral(node.arguments[0])) reasons.add(node.arguments[0].text.replace(/^saml_/, ''));
        ts.forEachChild(node, visit);
      };
      visit(source);
      // Reasons handed over in values (request-freshness.ts's Freshness), answered with a page.
      if (file.endsWith('request-freshness.ts')) for (const m of text.matchAll(/\breason: '([a-z_]+)'/g)) reasons.add(m[1]);
    }
    expect(reasons.size).toBeGreaterThanOrEqual(10);
    const missing = [...reasons].filter((reason) => !Object.values(saml).some((entry) => entry.code === `saml_${reason}`));
    expect(missing).toEqual([]);
  });

  it('documents no code with a status its catalog does not give it', () => {
    const document = JSON.parse(readFileSync(join(SRC, '..', 'openapi.json'), 'utf8')) as {
      paths: Record<
        string,
        Record<string, { responses?: Record<string, { content?: Record<string, { examples?: Record<string, { value?: unknown }> }> }> }>
      >;
    };
    const oauth = CATALOGS.get('oauth')!;
    const common = Object.values(CATALOGS.get('common')!);
    const scim = CATALOGS.get('scim')!;
    const undocumented: string[] = [];
    let documented = 0;
    for (const [path, item] of Object.entries(document.paths)) {
      for (const [method, op] of Object.entries(item)) {
        for (const [status, response] of Object.entries(op.responses ?? {})) {
          for (const media of Object.values(response.content ?? {})) {
            for (const { value } of Object.values(media.examples ?? {})) {
              const body = value as { error?: unknown; scimType?: unknown } | undefined;
              const at = `${method.toUpperCase()} ${path} ${status}`;
              if (typeof body?.error === 'string') {
                documented++;
                const code = body.error;
                const catalogued = ENTRIES.some((entry) => entry.code === code && entry.status === Number(status));
                // The OAuth surface answers the shared codes (body too large, rate limits) in RFC 6749's words.
                const sharedInOAuthWords = code in oauth && common.some((entry) => entry.status === Number(status));
                if (!catalogued && !sharedInOAuthWords) undocumented.push(`${at}: ${code}`);
              }
              if (typeof body?.scimType === 'string') {
                documented++;
                const scimType = body.scimType as keyof typeof scim;
                // tooLarge is the scimType the filter gives COMMON_ERRORS.payload_too_large on SCIM routes.
                const ok = scim[scimType]?.status === Number(status) || (scimType === 'tooLarge' && status === '413');
                if (!ok) undocumented.push(`${at}: scimType ${scimType}`);
              }
            }
          }
        }
      }
    }
    expect(documented).toBeGreaterThan(100);
    expect(undocumented).toEqual([]);
  });
});
