/**
 * One HTTP exchange over the client's single undici Agent: connect, headers and body timeouts,
 * a response size cap, and socket-level failures turned into typed errors. No retries here.
 */
import type { IncomingHttpHeaders } from "node:http";
import { Agent, request } from "undici";
import {
  AbortedError,
  type BackendError,
  ConnectionError,
  TimeoutError,
  UnexpectedResponseError,
} from "./errors.js";
import { NOT_SENT_CODES } from "./retry.js";

/** One HTTP exchange as it ended: what metrics count (each attempt of a retried read is one). */
export interface ExchangeReport {
  /** The route's template (e.g. `/v1/tasks/{task_id}`), never the path with its ids. */
  route: string;
  method: string;
  /** HTTP status of an answer read in full. */
  status?: number | undefined;
  /** The typed error's code when no full answer came back (`timeout`, `aborted`, …). */
  error?: string | undefined;
  seconds: number;
}

export interface TransportOptions {
  connectTimeoutMs: number;
  headersTimeoutMs: number;
  bodyTimeoutMs: number;
  maxResponseBytes: number;
  /** Called as each exchange ends. */
  onExchange?: ((report: ExchangeReport) => void) | undefined;
}

export interface TransportRequest {
  method: "GET" | "POST";
  /** Template of the path, for metrics; the default is "other". */
  route?: string | undefined;
  url: URL;
  headers: Record<string, string>;
  body?: string;
  signal?: AbortSignal | undefined;
}

export interface TransportResponse {
  status: number;
  headers: IncomingHttpHeaders;
  body: Buffer;
}

export interface Transport {
  send(req: TransportRequest): Promise<TransportResponse>;
  close(): Promise<void>;
}

const NETWORK_WORDS: Record<string, string> = {
  ECONNREFUSED: "connection refused",
  EAI_AGAIN: "DNS lookup failed",
  ENOTFOUND: "host not found",
  UND_ERR_CONNECT_TIMEOUT: "connect timed out",
  ECONNRESET: "connection reset",
  UND_ERR_SOCKET: "connection closed by the other side",
};

function networkCode(error: unknown): string | undefined {
  if (typeof error !== "object" || error === null) return undefined;
  const { code, cause, errors } = error as { code?: unknown; cause?: unknown; errors?: unknown };
  if (typeof code === "string") return code;
  if (Array.isArray(errors)) return networkCode(errors[0]);
  return cause === undefined ? undefined : networkCode(cause);
}

export function createTransport(options: TransportOptions): Transport {
  const agent = new Agent({
    connect: { timeout: options.connectTimeoutMs },
    headersTimeout: options.headersTimeoutMs,
    bodyTimeout: options.bodyTimeoutMs,
  });

  function toTypedError(error: unknown, req: TransportRequest, status?: number): BackendError {
    if (error instanceof UnexpectedResponseError) return error;
    const where = req.url.origin;
    if (req.signal?.aborted) {
      return new AbortedError({ code: "aborted", message: `Request to ${where} was cancelled` });
    }
    const code = networkCode(error);
    if (code === "UND_ERR_HEADERS_TIMEOUT") {
      return new TimeoutError({
        code: "timeout",
        phase: "headers",
        message: `No answer from ${where} within ${options.headersTimeoutMs} ms`,
        cause: error,
      });
    }
    if (code === "UND_ERR_BODY_TIMEOUT") {
      return new TimeoutError({
        code: "timeout",
        phase: "body",
        status,
        message: `The answer from ${where} stalled for more than ${options.bodyTimeoutMs} ms`,
        cause: error,
      });
    }
    const words = (code && NETWORK_WORDS[code]) ?? (error as Error)?.message ?? String(error);
    const prefix =
      code && NOT_SENT_CODES.has(code)
        ? `Backend unreachable at ${where}`
        : `Connection to ${where} failed`;
    return new ConnectionError({
      code: "connection_error",
      networkCode: code,
      status,
      message: `${prefix}: ${words}${code ? ` (${code})` : ""}`,
      cause: error,
    });
  }

  async function readCapped(
    res: Awaited<ReturnType<typeof request>>,
    req: TransportRequest,
  ): Promise<Buffer> {
    const tooLarge = () =>
      new UnexpectedResponseError({
        code: "response_too_large",
        status: res.statusCode,
        message: `The answer from ${req.url.origin} is larger than the ${options.maxResponseBytes}-byte cap`,
      });
    const declared = Number(res.headers["content-length"]);
    if (Number.isFinite(declared) && declared > options.maxResponseBytes) {
      res.body.destroy();
      throw tooLarge();
    }
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of res.body) {
      size += (chunk as Buffer).length;
      if (size > options.maxResponseBytes) {
        res.body.destroy();
        throw tooLarge();
      }
      chunks.push(chunk as Buffer);
    }
    return Buffer.concat(chunks);
  }

  async function exchange(req: TransportRequest): Promise<TransportResponse> {
    let res: Awaited<ReturnType<typeof request>>;
    try {
      res = await request(req.url, {
        dispatcher: agent,
        method: req.method,
        headers: req.headers,
        body: req.body ?? null,
        signal: req.signal ?? null,
      });
    } catch (error) {
      throw toTypedError(error, req);
    }
    try {
      const body = await readCapped(res, req);
      return { status: res.statusCode, headers: res.headers, body };
    } catch (error) {
      throw toTypedError(error, req, res.statusCode);
    }
  }

  async function send(req: TransportRequest): Promise<TransportResponse> {
    const report = options.onExchange;
    if (!report) return exchange(req);
    const started = performance.now();
    const ended = (outcome: { status?: number; error?: string }) =>
      report({
        route: req.route ?? "other",
        method: req.method,
        ...outcome,
        seconds: (performance.now() - started) / 1000,
      });
    try {
      const res = await exchange(req);
      ended({ status: res.status });
      return res;
    } catch (error) {
      ended({ error: (error as BackendError).code });
      throw error;
    }
  }

  return { send, close: () => agent.close() };
}
