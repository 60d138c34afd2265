export { GROUP_SCHEMA, USER_SCHEMA } from './filter/attributes';
export { PATCH_OP_SCHEMA } from './patch/patch-op';

export const LIST_RESPONSE_SCHEMA = 'urn:ietf:params:scim:api:messages:2.0:ListResponse';
export const ENTERPRISE_USER_SCHEMA = 'urn:ietf:params:scim:schemas:extension:enterprise:2.0:User';
export const SCIM_CONTENT_TYPE = 'application/scim+json';
export const SCIM_BASE_PATH = '/scim/v2';
