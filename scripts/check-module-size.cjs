#!/usr/bin/env node
// A feature module keeps to about 12 providers and 4 controllers (decision 0190); a module over either
// says why here, and docs/architecture.md ("Module map") repeats the reason. Part of `npm run lint:layers`;
// exit 1 on a module over the limit without a reason, or on a reason for a module no longer over it.
const { readFileSync, readdirSync, statSync } = require('node:fs');
const { join, relative } = require('node:path');
const ts = require('typescript');

const MAX_PROVIDERS = 12;
const MAX_CONTROLLERS = 4;

/** Modules over the limit, and why they are one module. */
const OVER_FOR_A_REASON = {
  'src/scim/scim.module.ts': 'one protocol surface: the SCIM resources, search, discovery, and the SCIM tokens and clients that guard them',
  'src/oauth/oauth.module.ts':
    'the one authorization server: its keys, token endpoint, client authentication and token management, which every grant shares',
  'src/oidc/oidc.module.ts':
    'the OpenID provider: authorization, the two grants it adds, ID tokens, UserInfo, logout and consent over one repository',
  'src/hosted-login/hosted-login.module.ts':
    'the hosted pages and the browser session: one service per page and the ports through which SAML, OIDC and SSO connections continue a sign-in',
};

const root = join(__dirname, '..');
const rel = (path) => relative(root, path).split('\\').join('/');

function* modules(dir) {
  for (const name of readdirSync(dir)) {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) yield* modules(path);
    else if (name.endsWith('.module.ts')) yield path;
  }
}

/** The sizes of the @Module() arrays `providers` and `controllers` of a file (0 when absent). */
function sizes(path) {
  const source = ts.createSourceFile(path, readFileSync(path, 'utf8'), ts.ScriptTarget.Latest, true);
  const found = { providers: 0, controllers: 0 };
  const visit = (node) => {
    if (ts.isDecorator(node) && ts.isCallExpression(node.expression) && node.expression.expression.getText() === 'Module') {
      const [options] = node.expression.arguments;
      if (options && ts.isObjectLiteralExpression(options)) {
        for (const property of options.properties) {
          const name = property.name && property.name.getText();
          if ((name === 'providers' || name === 'controllers') && ts.isPropertyAssignment(property)) {
            if (ts.isArrayLiteralExpression(property.initializer)) found[name] = property.initializer.elements.length;
          }
        }
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

const problems = [];
let over = 0;
for (const path of modules(join(root, 'src'))) {
  const { providers, controllers } = sizes(path);
  const isOver = providers > MAX_PROVIDERS || controllers > MAX_CONTROLLERS;
  const reason = OVER_FOR_A_REASON[rel(path)];
  if (isOver) over++;
  if (isOver && !reason) problems.push(`${rel(path)}: ${providers} providers, ${controllers} controllers, and no reason given`);
  if (!isOver && reason) problems.push(`${rel(path)}: within the limit now; drop its reason`);
}
if (problems.length > 0) {
  console.error(
    `Modules over ${MAX_PROVIDERS} providers or ${MAX_CONTROLLERS} controllers need a reason in scripts/check-module-size.cjs:`,
  );
  for (const problem of problems) console.error(`  ${problem}`);
  process.exit(1);
}
console.log(`modules within ${MAX_PROVIDERS} providers and ${MAX_CONTROLLERS} controllers, ${over} over with their reason`);
