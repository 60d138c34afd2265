import { applyDecorators, Get, Header, HttpCode, Patch, Post, Put, type Type } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import { type ErrorSpec, Errors, Returns, ReturnsText } from './decorators';
import type { NamedSchema } from './response-schema';

/**
 * Composite route decorators for JSON routes (decision 0975): each is the verb and path, the success
 * answer and the route's errors in one line, so what differs between two routes (the schema, the
 * answer, the errors of the resource) is what the route shows. The controller keeps its Doc and its
 * parameters. A route that answers 204 is NoContentRoute (decision 0971).
 */

/** The success body: a named schema (src/api-docs/response-schema.ts), or a response DTO class. */
export type SuccessBody = NamedSchema<unknown> | Type<unknown>;

/** The success answer: its description, or the description with an example / headers. */
export type Answer = string | ({ description: string } & NonNullable<Parameters<typeof Returns>[3]>);

function answered(status: number, body: SuccessBody, answer: Answer, list = false) {
  const { description, ...options } = typeof answer === 'string' ? { description: answer } : answer;
  if (typeof body === 'function') return ApiResponse({ status, description, type: body });
  return Returns(status, body, description, { ...options, list });
}

/** An error of a browser page, answered as the HTML error page: [status, when]. */
export type PageErrorSpec = [status: number, when: string];

/** The errors of a route a browser navigates to, each documented as the HTML error page. */
export const PageErrors = (...errors: PageErrorSpec[]) =>
  applyDecorators(...errors.map(([status, when]) => ReturnsText(status, 'text/html', `HTML error page: ${when}`)));

const errorsOf = (errors: ErrorSpec[]) => (errors.length > 0 ? [Errors(...errors)] : []);

/** A workspace id the caller is not a member of: the 404 of a missing workspace, never a 403 across tenants. */
export const NOT_A_MEMBER: ErrorSpec = [404, 'not_found', 'No such workspace, or the caller is not a member of it'];

/** The validation of a route's query DTO. */
export const BAD_QUERY: ErrorSpec = [400, 'validation_failed', 'A query parameter breaks its rule (details names it)'];

/** The 404 of a developer resource named by id: a missing one and another workspace's answer the same. */
export const noSuch = (kind: string): ErrorSpec => [404, 'not_found', `No such ${kind} in a workspace of the caller`];

/** `GET path`: one resource, or a page of them. */
export const ReadRoute = (path: string, body: SuccessBody, answer: Answer, ...errors: ErrorSpec[]) =>
  applyDecorators(answered(200, body, answer), ...errorsOf(errors), Get(path));

/** `GET path` of a public document that clients may keep for five minutes (metadata, configuration, keys). */
export const PublicDocumentRoute = (path: string, body: SuccessBody, answer: Answer) =>
  applyDecorators(answered(200, body, answer), Get(path), Header('Cache-Control', 'public, max-age=300'));

/** `GET path` answering `{results: [...]}`. */
export const ListRoute = (path: string, body: NamedSchema<unknown>, answer: Answer, ...errors: ErrorSpec[]) =>
  applyDecorators(answered(200, body, answer, true), ...errorsOf(errors), Get(path));

/** `POST path` that makes something new: 201 with it. */
export const CreateRoute = (path: string, body: SuccessBody, answer: Answer, ...errors: ErrorSpec[]) =>
  applyDecorators(answered(201, body, answer), ...errorsOf(errors), Post(path));

/** `PATCH path`: fields not sent are kept; 200 with the resource as it now is. */
export const UpdateRoute = (path: string, body: SuccessBody, answer: Answer, ...errors: ErrorSpec[]) =>
  applyDecorators(answered(200, body, answer), ...errorsOf(errors), Patch(path));

/** `PUT path`: the resource, or a part of it, replaced; 200 with the resource as it now is. */
export const ReplaceRoute = (path: string, body: SuccessBody, answer: Answer, ...errors: ErrorSpec[]) =>
  applyDecorators(answered(200, body, answer), ...errorsOf(errors), Put(path));

/**
 * `POST path` that acts rather than creates (rotate a secret, confirm, verify, retry): 200 with the
 * result, or 202 when the work is queued and the answer does not wait for it.
 */
export const ActionRoute = (path: string, status: 200 | 202, body: SuccessBody, answer: Answer, ...errors: ErrorSpec[]) =>
  applyDecorators(answered(status, body, answer), ...errorsOf(errors), Post(path), HttpCode(status));

/**
 * `POST /developer/<resources>`: a resource made in the workspace its body names (`workspace_id`),
 * 201 with it; a workspace the caller is not a member of is the 404 NOT_A_MEMBER.
 */
export const DeveloperCreate = (body: SuccessBody, answer: Answer, ...errors: ErrorSpec[]) =>
  CreateRoute('', body, answer, NOT_A_MEMBER, ...errors);

/** `GET /developer/<resources>?workspace_id=`: the workspace's resources as `{results: [...]}`. */
export const DeveloperList = (body: NamedSchema<unknown>, answer: Answer) => ListRoute('', body, answer, BAD_QUERY, NOT_A_MEMBER);
