// How a page reads the answer of POST /downloads/prepare: the download error texts (DOWNLOAD_MESSAGES).
import { DOWNLOAD_MESSAGES } from "./messages";

export type DownloadAnswer = { ok: true; url: string } | { ok: false; error: string };

/** Turns the prepare call's response into a link to open, or the text to show in the red box. */
export async function readDownloadAnswer(response: Pick<Response, "ok" | "status" | "statusText" | "json">): Promise<DownloadAnswer> {
  let body: unknown;
  try {
    body = await response.json();
  } catch {
    return { ok: false, error: `Server error: ${response.status} ${response.statusText}`.trim() };
  }
  const data = (body ?? {}) as { success?: unknown; download_url?: unknown; error?: unknown };
  if (!response.ok || data.success === false) {
    return { ok: false, error: typeof data.error === "string" && data.error ? data.error : DOWNLOAD_MESSAGES.failed };
  }
  if (data.success !== true || typeof data.download_url !== "string" || !data.download_url) return { ok: false, error: DOWNLOAD_MESSAGES.invalidResponse };
  return { ok: true, url: data.download_url };
}

/** A network failure (the request never got an answer). */
export const NETWORK_FAILURE: DownloadAnswer = { ok: false, error: DOWNLOAD_MESSAGES.failedContactSupport };
