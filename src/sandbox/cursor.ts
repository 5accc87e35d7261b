/**
 * Page cursors: opaque to clients, tamper-evident for us. A cursor names its task and the offset
 * of the next record, signed with the sandbox's secret, so a forged cursor or one taken from
 * another task (or another sandbox) is refused instead of silently reading the wrong records.
 */
import { createHmac, timingSafeEqual } from "node:crypto";

const SIGNATURE_BYTES = 16;

export interface CursorCodec {
  encode(taskId: string, offset: number): string;
  /** The offset the cursor points at, or undefined when it is not a cursor of this task. */
  decode(taskId: string, cursor: string): number | undefined;
}

export function createCursorCodec(secret: Buffer): CursorCodec {
  const sign = (payload: string): Buffer =>
    createHmac("sha256", secret).update(`cursor:${payload}`).digest().subarray(0, SIGNATURE_BYTES);

  return {
    encode(taskId, offset) {
      const payload = `${taskId}:${offset}`;
      return `${Buffer.from(payload).toString("base64url")}.${sign(payload).toString("base64url")}`;
    },
    decode(taskId, cursor) {
      const [encodedPayload, encodedSignature, ...rest] = cursor.split(".");
      if (!encodedPayload || !encodedSignature || rest.length > 0) return undefined;
      const payload = Buffer.from(encodedPayload, "base64url").toString();
      const signature = Buffer.from(encodedSignature, "base64url");
      const expected = sign(payload);
      if (signature.length !== expected.length || !timingSafeEqual(signature, expected)) {
        return undefined;
      }
      const separator = payload.lastIndexOf(":");
      if (payload.slice(0, separator) !== taskId) return undefined;
      const offset = Number(payload.slice(separator + 1));
      return Number.isSafeInteger(offset) && offset >= 0 ? offset : undefined;
    },
  };
}
