/**
 * Regenerates test/database/statements.snapshot.sql from the typed statements the source declares
 * (`npm run sql:snapshot`); commit the result with the change to the query.
 */
import 'reflect-metadata';
import { writeFileSync } from 'node:fs';
import { declaredStatements } from '../src/database/statement';
import { loadStatementModules, renderSnapshot, SNAPSHOT_PATH } from '../src/database/statement-snapshot';

loadStatementModules();
writeFileSync(SNAPSHOT_PATH, renderSnapshot());
process.stdout.write(`${declaredStatements().length} statements written to ${SNAPSHOT_PATH}\n`);
