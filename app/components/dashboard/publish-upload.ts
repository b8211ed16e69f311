// The browser's side of publishing a build (routes/dashboard/admin/releases.ts is the Worker's):
// create a multipart upload, send the file's parts one by one with progress, then complete it, or
// abort it on any failure so R2 keeps no orphaned parts.
import { useRef, useState } from "react";
import { useRevalidator } from "react-router";
import type { ReleaseView } from "~/lib/downloads/releases.server";

const BASE = "/dashboard/admin/releases";
const PART_ATTEMPTS = 3;

export type Progress = { sent: number; total: number; part: number; parts: number };
export type Outcome = { ok: true; release: ReleaseView } | { ok: false; message: string };
type Ref = { optionId: string; version: string; key: string; uploadId: string };

class UploadError extends Error {
  constructor(
    message: string,
    readonly retry = false,
  ) {
    super(message);
  }
}

async function postJson<T>(step: string, body: unknown): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${BASE}/${step}`, { method: "POST", headers: { "Content-Type": "application/json" }, body: JSON.stringify(body) });
  } catch {
    throw new UploadError("The connection to the site failed. Check your network and try again.");
  }
  const answer = (await response.json().catch(() => null)) as (T & { error?: string }) | null;
  if (!response.ok || !answer) throw new UploadError(answer?.error ?? `The site answered ${response.status}.`);
  return answer;
}

/** One part through XMLHttpRequest, for its upload progress events. */
function sendPart(ref: Ref, partNumber: number, blob: Blob, onProgress: (loaded: number) => void, xhrs: Set<XMLHttpRequest>) {
  return new Promise<{ partNumber: number; etag: string }>((resolve, reject) => {
    const xhr = new XMLHttpRequest();
    xhrs.add(xhr);
    const query = new URLSearchParams({ ...ref, partNumber: String(partNumber) });
    xhr.open("POST", `${BASE}/part?${query}`);
    xhr.setRequestHeader("Content-Type", "application/octet-stream");
    xhr.upload.onprogress = (e) => onProgress(e.loaded);
    xhr.onload = () => {
      xhrs.delete(xhr);
      let body: { partNumber?: number; etag?: string; error?: string } | null = null;
      try {
        body = JSON.parse(xhr.responseText);
      } catch {
        // not JSON: reported below
      }
      if (xhr.status === 200 && body?.etag) resolve({ partNumber, etag: body.etag });
      else reject(new UploadError(body?.error ?? `Part ${partNumber}: the site answered ${xhr.status}.`, xhr.status >= 500));
    };
    xhr.onerror = () => {
      xhrs.delete(xhr);
      reject(new UploadError(`Part ${partNumber} could not be sent: the connection failed.`, true));
    };
    xhr.onabort = () => {
      xhrs.delete(xhr);
      reject(new UploadError("The upload was cancelled."));
    };
    xhr.send(blob);
  });
}

type Created = { key: string; uploadId: string; partBytes: number; parts: number };

/** The file's parts in order; a part that failed on the network or the server's side is sent again, up to PART_ATTEMPTS times. */
async function sendParts(
  ref: Ref,
  created: Created,
  file: File,
  cancelled: { current: boolean },
  xhrs: Set<XMLHttpRequest>,
  setProgress: (progress: Progress) => void,
) {
  const parts: { partNumber: number; etag: string }[] = [];
  let done = 0;
  for (let n = 1; n <= created.parts; n++) {
    const blob = file.slice((n - 1) * created.partBytes, Math.min(n * created.partBytes, file.size));
    for (let attempt = 1; ; attempt++) {
      if (cancelled.current) throw new UploadError("The upload was cancelled.");
      setProgress({ sent: done, total: file.size, part: n, parts: created.parts });
      try {
        parts.push(await sendPart(ref, n, blob, (loaded) => setProgress({ sent: done + loaded, total: file.size, part: n, parts: created.parts }), xhrs));
        break;
      } catch (error) {
        if (!(error instanceof UploadError && error.retry && attempt < PART_ATTEMPTS) || cancelled.current) throw error;
      }
    }
    done += blob.size;
  }
  return parts;
}

/** Publishing from the form's values; `onPublished` runs after a success, before the page's data reloads. */
export function useBuildUpload(onPublished: () => void) {
  const revalidator = useRevalidator();
  const [progress, setProgress] = useState<Progress | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const cancelled = useRef(false);
  const xhrs = useRef(new Set<XMLHttpRequest>());

  async function publish({ optionId, version, file }: { optionId: string; version: string; file: File | null }) {
    setOutcome(null);
    // The schemas (and zod) load with the first publish, not with the admin page (issue 31).
    const schemas = await import("~/lib/downloads/upload-schemas").catch(() => null);
    if (!schemas) return setOutcome({ ok: false, message: "The page could not load its checks: reload it and try again." });
    const parsed = schemas.createUploadSchema.safeParse({ optionId, version: version.trim(), size: file?.size ?? 0 });
    if (!file) return setOutcome({ ok: false, message: "Please choose the installer file." });
    if (!parsed.success) return setOutcome({ ok: false, message: parsed.error.issues[0]?.message ?? "Please check the form." });
    cancelled.current = false;
    setBusy(true);
    setProgress({ sent: 0, total: file.size, part: 0, parts: 0 });
    let ref: Ref | null = null;
    try {
      const created = await postJson<Created>("create", parsed.data);
      ref = { optionId: parsed.data.optionId, version: parsed.data.version, key: created.key, uploadId: created.uploadId };
      const parts = await sendParts(ref, created, file, cancelled, xhrs.current, setProgress);
      setProgress({ sent: file.size, total: file.size, part: created.parts, parts: created.parts });
      const { release } = await postJson<{ release: ReleaseView }>("complete", { ...ref, parts });
      setOutcome({ ok: true, release });
      onPublished();
      revalidator.revalidate();
    } catch (error) {
      if (ref) void postJson("abort", ref).catch(() => {});
      setOutcome({ ok: false, message: error instanceof Error ? error.message : "The upload failed." });
      setProgress(null);
    } finally {
      setBusy(false);
    }
  }

  function cancel() {
    cancelled.current = true;
    for (const xhr of xhrs.current) xhr.abort();
  }

  return { progress, busy, outcome, publish, cancel };
}
