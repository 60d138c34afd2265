import {
  type ConnectionDetails,
  type EngineName,
  type EngineSettings,
  EngineUnavailableError,
  type TenantDatabase,
} from './database-engine';

/**
 * What every engine does the same way with its admin connection: the engine is available when it
 * has an admin URL, makes one admin client (a pool, a connection) on first use and closes it in
 * close(); without an admin URL every admin step fails with EngineUnavailableError. Each engine
 * says only how its client is opened and closed. A tenant is told the public address, never the
 * admin one.
 */
export abstract class AdminConnectedEngine<Client, Settings extends EngineSettings = EngineSettings> {
  abstract readonly engine: EngineName;
  private adminClient?: Client;

  constructor(protected readonly settings: Settings) {}

  isAvailable(): boolean {
    return Boolean(this.settings.adminUrl);
  }

  async close(): Promise<void> {
    const client = this.adminClient;
    this.adminClient = undefined;
    if (client !== undefined) await this.closeAdmin(client);
  }

  /** What a tenant is given: the public address, its own credentials, and the engine's way to connect. */
  protected detailsFor(db: TenantDatabase, how: Pick<ConnectionDetails, 'database' | 'connection_string' | 'ssl_mode'>): ConnectionDetails {
    const { publicHost: host, publicPort: port } = this.settings;
    const { database, connection_string, ssl_mode } = how;
    return { host, port, database, username: db.username, password: db.password, connection_string, ssl_mode };
  }

  /** The admin client, made on first use. */
  protected admin(): Client {
    if (!this.settings.adminUrl) throw new EngineUnavailableError(this.engine);
    this.adminClient ??= this.openAdmin(this.settings.adminUrl);
    return this.adminClient;
  }

  protected abstract openAdmin(adminUrl: string): Client;
  protected abstract closeAdmin(client: Client): Promise<void>;
}
