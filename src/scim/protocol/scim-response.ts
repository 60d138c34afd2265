import { Header } from '@nestjs/common';
import { SCIM_CONTENT_TYPE } from '../scim.constants';

/**
 * Every SCIM response is application/scim+json (RFC 7644 §3.1). A handler decorator rather
 * than an interceptor: Nest then builds no rxjs pipeline per request. Errors get the type
 * from the exception filter.
 */
export const ScimJson = () => Header('Content-Type', `${SCIM_CONTENT_TYPE}; charset=utf-8`);
