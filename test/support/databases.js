"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.WORKER_SLOTS = exports.ADMIN_URL = void 0;
exports.databasePrefix = databasePrefix;
exports.databaseUrl = databaseUrl;
exports.workerDatabaseName = workerDatabaseName;
exports.withAdmin = withAdmin;
exports.recreateDatabase = recreateDatabase;
exports.prepareWorkerDatabases = prepareWorkerDatabases;
exports.dropWorkerDatabases = dropWorkerDatabases;
const node_crypto_1 = require("node:crypto");
const pg_1 = require("pg");
const typeorm_1 = require("typeorm");
const data_source_1 = require("../../src/database/data-source");
const migrate_1 = require("../../src/database/migrate");
/** Admin connection to the machine's PostgreSQL (trust auth on the dev machines and CI). */
exports.ADMIN_URL = process.env.TEST_DATABASE_ADMIN_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
exports.WORKER_SLOTS = 4;
/** Per checkout, so two checkouts on one machine never share test databases. */
function databasePrefix() {
    const root = process.env.TEST_ROOT_DIR ?? process.cwd();
    return `idsvc_t_${(0, node_crypto_1.createHash)('sha1').update(root).digest('hex').slice(0, 8)}`;
}
function databaseUrl(name) {
    const url = new URL(exports.ADMIN_URL);
    url.pathname = `/${name}`;
    return url.toString();
}
function workerDatabaseName() {
    const worker = Number(process.env.JEST_WORKER_ID ?? '1');
    return `${databasePrefix()}_w${((worker - 1) % exports.WORKER_SLOTS) + 1}`;
}
async function withAdmin(work) {
    const client = new pg_1.Client({ connectionString: exports.ADMIN_URL });
    await client.connect();
    try {
        return await work(client);
    }
    finally {
        await client.end();
    }
}
async function recreateDatabase(client, name, template) {
    await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    await client.query(`CREATE DATABASE "${name}"${template ? ` TEMPLATE "${template}"` : ''}`);
}
/**
 * Migrates the template database once per run, then clones one fresh database per Jest worker
 * from it (CREATE DATABASE … TEMPLATE is a file copy: fast). Shared by the e2e and repository
 * projects' global setups: when one `jest` run holds both, the second finds them made.
 */
async function prepareWorkerDatabases() {
    if (process.env.TEST_WORKER_DATABASES_READY === databasePrefix())
        return;
    const template = `${databasePrefix()}_template`;
    await withAdmin((client) => recreateDatabase(client, template));
    const dataSource = await new typeorm_1.DataSource((0, data_source_1.dataSourceOptions)({ url: databaseUrl(template), embedded: false, poolSize: 2, statementTimeoutMs: 0 })).initialize();
    try {
        await (0, migrate_1.runMigrations)(dataSource);
    }
    finally {
        await dataSource.destroy();
    }
    await withAdmin(async (client) => {
        for (let slot = 1; slot <= exports.WORKER_SLOTS; slot++)
            await recreateDatabase(client, `${databasePrefix()}_w${slot}`, template);
    });
    process.env.TEST_WORKER_DATABASES_READY = databasePrefix();
}
/** Drops the template and per-worker databases (KEEP_TEST_DATABASES=1 keeps them to inspect). */
async function dropWorkerDatabases() {
    if (process.env.KEEP_TEST_DATABASES)
        return;
    const names = [`${databasePrefix()}_template`, ...Array.from({ length: exports.WORKER_SLOTS }, (_, i) => `${databasePrefix()}_w${i + 1}`)];
    await withAdmin(async (client) => {
        for (const name of names)
            await client.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
    });
}
//# sourceMappingURL=databases.js.map