// The baseline svc-mcp is compared with: the least a stateless MCP pass-through built on the same
// SDK does for svc_get_task. Express with express.json(), per POST a low-level `Server` and a
// `StreamableHTTPServerTransport` (SSE answers, as svc-mcp sends), one tools/call handler that
// forwards GET /v1/tasks/{id}?limit= over one undici Agent with the caller's Authorization header
// and returns the body as text. No auth check, no validation, no shaping, no logging. One Ajv
// instance is shared by every Server (as svc-mcp does), so the baseline is not slowed by building
// one per request.
import { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { StreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/streamableHttp.js";
import { CallToolRequestSchema } from "@modelcontextprotocol/sdk/types.js";
import { AjvJsonSchemaValidator } from "@modelcontextprotocol/sdk/validation/ajv";
import express from "express";
import { Agent, request } from "undici";

export async function startBareServer(backendUrl, listen) {
  const dispatcher = new Agent();
  const jsonSchemaValidator = new AjvJsonSchemaValidator();
  const app = express();
  app.use(express.json());
  app.post("/mcp", async (req, res) => {
    const server = new Server(
      { name: "bare", version: "0.0.0" },
      { capabilities: { tools: {} }, jsonSchemaValidator },
    );
    server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
      const { task_id, limit = 20 } = params.arguments ?? {};
      const answer = await request(
        `${backendUrl}/v1/tasks/${encodeURIComponent(task_id)}?limit=${limit}`,
        { dispatcher, headers: { authorization: req.headers.authorization } },
      );
      return { content: [{ type: "text", text: await answer.body.text() }] };
    });
    const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
    res.on("close", () => void server.close());
    await server.connect(transport);
    await transport.handleRequest(req, res, req.body);
  });
  return listen(app, () => dispatcher.close());
}
