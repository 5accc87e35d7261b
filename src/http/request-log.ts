/**
 * One log line per /mcp request: request id, JSON-RPC method(s), tool, outcome, HTTP status and
 * duration. It logs the path without the query string (the selection filter is logged from its
 * parsed, validated form) and never a header, so no key reaches the log.
 */
import { randomUUID } from "node:crypto";
import type { RequestId } from "@modelcontextprotocol/sdk/types.js";
import type { NextFunction, Request, RequestHandler, Response } from "express";
import type { Logger } from "../log.js";
import type { CallReport } from "../mcp/server.js";

export interface RequestRecord {
  reqId: string;
  rpc: { method: string; id?: RequestId; tool?: string }[];
  calls: CallReport[];
}

const REQUEST_ID_PATTERN = /^[\w.:-]{1,64}$/;

export function recordOf(res: Response): RequestRecord {
  return res.locals.record as RequestRecord;
}

function outcomeOf(res: Response, record: RequestRecord): string {
  const refusal = res.locals.refusal as string | undefined;
  if (refusal) return refusal;
  if (!res.writableFinished) return "client_closed";
  if (record.calls.length > 0) return record.calls.map((c) => c.outcome).join(",");
  return res.statusCode < 400 ? "ok" : "error";
}

export function requestLog(logger: Logger): RequestHandler {
  return (req: Request, res: Response, next: NextFunction) => {
    const started = performance.now();
    const given = req.headers["x-request-id"];
    const reqId =
      typeof given === "string" && REQUEST_ID_PATTERN.test(given) ? given : randomUUID();
    const record: RequestRecord = { reqId, rpc: [], calls: [] };
    res.locals.record = record;
    res.set("X-Request-Id", reqId);
    res.once("close", () => {
      const [first] = record.rpc;
      logger.info(
        {
          reqId,
          httpMethod: req.method,
          path: req.path,
          ...(res.locals.filter && Object.keys(res.locals.filter).length > 0
            ? { filter: res.locals.filter }
            : {}),
          status: res.statusCode,
          ...(first ? { rpcMethod: first.method, rpcId: first.id } : {}),
          ...(first?.tool ? { tool: first.tool } : {}),
          ...(record.rpc.length > 1 ? { batch: record.rpc } : {}),
          outcome: outcomeOf(res, record),
          durationMs: Math.round((performance.now() - started) * 100) / 100,
        },
        "mcp request",
      );
    });
    next();
  };
}
