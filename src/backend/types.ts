/** Shapes of the REST interface as the backend client returns them (see DESIGN.md decisions). */

export type TaskStatus = "queued" | "running" | "succeeded" | "failed";

export const TERMINAL_STATUSES: readonly TaskStatus[] = ["succeeded", "failed"];

export interface ResultRecord {
  platform: string;
  resource: string;
  type: string;
  id: string | number | null;
  url: string | null;
  author: Record<string, unknown>;
  text: string | null;
  metrics: Record<string, unknown>;
  media: Record<string, unknown> | unknown[];
  published_at: string | null;
  [extra: string]: unknown;
}

export interface ResultsPage {
  items: ResultRecord[];
  next_cursor: string | null;
  has_more: boolean;
}

export interface SubmitResponse {
  task_id: string;
  status: TaskStatus;
}

export interface TaskRead {
  task_id: string;
  endpoint: string;
  status: TaskStatus;
  created_time: string;
  finished_time: string | null;
  result_count: number | null;
  results?: ResultsPage;
  error_message: string | null;
}

export interface TaskFile {
  file_type: string;
  public_url: string;
}

export interface TaskFiles {
  task_id: string;
  files: TaskFile[];
}

export interface Account {
  key_id: string;
  credits: { balance: number; used: number };
  limits: Record<string, unknown>;
}

export interface ErrorBody {
  error: { code: string; message: string; details?: unknown[] };
}
