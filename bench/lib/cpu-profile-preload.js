'use strict';
// Preloaded into a service process (NODE_OPTIONS=--require, which refuses --cpu-prof) by `bench/saml.ts --cpu-prof`:
// profiles the main thread from start to exit and writes a .cpuprofile into CPU_PROFILE_DIR.
const { Session } = require('node:inspector');
const { mkdirSync, writeFileSync } = require('node:fs');
const { join } = require('node:path');
const dir = process.env.CPU_PROFILE_DIR;
if (dir) {
  const session = new Session();
  session.connect();
  session.post('Profiler.enable');
  session.post('Profiler.start');
  let written = false;
  const write = () => {
    if (written) return;
    written = true;
    session.post('Profiler.stop', (err, result) => {
      if (err) return;
      mkdirSync(dir, { recursive: true });
      writeFileSync(join(dir, `CPU.${process.pid}.cpuprofile`), JSON.stringify(result.profile));
    });
  };
  // The service re-raises SIGTERM after its shutdown hooks and dies of it, without an 'exit' event: write on the
  // signal (a one-time listener, so the re-raised signal still ends the process).
  process.once('SIGTERM', write);
  process.once('SIGINT', write);
  process.once('exit', write);
}
