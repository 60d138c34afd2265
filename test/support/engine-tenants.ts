import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { generateDbName, generatePassword, usernameFor } from '../../src/managed-databases/engines/credentials';
import type { DatabaseEngine, TenantDatabase } from '../../src/managed-databases/engines/database-engine';

/** A tenant database as the control plane would store it, under a fresh name made from `label`. */
export function aTenant(label: string, maxStorageMb = 50): TenantDatabase {
  const dbName = generateDbName(`it ${label}`);
  return { dbName, username: usernameFor(dbName), password: generatePassword(), maxConnections: 5, maxStorageMb };
}

/**
 * The tenants of an engine's integration suite against a real server. Every tenant it names is
 * deprovisioned after the suite (a test that failed half-way leaves no database or user behind),
 * after the suite's own clean-up (`beforeCleanUp`: its tenant connections); then the engine is closed
 * and the scratch folder of the backups removed.
 */
export function engineTenantsForSuite(
  engine: DatabaseEngine,
  options: { maxStorageMb?: number; beforeCleanUp?: () => Promise<void> } = {},
) {
  const tenants: TenantDatabase[] = [];
  let dir = '';
  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), `mdb-${engine.engine}-`));
  });
  afterAll(async () => {
    await options.beforeCleanUp?.();
    for (const t of tenants) await engine.deprovision(t).catch(() => undefined);
    await engine.close();
    await rm(dir, { recursive: true, force: true });
  });
  const named = (label: string) => {
    const t = aTenant(label, options.maxStorageMb);
    tenants.push(t);
    return t;
  };
  return {
    /** A tenant not yet on the engine, for a test of provisioning itself. */
    named,
    /** A tenant provisioned on the engine. */
    async provisioned(label: string): Promise<TenantDatabase> {
      const t = named(label);
      await engine.provision(t);
      return t;
    },
    /** A path in the suite's scratch folder, for a backup file. */
    backupPath: (name: string) => join(dir, name),
  };
}
