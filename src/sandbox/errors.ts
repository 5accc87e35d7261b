import type { ErrorBody } from "../backend/types.js";
import type { Violation } from "../catalog/types.js";

export type SandboxErrorCode =
  | "invalid_json"
  | "invalid_cursor"
  | "invalid_query"
  | "unauthorized"
  | "insufficient_credits"
  | "endpoint_not_found"
  | "task_not_found"
  | "file_not_found"
  | "task_not_ready"
  | "payload_too_large"
  | "unsupported_media_type"
  | "invalid_input"
  | "rate_limited"
  | "internal";

/** An answer the sandbox gives on purpose; routes throw it and one handler renders it. */
export class SandboxError extends Error {
  constructor(
    readonly status: number,
    readonly code: SandboxErrorCode,
    message: string,
    readonly details?: Violation[],
    readonly headers: Record<string, string> = {},
  ) {
    super(message);
    this.name = "SandboxError";
  }

  body(): ErrorBody {
    const error: ErrorBody["error"] = { code: this.code, message: this.message };
    if (this.details) error.details = this.details;
    return { error };
  }
}

export function taskNotFound(taskId: string): SandboxError {
  const shown = taskId.length > 80 ? `${taskId.slice(0, 80)}...` : taskId;
  return new SandboxError(404, "task_not_found", `no task with id "${shown}"`);
}
