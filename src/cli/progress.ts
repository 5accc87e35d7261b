/**
 * A one-line progress indicator on stderr while a task is awaited: spinner, status, elapsed time.
 * Drawn only when stderr is a terminal, so logs and pipes never see control characters.
 */
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];
const FRAME_MS = 100;

export interface Progress {
  update(status: string): void;
  stop(): void;
}

export function createProgress(
  stream: NodeJS.WritableStream & { isTTY?: boolean },
  taskId: string,
): Progress {
  if (stream.isTTY !== true) return { update() {}, stop() {} };
  const started = Date.now();
  let status = "submitted";
  let frame = 0;
  const draw = () => {
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    stream.write(`\r\x1b[2K${FRAMES[frame % FRAMES.length]} task ${taskId} ${status} ${seconds} s`);
    frame += 1;
  };
  const timer = setInterval(draw, FRAME_MS);
  timer.unref();
  draw();
  return {
    update(next) {
      status = next;
      draw();
    },
    stop() {
      clearInterval(timer);
      stream.write("\r\x1b[2K");
    },
  };
}
