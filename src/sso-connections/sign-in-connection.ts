import type { Response } from 'express';
import { isUuid } from '../common/ids';
import { renderErrorPage } from '../common/html/error-page';
import type { RequestMeta } from '../common/request-context';
import type { SsoConnection, SsoProtocol } from './entities/sso-connection.entity';
import type { SsoConnectionsRepository } from './sso-connections.repository';

/**
 * The connection a browser route names, of the protocol the route serves; otherwise the 404 page
 * is sent and null answered (an unknown id and another protocol's connection look the same).
 */
export async function connectionForPage(
  connections: SsoConnectionsRepository,
  id: string,
  protocol: SsoProtocol | null,
  res: Response,
  meta: RequestMeta,
): Promise<SsoConnection | null> {
  const connection = isUuid(id) ? await connections.byId(id) : null;
  if (connection && (protocol === null || connection.protocol === protocol)) return connection;
  sendNotFound(res, meta);
  return null;
}

export function sendNotFound(res: Response, meta: RequestMeta): void {
  res
    .status(404)
    .type('html')
    .send(renderErrorPage(404, 'Unknown sign-in link', 'This sign-in link does not name a connection of this service.', meta.requestId));
}
