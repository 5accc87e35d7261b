/**
 * GET /metrics in the Prometheus text format. Open like /healthz (what an in-cluster scraper
 * expects) unless a token is configured; then it takes `Authorization: Bearer <token>` only.
 * The labels hold no key, task id or client text either way (see labels.ts).
 */
import { createHash, timingSafeEqual } from "node:crypto";
import type { Request, RequestHandler, Response } from "express";
import type { Registry } from "prom-client";

const digest = (text: string) => createHash("sha256").update(text).digest();

export function scrapeHandler(registry: Registry, token: string | undefined): RequestHandler {
  const expected = token === undefined ? undefined : digest(token);
  return async (req: Request, res: Response) => {
    if (expected) {
      const given = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(req.headers.authorization ?? "")?.[1];
      // Digests of equal length, so the comparison takes the same time whatever was sent.
      if (given === undefined || !timingSafeEqual(digest(given), expected)) {
        res
          .status(401)
          .set("WWW-Authenticate", 'Bearer realm="svc-mcp metrics"')
          .json({
            error: { code: "unauthorized", message: "Send SVC_METRICS_TOKEN as a Bearer token" },
          });
        return;
      }
    }
    res.set("Content-Type", registry.contentType).set("Cache-Control", "no-store");
    res.send(await registry.metrics());
  };
}
