#!/usr/bin/env node
// A correct single-instance Redis lock as a lockcheck worker in Node.js, with
// no package beyond Node itself: a small RESP client over a socket.
//
// acquire: SET key owner NX PX ttl and INCR key:fence, in one script (the
//          fencing token); then what is left of the lease is computed, and a
//          grant that arrived too late is given back instead of used
//          (reported as valid_ms, docs/protocol.md);
// release: compare-and-delete, so a client never deletes a lock someone else holds.
// Run it:  lockcheck run examples/node/redis-node-safe.json
"use strict";

const net = require("net");
const readline = require("readline");

const ACQUIRE = `
if redis.call('SET', KEYS[1], ARGV[1], 'NX', 'PX', ARGV[2]) then
  return redis.call('INCR', KEYS[2])
end
return false
`;
const RELEASE = `
if redis.call('GET', KEYS[1]) == ARGV[1] then
  return redis.call('DEL', KEYS[1])
end
return 0
`;

/** One Redis connection: commands in order, one reply each (RESP2). */
class Redis {
  constructor(host, port, timeoutMs) {
    this.host = host;
    this.port = port;
    this.timeoutMs = timeoutMs;
    this.socket = null;
    this.buffer = Buffer.alloc(0);
    this.waiting = null;
  }

  connect() {
    return new Promise((resolve, reject) => {
      const socket = net.createConnection({ host: this.host, port: this.port });
      const fail = (error) => { socket.destroy(); reject(Object.assign(error, { refused: true })); };
      socket.setTimeout(this.timeoutMs, () => fail(new Error("connect timeout")));
      socket.once("error", fail);
      socket.once("connect", () => {
        socket.removeListener("error", fail);
        socket.setTimeout(0);
        socket.on("data", (chunk) => { this.buffer = Buffer.concat([this.buffer, chunk]); this.parse(); });
        socket.on("error", (error) => this.broken(error));
        socket.on("close", () => this.broken(new Error("connection closed")));
        this.socket = socket;
        resolve();
      });
    });
  }

  broken(error) {
    this.socket = null;
    if (this.waiting) { const w = this.waiting; this.waiting = null; clearTimeout(w.timer); w.reject(error); }
  }

  /** Parses one reply from the buffer, or returns undefined when it is not complete. */
  reply(at) {
    const end = this.buffer.indexOf("\r\n", at);
    if (end < 0) return undefined;
    const kind = String.fromCharCode(this.buffer[at]);
    const line = this.buffer.toString("utf8", at + 1, end);
    if (kind === "+") return { value: line, next: end + 2 };
    if (kind === "-") return { value: new Error(line), next: end + 2 };
    if (kind === ":") return { value: Number(line), next: end + 2 };
    if (kind === "$") {
      const length = Number(line);
      if (length < 0) return { value: null, next: end + 2 };
      if (this.buffer.length < end + 2 + length + 2) return undefined;
      return { value: this.buffer.toString("utf8", end + 2, end + 2 + length), next: end + 2 + length + 2 };
    }
    if (kind === "*") {
      const count = Number(line);
      const items = [];
      let next = end + 2;
      for (let i = 0; i < count; i++) {
        const item = this.reply(next);
        if (item === undefined) return undefined;
        items.push(item.value);
        next = item.next;
      }
      return { value: count < 0 ? null : items, next };
    }
    return { value: new Error("unknown reply type " + kind), next: end + 2 };
  }

  parse() {
    if (!this.waiting) return;
    const parsed = this.reply(0);
    if (parsed === undefined) return;
    this.buffer = this.buffer.subarray(parsed.next);
    const w = this.waiting;
    this.waiting = null;
    clearTimeout(w.timer);
    w.resolve(parsed.value);
  }

  /** Sends one command; resolves with its reply (an Error value for an error reply). */
  async command(...args) {
    if (!this.socket) await this.connect();
    const parts = args.map((a) => String(a));
    let text = `*${parts.length}\r\n`;
    for (const p of parts) text += `$${Buffer.byteLength(p)}\r\n${p}\r\n`;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting = null;
        if (this.socket) this.socket.destroy();
        this.socket = null;
        reject(new Error("timeout"));
      }, this.timeoutMs);
      this.waiting = { resolve, reject, timer };
      this.socket.write(text);
    });
  }
}

class SafeRedisLock {
  constructor(init) {
    const [host, port] = init.nodes[0].split(/:(?=[0-9]+$)/);
    this.redis = new Redis(host, Number(port), init.server_timeout_ms || 1000);
    this.auth = init.auth || {};
    this.name = "node SET NX PX, compare-and-delete release";
    this.supports = ["fencing"];
  }

  /** Runs a script: [result] or [undefined, reply] for a fail/info answer. */
  async call(script, keys, args) {
    const fresh = !this.redis.socket;
    try {
      if (fresh && this.auth.password) {
        const ok = await this.redis.command("AUTH", this.auth.user || "default", this.auth.password);
        if (ok instanceof Error) return [undefined, fail("auth: " + ok.message)];
      }
      const result = await this.redis.command("EVAL", script, keys.length, ...keys, ...args);
      if (result instanceof Error) return [undefined, fail("redis: " + result.message)];
      return [result];
    } catch (error) {
      // A connection never made sent nothing; a broken one may have sent the command.
      return [undefined, error.refused ? fail("not executed: " + error.message) : info(error.message)];
    }
  }

  async acquire(key, owner, ttlMs) {
    const started = process.hrtime.bigint();
    const [token, error] = await this.call(ACQUIRE, [key, key + ":fence"], [owner, ttlMs]);
    if (error) return error;
    if (token === null) return fail("held");
    const validMs = Math.floor(ttlMs - Number(process.hrtime.bigint() - started) / 1e6);
    if (validMs <= 0) {  // the grant came too late to use: give it back rather than act on it
      await this.call(RELEASE, [key], [owner]);
      return fail("validity expired while acquiring");
    }
    return { type: "ok", token, valid_ms: validMs };
  }

  async release(key, owner) {
    const [deleted, error] = await this.call(RELEASE, [key], [owner]);
    if (error) return error;
    return deleted === 1 ? { type: "ok" } : fail("not-owner");
  }
}

function fail(error) { return { type: "fail", error }; }
function info(error) { return { type: "info", error }; }

async function answer(client, request) {
  if (request.f === "read" || request.f === "write") return { type: "ok" };  // checkpoints: answering is the point
  if (request.f === "acquire") return client.acquire(request.key, request.owner, request.ttl_ms);
  if (request.f === "release") return client.release(request.key, request.owner);
  return fail("unsupported op " + request.f);
}

async function serve() {
  const send = (reply) => process.stdout.write(JSON.stringify(reply) + "\n");
  const lines = readline.createInterface({ input: process.stdin, terminal: false });
  let client = null;
  for await (const line of lines) {
    if (!line.trim()) continue;
    let request;
    try {
      request = JSON.parse(line);
    } catch (error) {
      send({ id: -1, ...fail("bad request: " + error.message) });
      continue;
    }
    if (!client) {
      if (request.f !== "init" || request.protocol !== 1) {
        send({ id: 0, ...fail("expected init of protocol 1") });
        process.exit(254);
      }
      client = new SafeRedisLock(request);
      send({ id: 0, type: "ok", protocol: 1, client: client.name, supports: client.supports });
      continue;
    }
    send({ id: request.id, ...(await answer(client, request)) });
  }
  process.exit(0);
}

serve();
