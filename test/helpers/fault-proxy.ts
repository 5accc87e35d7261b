/**
 * A programmable fault proxy for tests: an HTTP server on 127.0.0.1 (port 0) that forwards every
 * request to a target (the sandbox) unless a rule for that request's route says otherwise. A rule
 * answers an error status, answers late, resets or closes the connection, never answers, or stalls;
 * `forward: true` makes it act after the target has received (and acted on) the request — the
 * nasty case for a submit, where the task exists but the client never learns it. The proxy can
 * also go down (connections refused) and come back on the same port. It records every request.
 */
import {
  Agent,
  createServer,
  type IncomingHttpHeaders,
  request,
  type ServerResponse,
} from "node:http";
import type { AddressInfo, Socket } from "node:net";

/** What a request is, by method and path, in the REST interface's terms. */
export type Route = "submit" | "task" | "files" | "account" | "other";

export type Fault =
  /** Answers `status` with `body` (default: the documented JSON error body). */
  | { kind: "status"; status: number; forward?: boolean; body?: string; contentType?: string }
  /** Forwards, then holds the target's answer for `ms`. */
  | { kind: "delay"; ms: number }
  /** Resets the connection (TCP RST) without answering. */
  | { kind: "reset"; forward?: boolean }
  /** Closes the connection (TCP FIN) without answering. */
  | { kind: "drop"; forward?: boolean }
  /** Never answers; the client's timeout (or its going away) ends the exchange. */
  | { kind: "hang"; forward?: boolean }
  /** Forwards, then sends the status line, the headers and half of the body, and nothing more. */
  | { kind: "stall" };

export interface ProxiedRequest {
  route: Route;
  method: string;
  path: string;
  /** The fault applied, or "pass" when the target's answer was relayed as is. */
  fault: Fault["kind"] | "pass";
  /** The target received the request. */
  forwarded: boolean;
}

export interface InjectOptions {
  /** Applies to this many matching requests, then the route passes again (default: all). */
  times?: number;
}

export interface FaultProxy {
  url: string;
  /** The first rule with uses left whose route matches a request decides what happens to it. */
  inject(route: Route, fault: Fault, options?: InjectOptions): void;
  /** Removes every rule: all requests pass from now on (requests already held stay held). */
  clear(): void;
  /** Every request received, in order. */
  readonly requests: readonly ProxiedRequest[];
  count(route: Route, fault?: ProxiedRequest["fault"]): number;
  /** Client connections open now (kept-alive, or held by a fault). */
  openConnections(): number;
  /** Resolves once `count(route, fault)` reaches `n`; rejects after `timeoutMs`. */
  waitFor(
    route: Route,
    n: number,
    fault?: ProxiedRequest["fault"],
    timeoutMs?: number,
  ): Promise<void>;
  /** Stops listening and resets every open connection: new connections are refused. */
  down(): Promise<void>;
  /** Listens again on the same port. */
  up(): Promise<void>;
  close(): Promise<void>;
}

interface Rule {
  route: Route;
  fault: Fault;
  remaining: number;
}

interface Answer {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

const HOP_BY_HOP = new Set([
  "connection",
  "keep-alive",
  "proxy-connection",
  "te",
  "trailer",
  "transfer-encoding",
  "upgrade",
  "content-length",
]);

const DEFAULT_ERROR_BODY = JSON.stringify({
  error: { code: "internal", message: "The service is temporarily unavailable" },
});

export function routeOf(method: string, path: string): Route {
  const pathname = path.split("?")[0] ?? "";
  if (method === "POST" && /^\/v1\/[^/]+\/[^/]+$/.test(pathname)) return "submit";
  if (method !== "GET") return "other";
  if (/^\/v1\/tasks\/[^/]+\/files$/.test(pathname)) return "files";
  if (/^\/v1\/tasks\/[^/]+$/.test(pathname)) return "task";
  if (pathname === "/v1/account") return "account";
  return "other";
}

function endToEnd(headers: IncomingHttpHeaders): IncomingHttpHeaders {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name.toLowerCase())),
  );
}

function readBody(stream: NodeJS.ReadableStream): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    stream.on("data", (chunk: Buffer) => chunks.push(chunk));
    stream.on("end", () => resolve(Buffer.concat(chunks)));
    stream.on("error", reject);
  });
}

/** Ends the connection the way the fault says; a hang leaves it open, unanswered. */
function hangUp(socket: Socket, fault: Fault): void {
  if (fault.kind === "reset") socket.resetAndDestroy();
  if (fault.kind === "drop") socket.destroy();
}

export async function startFaultProxy(target: string): Promise<FaultProxy> {
  const agent = new Agent({ keepAlive: true });
  const sockets = new Set<Socket>();
  const timers = new Set<NodeJS.Timeout>();
  const requests: ProxiedRequest[] = [];
  let rules: Rule[] = [];

  function take(route: Route): Fault | undefined {
    const rule = rules.find((r) => r.route === route && r.remaining > 0);
    if (rule) rule.remaining -= 1;
    return rule?.fault;
  }

  function forward(
    method: string,
    path: string,
    headers: IncomingHttpHeaders,
    body: Buffer,
  ): Promise<Answer> {
    return new Promise((resolve, reject) => {
      const out = request(
        new URL(path, target),
        { method, agent, headers: { ...endToEnd(headers), "content-length": body.length } },
        (res) => {
          readBody(res).then(
            (answer) =>
              resolve({ status: res.statusCode ?? 502, headers: res.headers, body: answer }),
            reject,
          );
        },
      );
      out.on("error", reject);
      out.end(body);
    });
  }

  function relay(res: ServerResponse, answer: Answer, fault: Fault | undefined): void {
    const headers = { ...endToEnd(answer.headers), "content-length": String(answer.body.length) };
    if (fault?.kind === "stall") {
      res.writeHead(answer.status, headers);
      res.write(answer.body.subarray(0, Math.floor(answer.body.length / 2)));
      return;
    }
    const send = () => {
      if (!res.destroyed) res.writeHead(answer.status, headers).end(answer.body);
    };
    if (fault?.kind !== "delay") {
      send();
      return;
    }
    const timer = setTimeout(() => {
      timers.delete(timer);
      send();
    }, fault.ms);
    timers.add(timer);
  }

  const server = createServer(async (req, res) => {
    const method = req.method ?? "GET";
    const path = req.url ?? "/";
    const route = routeOf(method, path);
    const fault = take(route);
    const record: ProxiedRequest = {
      route,
      method,
      path,
      fault: fault?.kind ?? "pass",
      forwarded: false,
    };
    requests.push(record);
    const reachesTarget =
      fault === undefined ||
      fault.kind === "delay" ||
      fault.kind === "stall" ||
      fault.forward === true;
    if (fault && !reachesTarget && fault.kind !== "status") {
      hangUp(req.socket, fault);
      return;
    }
    let answer: Answer | undefined;
    try {
      const body = await readBody(req);
      if (reachesTarget) {
        answer = await forward(method, path, req.headers, body);
        record.forwarded = true;
      }
    } catch {
      if (!res.headersSent && !res.destroyed) res.writeHead(502).end();
      return;
    }
    if (res.destroyed) return;
    if (fault?.kind === "status") {
      res.writeHead(fault.status, { "content-type": fault.contentType ?? "application/json" });
      res.end(fault.body ?? DEFAULT_ERROR_BODY);
    } else if (fault === undefined || fault.kind === "delay" || fault.kind === "stall") {
      relay(res, answer as Answer, fault);
    } else {
      hangUp(req.socket, fault);
    }
  });
  server.on("connection", (socket: Socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
  });

  const listen = (port: number) =>
    new Promise<void>((resolve, reject) => {
      server.once("error", reject);
      server.listen(port, "127.0.0.1", () => {
        server.off("error", reject);
        resolve();
      });
    });
  await listen(0);
  const { port } = server.address() as AddressInfo;

  const count = (route: Route, fault?: ProxiedRequest["fault"]) =>
    requests.filter((r) => r.route === route && (fault === undefined || r.fault === fault)).length;

  async function down(): Promise<void> {
    if (!server.listening) return;
    const closed = new Promise<void>((resolve) => server.close(() => resolve()));
    for (const socket of sockets) socket.resetAndDestroy();
    await closed;
  }

  return {
    url: `http://127.0.0.1:${port}`,
    inject(route, fault, options = {}) {
      rules.push({ route, fault, remaining: options.times ?? Number.POSITIVE_INFINITY });
    },
    clear() {
      rules = [];
    },
    requests,
    count,
    openConnections: () => sockets.size,
    async waitFor(route, n, fault, timeoutMs = 10_000) {
      const deadline = Date.now() + timeoutMs;
      while (count(route, fault) < n) {
        if (Date.now() > deadline) {
          throw new Error(`the proxy saw ${count(route, fault)} of ${n} ${route} requests in time`);
        }
        await new Promise((resolve) => setTimeout(resolve, 10));
      }
    },
    down,
    up: () => (server.listening ? Promise.resolve() : listen(port)),
    async close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
      await down();
      agent.destroy();
    },
  };
}
