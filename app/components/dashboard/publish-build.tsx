import { type FormEvent, useId, useRef, useState } from "react";
import { useRevalidator } from "react-router";
import { DOWNLOAD } from "~/lib/constants";
import type { ReleaseView } from "~/lib/downloads/releases.server";
import { DOWNLOAD_OPTIONS, installerFileName, optionById } from "~/lib/downloads/options";
import { createUploadSchema, formatBytes, VERSION_MAX_LENGTH } from "~/lib/downloads/upload";
import { Field, SelectField } from "../forms";
import { Alert, Button, Card, Label, useHydrated } from "../ui";

const BASE = "/dashboard/admin/releases";
const PART_ATTEMPTS = 3;

type Progress = { sent: number; total: number; part: number; parts: number };
type Outcome = { ok: true; release: ReleaseView } | { ok: false; message: string };
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

/** The admin's "Publish a build" panel: a multipart upload to R2 with progress, and the published builds. */
export function PublishBuild({ releases }: { releases: ReleaseView[] }) {
  const ids = useId();
  const revalidator = useRevalidator();
  const hydrated = useHydrated();
  const [optionId, setOptionId] = useState(DOWNLOAD_OPTIONS[0]!.id);
  const [version, setVersion] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [busy, setBusy] = useState(false);
  const [outcome, setOutcome] = useState<Outcome | null>(null);
  const cancelled = useRef(false);
  const xhrs = useRef(new Set<XMLHttpRequest>());

  const option = optionById(optionId)!;
  const percent = progress ? Math.floor((progress.sent / Math.max(progress.total, 1)) * 100) : 0;

  async function publish(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    setOutcome(null);
    const parsed = createUploadSchema.safeParse({ optionId, version: version.trim(), size: file?.size ?? 0 });
    if (!file) return setOutcome({ ok: false, message: "Please choose the installer file." });
    if (!parsed.success) return setOutcome({ ok: false, message: parsed.error.issues[0]?.message ?? "Please check the form." });
    cancelled.current = false;
    setBusy(true);
    setProgress({ sent: 0, total: file.size, part: 0, parts: 0 });
    let ref: Ref | null = null;
    try {
      const created = await postJson<{ key: string; uploadId: string; partBytes: number; parts: number }>("create", parsed.data);
      ref = { optionId: parsed.data.optionId, version: parsed.data.version, key: created.key, uploadId: created.uploadId };
      const parts: { partNumber: number; etag: string }[] = [];
      let done = 0;
      for (let n = 1; n <= created.parts; n++) {
        const blob = file.slice((n - 1) * created.partBytes, Math.min(n * created.partBytes, file.size));
        for (let attempt = 1; ; attempt++) {
          if (cancelled.current) throw new UploadError("The upload was cancelled.");
          setProgress({ sent: done, total: file.size, part: n, parts: created.parts });
          try {
            parts.push(
              await sendPart(ref, n, blob, (loaded) => setProgress({ sent: done + loaded, total: file.size, part: n, parts: created.parts }), xhrs.current),
            );
            break;
          } catch (error) {
            if (!(error instanceof UploadError && error.retry && attempt < PART_ATTEMPTS) || cancelled.current) throw error;
          }
        }
        done += blob.size;
      }
      setProgress({ sent: file.size, total: file.size, part: created.parts, parts: created.parts });
      const { release } = await postJson<{ release: ReleaseView }>("complete", { ...ref, parts });
      setOutcome({ ok: true, release });
      setVersion("");
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

  return (
    <Card className="mt-8 p-6">
      <h2 className="text-lg font-semibold text-slate-900">Publish a build</h2>
      <p className="mt-1 text-sm text-slate-600">
        Uploads an installer to storage in parts of {formatBytes(DOWNLOAD.uploadPartBytes)} and publishes it as the newest build of its option. Size and SHA-256
        are computed on the server from the stored file.
      </p>
      <noscript>
        <p className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          Uploading a build needs JavaScript. Without it, publish with <code>npm run release:publish</code>.
        </p>
      </noscript>
      <form onSubmit={publish} className="mt-5 space-y-4" noValidate>
        <div className="grid gap-4 sm:grid-cols-2">
          <SelectField
            labelProps={{ children: "Download option" }}
            selectProps={{ id: `${ids}-option`, value: optionId, onChange: (e) => setOptionId(e.target.value), disabled: busy }}
          >
            {DOWNLOAD_OPTIONS.map((o) => (
              <option key={o.id} value={o.id}>
                {o.name} ({o.id})
              </option>
            ))}
          </SelectField>
          {/* Described by the file name it will be published as, under the file picker. */}
          <Field
            labelProps={{ children: "Version" }}
            inputProps={{
              id: `${ids}-version`,
              value: version,
              onChange: (e) => setVersion(e.target.value),
              placeholder: "1.4.0",
              maxLength: VERSION_MAX_LENGTH,
              pattern: "\\d+\\.\\d+\\.\\d+(-[0-9A-Za-z.\\-]+)?",
              required: true,
              disabled: busy,
              "aria-describedby": `${ids}-name`,
            }}
          />
        </div>
        <div>
          <Label htmlFor={`${ids}-file`}>Installer file</Label>
          <input
            id={`${ids}-file`}
            type="file"
            required
            disabled={busy}
            onChange={(e) => setFile(e.target.files?.[0] ?? null)}
            className="block w-full text-sm text-slate-700 file:mr-3 file:rounded-lg file:border-0 file:bg-slate-100 file:px-3 file:py-2 file:font-semibold file:text-slate-800 hover:file:bg-slate-200"
          />
          <p id={`${ids}-name`} className="mt-1.5 text-sm text-slate-500">
            Published as <span className="font-mono">{installerFileName(option, version.trim() || "VERSION")}</span>
            {file ? ` · ${formatBytes(file.size)}` : ""}
          </p>
        </div>
        <div className="flex flex-wrap gap-3">
          <Button type="submit" disabled={!hydrated || busy}>
            {busy ? "Uploading…" : "Upload and publish"}
          </Button>
          {busy ? (
            <Button variant="secondary" onClick={cancel}>
              Cancel upload
            </Button>
          ) : null}
        </div>
      </form>

      {progress ? (
        <div className="mt-5">
          <label htmlFor={`${ids}-progress`} className="flex justify-between text-sm text-slate-700">
            <span>Upload progress</span>
            <span>
              {percent}% · {formatBytes(progress.sent)} of {formatBytes(progress.total)}
              {progress.parts ? ` · part ${progress.part} of ${progress.parts}` : ""}
            </span>
          </label>
          <progress id={`${ids}-progress`} max={100} value={percent} className="mt-1.5 h-2 w-full accent-brand-600">
            {percent}%
          </progress>
        </div>
      ) : null}

      {outcome ? (
        <Alert tone={outcome.ok ? "success" : "error"} className="mt-5">
          {outcome.ok ? (
            <>
              Published {optionById(outcome.release.optionId)?.name} {outcome.release.version}: {formatBytes(outcome.release.byteSize)} (
              {outcome.release.byteSize.toLocaleString("en-US")} bytes), SHA-256 <span className="break-all font-mono">{outcome.release.sha256}</span>
            </>
          ) : (
            outcome.message
          )}
        </Alert>
      ) : null}

      <h3 className="mt-8 text-base font-semibold text-slate-900">Published builds</h3>
      {releases.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No builds are published yet.</p>
      ) : (
        <div className="mt-3 overflow-x-auto">
          <table className="w-full text-left text-sm">
            <thead className="text-slate-500">
              <tr>
                <th className="py-2 pr-4 font-medium">Option</th>
                <th className="py-2 pr-4 font-medium">Version</th>
                <th className="py-2 pr-4 font-medium">Size</th>
                <th className="py-2 pr-4 font-medium">SHA-256</th>
                <th className="py-2 font-medium">Published</th>
              </tr>
            </thead>
            <tbody className="divide-y divide-slate-100">
              {releases.map((r) => (
                <tr key={r.id} className="align-top">
                  <td className="py-2 pr-4 text-slate-900">{optionById(r.optionId)?.name ?? r.optionId}</td>
                  <td className="py-2 pr-4 whitespace-nowrap text-slate-900">
                    {r.version}
                    {r.demo ? " " : null}
                    {r.demo ? <span className="ml-1.5 rounded bg-amber-100 px-1.5 py-0.5 text-xs font-medium text-amber-900">demo</span> : null}
                  </td>
                  <td className="py-2 pr-4 whitespace-nowrap text-slate-700" title={`${r.byteSize.toLocaleString("en-US")} bytes`}>
                    {formatBytes(r.byteSize)}
                  </td>
                  <td className="py-2 pr-4 font-mono text-xs break-all text-slate-700">{r.sha256}</td>
                  <td className="py-2 whitespace-nowrap text-slate-500">{new Date(r.publishedAt).toISOString().replace("T", " ").slice(0, 16)} UTC</td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </Card>
  );
}
