import { mongoCommands, mongoConnectionString, tenantRoles, tenantUrlFromAdmin } from './mongodb-commands';

const PW = 'Abc_def-123456789012345678901234';

describe('MongoDB tenant commands', () => {
  it('creates a user with readWrite and dbAdmin on its own database only, never dbOwner', () => {
    const cmd = mongoCommands.createUser('u_shop_x1', PW, 'shop_x1', 20);
    expect(cmd).toEqual({
      createUser: 'u_shop_x1',
      pwd: PW,
      roles: [
        { role: 'readWrite', db: 'shop_x1' },
        { role: 'dbAdmin', db: 'shop_x1' },
      ],
      mechanisms: ['SCRAM-SHA-256'],
      customData: { managed: true, max_connections: 20 },
    });
    const roles = tenantRoles('shop_x1').map((r) => r.role);
    expect(roles).not.toContain('dbOwner');
    expect(roles).not.toContain('userAdmin');
    expect(tenantRoles('shop_x1').every((r) => r.db === 'shop_x1')).toBe(true);
  });

  it('converges an existing user with updateUser (a resumed job)', () => {
    const cmd = mongoCommands.updateUser('u_shop_x1', PW, 'shop_x1', 20);
    expect(cmd.updateUser).toBe('u_shop_x1');
    expect(cmd.roles).toEqual(tenantRoles('shop_x1'));
    // MongoDB reads the command from the first key; the rest states the same user a first run creates.
    expect(Object.keys(cmd)[0]).toBe('updateUser');
    const { createUser: _name, ...created } = mongoCommands.createUser('u_shop_x1', PW, 'shop_x1', 20);
    const { updateUser: _same, ...updated } = cmd;
    expect(updated).toEqual(created);
  });

  it('looks users up and counts connections by user and database', () => {
    expect(mongoCommands.usersInfo('u_a', 'a')).toEqual({ usersInfo: { user: 'u_a', db: 'a' } });
    expect(mongoCommands.dropUser('u_a')).toEqual({ dropUser: 'u_a' });
    const pipeline = mongoCommands.connectionsPipeline('u_a', 'a');
    expect(pipeline[0]).toHaveProperty('$currentOp.allUsers', true);
    expect(pipeline[1]).toEqual({ $match: { effectiveUsers: { $elemMatch: { user: 'u_a', db: 'a' } } } });
  });

  it('refuses names or passwords that could inject into a command', () => {
    expect(() => mongoCommands.createUser('u_a', PW, 'a.b', 1)).toThrow(/unsafe/);
    expect(() => mongoCommands.createUser('$where', PW, 'a', 1)).toThrow(/unsafe/);
    expect(() => mongoCommands.createUser('u_a', 'pw with spaces and @', 'a', 1)).toThrow(/password/);
  });

  it('builds a connection URL naming the database and its auth source', () => {
    const url = mongoConnectionString({ host: 'db.example.com', port: 27017, tls: false }, 'u_a', PW, 'a');
    expect(url).toBe(`mongodb://u_a:${PW}@db.example.com:27017/a?authSource=a`);
    const parsed = new URL(url);
    expect(parsed.password).toBe(PW);
    expect(parsed.pathname).toBe('/a');
    expect(mongoConnectionString({ host: 'h', port: 1, tls: true }, 'u_a', PW, 'a')).toContain('tls=true');
  });

  it('reaches the server as the tenant through the admin URL, replica-set lists and SRV included', () => {
    expect(tenantUrlFromAdmin('mongodb://root:secret@10.0.0.5:27017/admin?tls=true', 'u_a', PW, 'a')).toBe(
      `mongodb://u_a:${PW}@10.0.0.5:27017/a?tls=true&authSource=a`,
    );
    expect(tenantUrlFromAdmin('mongodb://root:x@h1:27017,h2:27017/?replicaSet=rs0&authSource=admin', 'u_a', PW, 'a')).toBe(
      `mongodb://u_a:${PW}@h1:27017,h2:27017/a?replicaSet=rs0&authSource=a`,
    );
    expect(tenantUrlFromAdmin('mongodb+srv://root:x@cluster.example.net', 'u_a', PW, 'a')).toBe(
      `mongodb+srv://u_a:${PW}@cluster.example.net/a?authSource=a`,
    );
    expect(() => tenantUrlFromAdmin('http://x', 'u_a', PW, 'a')).toThrow(/mongodb/);
  });
});
