/**
 * One log line per /mcp request: request id, JSON-RPC method(s), tool, outcome, HTTP status and
 * duration. The line is written when the response has closed and every tool call it started has
 * ended, so a call cut short by a client that went away still reports how it ended. It logs the
 * path without the query string (the filter is logged in its validated form) and never a header,
 * so no key reaches the log.
 */
import { randomUUID } from "node:crypto";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "../log.js";
import type { CallOutcome } from "../mcp/server.js";
import type { McpRequestSample } from "../metrics/index.js";

export interface RequestRecord {
  reqId: string;
  rpc: { method: string; id?: RequestId; tool?: string }[];
  calls: { tool: string; outcome: CallOutcome; durationMs: number }[];
  /** Registers a starting tool call; the returned function ends it. */
  observeCall(tool: string): (outcome: CallOutcome) => void;
}

const REQUEST_ID_PATTERN = /^[\w.:-]{1,64}$/;

export function recordOf(res: Response): RequestRecord {
  return res.locals.record as RequestRecord;
}

function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}

/** `onEnd` receives each request as it is logged (the metrics count it). */
export function requestLog(
  logger: Logger,
  onEnd?: (sample: McpRequestSample) => void,
): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const given = req.headers["x-request-id"];
    const reqId =
      typeof given === "string" && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    let pending = 0;
    let closed = false;
    let written = false;
    let finished = false;

    function write(): void {
      if (written || !closed || pending > 0) return;
      written = true;
      const [first] = record.rpc;
      const refusal = res.locals.refusal as string | undefined;
      const filter = res.locals.filter as Record<string, string[]> | undefined;
      const durationMs = performance.now() - started;
      onEnd?.({
        rpc: record.rpc,
        calls: record.calls,
        refusal,
        status: res.statusCode,
        seconds: durationMs / 1000,
      });
      const outcome =
        refusal ??
        (record.calls.length > 0
          ? record.calls.map((c) => c.outcome).join(",")
          : res.statusCode < 400
            ? "ok"
            : "error");
      logger.info(
        {
          reqId,
          httpMethod: req.method,
          path: req.path,
          ...(filter && Object.keys(filter).length > 0 ? { filter } : {}),
          status: res.statusCode,
          ...(first ? { rpcMethod: first.method, rpcId: first.id } : {}),
          ...(first?.tool ? { tool: first.tool } : {}),
          ...(record.rpc.length > 1 ? { batch: record.rpc } : {}),
          outcome,
          ...(finished ? {} : { clientClosed: true }),
          durationMs: roundMs(durationMs),
        },
        "mcp request",
      );
    }

    const record: RequestRecord = {
      reqId,
      rpc: [],
      calls: [],
      observeCall(tool) {
        pending += 1;
        const callStarted = performance.now();
        let ended = false;
        return (outcome) => {
          if (ended) return;
          ended = true;
          pending -= 1;
          record.calls.push({
            tool,
            outcome,
            durationMs: roundMs(performance.now() - callStarted),
          });
          write();
        };
      },
    };
    res.locals.record = record;
    res.set("X-Request-Id", reqId);
    res.once("finish", () => {
      finished = true;
    });
    res.once("close", () => {
      closed = true;
      write();
    });
    next();
  };
}
