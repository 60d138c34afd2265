/**
 * The layering of src/, checked by dependency-cruiser (`npm run lint:layers`, part of `npm run lint`).
 * docs/architecture.md ("Layers and arrows") says the same in prose; the two change together.
 *
 *   app          src/*.ts (main, app.module, app.factory, app.entities, workers, openapi, boot-summary)
 *     │           wires the features together; nothing imports it
 *     ▼
 *   features     src/<feature>/ (scim, saml, end-users, email-verification, audit, mail, …)
 *     │           use each other through exported services; Nest modules imported, not @Global()
 *     ▼
 *   foundation   src/config, src/database, src/events, src/common, src/api-docs
 *                 knows no feature and no app file
 *
 * Tests beside the code (*.spec.ts, *.repo-spec.ts) are outside the layering: they may reach for a fixture anywhere.
 */
const FOUNDATION = '^src/(config|database|events|common|api-docs)/';
const FEATURE = '^src/(?!(?:config|database|events|common|api-docs)/)[^/]+/';
const APP = '^src/[^/]+\\.ts$';
const SPEC = '\\.(repo-)?spec\\.ts$';

const { END_USER_READERS } = require('./scripts/table-readers.cjs');

/** The modules that may read end_users (scripts/table-readers.cjs, decision 0155), as one path pattern. */
const END_USER_READER_PATHS = `^(${END_USER_READERS.map(({ folder }) => folder).join('|')})`;

module.exports = {
  forbidden: [
    {
      name: 'no-cycle',
      severity: 'error',
      comment: 'An import cycle: two files (or folders) that each need the other. Break it with a port in the lower one.',
      from: { path: '^src/', pathNot: SPEC },
      to: { circular: true },
    },
    {
      name: 'foundation-knows-no-feature',
      severity: 'error',
      comment: 'src/config, database, events, common and api-docs sit below every feature: they may not import one.',
      from: { path: FOUNDATION, pathNot: SPEC },
      to: { path: FEATURE },
    },
    {
      name: 'nothing-imports-the-app',
      severity: 'error',
      comment: 'The app layer (src/*.ts) wires everything; a feature or the foundation importing it runs an arrow back up.',
      from: { path: '^src/[^/]+/', pathNot: SPEC },
      to: { path: APP },
    },
    {
      name: 'end-users-read-by-their-owners',
      severity: 'error',
      comment:
        'end_users is read only by the modules listed in scripts/table-readers.cjs (decision 0155): no other module ' +
        'imports its entity or EndUsersRepository; they ask EndUsersService. (SQL naming the table: scripts/check-table-readers.cjs.)',
      from: { path: '^src/', pathNot: [END_USER_READER_PATHS, SPEC, APP] },
      to: { path: '^src/end-user-directory/(entities/end-user\\.entity|end-users\\.repository)\\.ts$' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: ['^src/database/migrations/', '^dist/', '^console/'] },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { exportsFields: ['exports'], conditionNames: ['import', 'require', 'node', 'default'] },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
