// The floor of a SCIM read by id on this machine: `node:http` and `pg`, no framework, the same row of
// `end_users` the service reads (by id within the workspace), answered as JSON. Plain JavaScript so that
// bench/instructions.ts can start it without a build. PORT, DATABASE_URL and WORKSPACE_ID from the environment.
const { createServer } = require('node:http');
const { Pool } = require('pg');

const pool = new Pool({ connectionString: process.env.DATABASE_URL, max: 10 });
const workspaceId = process.env.WORKSPACE_ID;
const text =
  'SELECT id, email, first_name, last_name, is_active, created_at, updated_at FROM end_users WHERE workspace_id = $1 AND id = $2';
createServer((req, res) => {
  const id = (req.url || '').slice('/Users/'.length);
  pool.query({ name: 'user', text, values: [workspaceId, id] }).then(
    ({ rows }) => {
      if (rows.length === 0) return void res.writeHead(404).end();
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(rows[0]));
    },
    () => res.writeHead(500).end(),
  );
}).listen(Number(process.env.PORT), '127.0.0.1');
