'use strict';
// Preloaded into a service process (BENCH_NODE_OPTIONS="--require ./bench/lib/gc-trace-preload.js"; Node refuses
// --trace-gc-nvp in NODE_OPTIONS, V8 takes it at run time): one line per garbage collection on stdout (the
// harness's service.log), and every second a line with the requests this process has served, so that
// bench/gc-report.ts can put each worker's collector work per request beside the others' (decision 0186).
const v8 = require('node:v8');
const http = require('node:http');

v8.setFlagsFromString('--trace-gc-nvp');
let requests = 0;
const emit = http.Server.prototype.emit;
http.Server.prototype.emit = function countRequests(event, ...args) {
  if (event === 'request') requests++;
  return emit.call(this, event, ...args);
};
setInterval(() => process.stdout.write(`gc-report pid=${process.pid} t=${Date.now()} requests=${requests}\n`), 1000).unref();
