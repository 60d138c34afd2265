import 'reflect-metadata';

import { plainToInstance } from 'class-transformer';
import { getMetadataStorage, validateSync } from 'class-validator';
import type { ValidationMetadata } from 'class-validator/types/metadata/ValidationMetadata';
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { UpdateWebhookDto } from '../webhooks/dto/webhook.dto';
import { PRESENCE_CONTEXT } from './optional';

/**
 * Decision 0041, checked over every request DTO the service has (and any added later): a field
 * refuses `null` unless it says `@Optional({ nullable: true })`, and the OpenAPI metadata agrees.
 * The environment schema (src/config/config.ts) is not a request body: its values are strings or
 * absent, never null.
 */
/** @nestjs/swagger's metadata key for @ApiProperty (not exported from its package entry). */
const API_MODEL_PROPERTIES = 'swagger/apiModelProperties';
const SRC = join(__dirname, '..');
const EXCLUDED = new Set(['config/config.ts']); // its EnvSchema is filtered below too (other files import it)

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(path);
    return entry.name.endsWith('.ts') && !entry.name.endsWith('.spec.ts') ? [path] : [];
  });
}

/** Every file that declares validated classes, loaded so their rules reach class-validator's storage. */
const dtoFiles = sourceFiles(SRC).filter(
  (path) => !EXCLUDED.has(relative(SRC, path)) && /from 'class-validator'|common\/optional'/.test(readFileSync(path, 'utf8')),
);
// eslint-disable-next-line @typescript-eslint/no-require-imports
for (const path of dtoFiles) require(path);

type Target = { name: string; prototype: object } & (new () => object);
const byClass = getMetadataStorage()['validationMetadatas'] as Map<Target, ValidationMetadata[]>;
const dtoClasses = [...byClass.keys()].filter((target) => target.name !== 'EnvSchema');

function allRules(target: Target): ValidationMetadata[] {
  const rules: ValidationMetadata[] = [];
  for (let t: unknown = target; typeof t === 'function' && t !== Function.prototype; t = Object.getPrototypeOf(t)) {
    rules.push(...(byClass.get(t as Target) ?? []));
  }
  return rules;
}

function acceptsNull(target: Target, property: string): boolean {
  const instance = plainToInstance(target, { [property]: null });
  const errors = validateSync(instance, { whitelist: true, forbidNonWhitelisted: true, forbidUnknownValues: true });
  return !errors.some((error) => error.property === property);
}

describe('the null rule over every request DTO (decision 0041)', () => {
  it('finds the DTOs', () => {
    const names = dtoClasses.map((c) => c.name);
    expect(names).toEqual(
      expect.arrayContaining(['CreateWorkspaceDto', 'UpdateSamlSpDto', 'UpdateWebhookDto', 'AuditCheckpointsQueryDto']),
    );
  });

  it('no DTO uses a bare @IsOptional(), which lets null through every other rule', () => {
    const bare = dtoClasses.flatMap((target) =>
      (byClass.get(target) ?? []).filter((rule) => rule.name === 'isOptional').map((rule) => `${target.name}.${rule.propertyName}`),
    );
    expect(bare).toEqual([]);
  });

  it('a field accepts null only when it is declared @Optional({ nullable: true }), and its OpenAPI property says nullable', () => {
    const mismatches: string[] = [];
    for (const target of dtoClasses) {
      const rules = allRules(target);
      for (const property of new Set(rules.map((rule) => rule.propertyName))) {
        const declared = rules.some(
          (rule) =>
            rule.propertyName === property &&
            rule.type === 'conditionalValidation' &&
            (rule.context as Record<string, unknown> | undefined)?.[PRESENCE_CONTEXT] === 'nullable',
        );
        const accepted = acceptsNull(target, property);
        const documented =
          (Reflect.getMetadata(API_MODEL_PROPERTIES, target.prototype, property) as { nullable?: boolean } | undefined)?.nullable === true;
        if (accepted !== declared) mismatches.push(`${target.name}.${property}: accepts null ${accepted}, declared nullable ${declared}`);
        if (documented && !accepted) mismatches.push(`${target.name}.${property}: documented nullable but refuses null`);
      }
    }
    expect(mismatches).toEqual([]);
  });

  it('names the field when it refuses null', () => {
    const [error] = validateSync(plainToInstance(UpdateWebhookDto, { description: null }));
    expect(error.property).toBe('description');
    expect(Object.values(error.constraints ?? {})).toContain('description must not be null');
  });
});
