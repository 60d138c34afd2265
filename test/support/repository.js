"use strict";
Object.defineProperty(exports, "__esModule", { value: true });
exports.bootRepositories = bootRepositories;
exports.aWorkspaceRow = aWorkspaceRow;
exports.aDeveloperRow = aDeveloperRow;
exports.itKeepsTheTenantContract = itKeepsTheTenantContract;
require("reflect-metadata");
const testing_1 = require("@nestjs/testing");
const typeorm_1 = require("@nestjs/typeorm");
const node_crypto_1 = require("node:crypto");
const typeorm_2 = require("typeorm");
const data_source_1 = require("../../src/database/data-source");
const entities_1 = require("../../src/database/entities");
const statement_1 = require("../../src/database/statement");
const databases_1 = require("./databases");
async function bootRepositories(providers) {
    const module = await testing_1.Test.createTestingModule({
        imports: [
            typeorm_1.TypeOrmModule.forRoot((0, data_source_1.dataSourceOptions)({ url: (0, databases_1.databaseUrl)((0, databases_1.workerDatabaseName)()), embedded: false, poolSize: 3, statementTimeoutMs: 15000 })),
            // Every entity's Repository, for the repositories that inject one (@InjectRepository).
            typeorm_1.TypeOrmModule.forFeature(entities_1.ENTITIES),
        ],
        providers,
    }).compile();
    const dataSource = module.get(typeorm_2.DataSource);
    (0, statement_1.bindStatements)(dataSource);
    return { dataSource, get: (token) => module.get(token), close: () => module.close() };
}
/** A workspace row of its own (the tenant every repository method is scoped by). */
async function aWorkspaceRow(dataSource, name = `ws-${(0, node_crypto_1.randomUUID)().slice(0, 8)}`) {
    const [row] = await dataSource.query('INSERT INTO workspaces (name) VALUES ($1) RETURNING id', [name]);
    return row.id;
}
/** A developer row (no password anyone can use). */
async function aDeveloperRow(dataSource) {
    const [row] = await dataSource.query(`INSERT INTO developers (email, name, password_hash) VALUES ($1, 'Repo Test', 'x') RETURNING id`, [`dev-${(0, node_crypto_1.randomUUID)().slice(0, 12)}@example.test`]);
    return row.id;
}
function itKeepsTheTenantContract(what, harness, contract) {
    describe(`${what}: the tenant contract`, () => {
        let owner;
        let other;
        beforeEach(async () => {
            owner = await aWorkspaceRow(harness().dataSource);
            other = await aWorkspaceRow(harness().dataSource);
        });
        it('reads what its own workspace made', async () => {
            const c = contract();
            const id = await c.create(owner);
            expect(await c.read(owner, id)).toBeDefined();
        });
        it('another workspace cannot read it', async () => {
            const c = contract();
            const id = await c.create(owner);
            expect(await c.read(other, id)).toBeUndefined();
        });
        it('another workspace can neither update nor delete it, and it stays as it was', async () => {
            const c = contract();
            const id = await c.create(owner);
            const before = await c.read(owner, id);
            if (c.update)
                expect(await c.update(other, id)).toBe(false);
            if (c.delete)
                expect(await c.delete(other, id)).toBe(false);
            expect(await c.read(owner, id)).toEqual(before);
        });
        it('its own workspace can update and delete it', async () => {
            const c = contract();
            const id = await c.create(owner);
            if (c.update)
                expect(await c.update(owner, id)).toBe(true);
            if (c.delete) {
                expect(await c.delete(owner, id)).toBe(true);
                expect(await c.read(owner, id)).toBeUndefined();
            }
        });
    });
}
//# sourceMappingURL=repository.js.map