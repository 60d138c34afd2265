import { applyDecorators } from '@nestjs/common';
import { ApiPropertyOptional, type ApiPropertyOptions } from '@nestjs/swagger';
import { Type } from 'class-transformer';
import {
  ArrayMaxSize,
  IsArray,
  IsBoolean,
  IsInt,
  IsISO8601,
  IsObject,
  IsString,
  Max,
  MaxLength,
  Min,
  MinLength,
  ValidateNested,
} from 'class-validator';
import { QueryInt } from './integer-string';
import { Optional } from './optional';

/**
 * Field rules the request DTOs share, each one decorator (decision 0970). The rules are listed
 * bottom-up, the order a stack of decorators applies in, so the validation messages and the
 * OpenAPI schema (api-docs/validation-rules.ts reads the rules) are what the stacks gave.
 */

/** `limit` of a list read: 1 to `max` (100 unless said), `fallback` when left out (50 unless said), sent as a query string. */
export const PageLimit = (max = 100, fallback = 50) =>
  applyDecorators(Max(max), Min(1), IsInt(), QueryInt(), Optional(), ApiPropertyOptional({ minimum: 1, maximum: max, default: fallback }));

/** An optional object, validated as `type`. */
export const OptionalNested = (type: new () => object, doc: Omit<ApiPropertyOptions, 'type'> = {}) =>
  applyDecorators(
    Type(() => type),
    ValidateNested(),
    IsObject(),
    Optional(),
    ApiPropertyOptional({ type, ...doc } as ApiPropertyOptions),
  );

/** An optional string of at most `max` characters. */
export const OptionalText = (max: number, doc: ApiPropertyOptions = {}) =>
  applyDecorators(MaxLength(max), IsString(), Optional(), ApiPropertyOptional(doc));

/** An optional string of 1 to `max` characters. */
export const OptionalNonEmptyText = (max: number, doc: ApiPropertyOptions = {}) =>
  applyDecorators(MaxLength(max), MinLength(1), IsString(), Optional(), ApiPropertyOptional(doc));

/** An optional list of at most `items` strings of at most `max` characters each. */
export const OptionalTextList = (items: number, max: number, doc: ApiPropertyOptions) =>
  applyDecorators(
    MaxLength(max, { each: true }),
    IsString({ each: true }),
    ArrayMaxSize(items),
    IsArray(),
    Optional(),
    ApiPropertyOptional(doc),
  );

/** An optional ISO 8601 instant (strict: a date and a time), sent as a query string. */
export const OptionalInstant = (doc: ApiPropertyOptions = {}) =>
  applyDecorators(IsISO8601({ strict: true }), Optional(), ApiPropertyOptional(doc));

/** An optional boolean. */
export const OptionalFlag = (doc: ApiPropertyOptions = {}) => applyDecorators(IsBoolean(), Optional(), ApiPropertyOptional(doc));
