/**
 * Who made a request, as events and audit rows record it: the request id, the client's address
 * and its user agent. Declared here, below src/common (which builds it from an Express request in
 * request-context.ts), because every domain event carries it.
 */
export interface RequestMeta {
  requestId: string;
  ip: string;
  userAgent: string;
}
