import { applyDecorators, Controller } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { Auth } from './auth.decorator';

/**
 * A controller of the developer API: its path, its OpenAPI tag, and developer authentication (the
 * dashboard's session cookie or a `dat_` bearer token) on every route (decision 0975).
 */
export const DeveloperApi = (path: string, tag: string) => applyDecorators(ApiTags(tag), Controller(path), Auth('developer'));
