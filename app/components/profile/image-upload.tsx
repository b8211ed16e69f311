// The profile picture or cover photo control of the Edit Profile modal. It is its own form
// (multipart, to the upload route), so it must sit outside any other form. Without JavaScript
// the user picks a file and presses Upload; the route redirects back with the outcome in the
// query. With JavaScript, picking a file checks it here first (size, declared type), then sends
// it at once with XMLHttpRequest for a progress bar; the server decides by the bytes.
import { type ChangeEvent, type FormEvent, useEffect, useId, useRef, useState } from "react";
import { useSearchParams } from "react-router";
import { PROFILE_IMAGES } from "~/lib/constants";
import { SITE_FORMATS } from "~/lib/format";
import { ACCEPTED_CONTENT_TYPES, checkFileBeforeUpload, type ImageKind, uploadedMessage, uploadNoticeFromQuery } from "~/lib/profile/images";
import { UPLOAD_MESSAGES } from "~/lib/profile/messages";
import { Alert, buttonClass, cx, Label } from "../ui";

const TEXT: Record<ImageKind, { label: string; uploading: string; hint: string; empty: string }> = {
  avatar: {
    label: "Profile picture",
    uploading: "Uploading profile picture",
    hint: `JPG, PNG, GIF or WebP, up to ${SITE_FORMATS.bytes(PROFILE_IMAGES.avatarMaxBytes)}.`,
    empty: "No profile picture yet",
  },
  cover: {
    label: "Cover photo",
    uploading: "Uploading cover photo",
    hint: `JPG, PNG, GIF or WebP, up to ${SITE_FORMATS.bytes(PROFILE_IMAGES.coverMaxBytes)}.`,
    empty: "No cover photo yet",
  },
};

type Status = { tone: "success" | "error"; message: string };

type Answer = { ok?: boolean; url?: string; message?: string; error?: string } | null;

function parseAnswer(text: string): Answer {
  try {
    return JSON.parse(text) as Answer;
  } catch {
    return null;
  }
}

/** Sends the file with XMLHttpRequest, for its upload progress; `report` hears the progress and the outcome. */
function uploadImage(
  kind: ImageKind,
  file: File,
  report: { progress: (percent: number) => void; done: (status: Status, url?: string) => void },
): XMLHttpRequest {
  const xhr = new XMLHttpRequest();
  xhr.open("POST", `/dashboard/profile/image?kind=${kind}`);
  xhr.setRequestHeader("Accept", "application/json");
  xhr.setRequestHeader("Content-Type", ACCEPTED_CONTENT_TYPES.includes(file.type) ? file.type : "application/octet-stream");
  xhr.timeout = PROFILE_IMAGES.uploadTimeoutMs;
  xhr.upload.onprogress = (event) => {
    if (event.lengthComputable) report.progress(Math.min(100, Math.round((event.loaded / Math.max(event.total, 1)) * 100)));
  };
  xhr.onload = () => {
    const answer = parseAnswer(xhr.responseText);
    if (xhr.status === 200 && answer?.ok && answer.url) report.done({ tone: "success", message: answer.message ?? uploadedMessage(kind) }, answer.url);
    else report.done({ tone: "error", message: answer?.error ?? UPLOAD_MESSAGES.failed(`the server answered ${xhr.status}. Please try again.`) });
  };
  xhr.onerror = () => report.done({ tone: "error", message: UPLOAD_MESSAGES.network });
  xhr.ontimeout = () => report.done({ tone: "error", message: UPLOAD_MESSAGES.timedOut });
  return xhr;
}

/**
 * The upload's state: the picture shown (the one being sent, else the saved one), the progress
 * while sending, and the outcome; a newer pick or unmounting abandons the upload under way.
 */
function useImageUpload(kind: ImageKind, currentUrl: string | null, onUploaded?: (url: string) => void) {
  const [searchParams] = useSearchParams();
  const fromQuery = uploadNoticeFromQuery(searchParams);
  const [status, setStatus] = useState<Status | null>(fromQuery?.kind === kind ? fromQuery : null);
  const [shownUrl, setShownUrl] = useState(currentUrl);
  const [localPreview, setLocalPreview] = useState<string | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const xhrRef = useRef<XMLHttpRequest | null>(null);
  const inputRef = useRef<HTMLInputElement>(null);
  // Keep the latest callback without restarting an upload when the parent re-renders.
  const onUploadedRef = useRef(onUploaded);
  onUploadedRef.current = onUploaded;

  useEffect(() => setShownUrl(currentUrl), [currentUrl]);
  useEffect(() => () => xhrRef.current?.abort(), []);
  useEffect(() => {
    if (!localPreview) return;
    return () => URL.revokeObjectURL(localPreview);
  }, [localPreview]);

  function finish(next: Status, url?: string) {
    xhrRef.current = null;
    setPercent(null);
    setLocalPreview(null);
    setStatus(next);
    if (url) setShownUrl(url);
    if (inputRef.current) inputRef.current.value = "";
  }

  function send(file: File) {
    xhrRef.current?.abort();
    const xhr = uploadImage(kind, file, {
      progress: (value) => {
        if (xhrRef.current === xhr) setPercent(value);
      },
      done: (next, url) => {
        if (xhrRef.current !== xhr) return;
        finish(next, url);
        if (url) onUploadedRef.current?.(url);
      },
    });
    xhrRef.current = xhr;
    setStatus(null);
    setPercent(0);
    setLocalPreview(URL.createObjectURL(file));
    xhr.send(file);
  }

  function pick(file: File | undefined) {
    if (!file) return;
    const problem = checkFileBeforeUpload(kind, file);
    if (problem) {
      xhrRef.current?.abort();
      finish({ tone: "error", message: problem });
      return;
    }
    send(file);
  }

  const onChange = (event: ChangeEvent<HTMLInputElement>) => pick(event.currentTarget.files?.[0]);
  // Enter in the file field, or a submit with a file already chosen.
  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    pick(inputRef.current?.files?.[0]);
  };

  return { status, previewSrc: localPreview ?? shownUrl, percent, inputRef, onChange, onSubmit };
}

export function ImageUpload({ kind, currentUrl, onUploaded }: { kind: ImageKind; currentUrl: string | null; onUploaded?: (url: string) => void }) {
  const id = useId();
  const text = TEXT[kind];
  const inputId = `${id}-file`;
  const hintId = `${id}-hint`;
  const { status, previewSrc, percent, inputRef, onChange, onSubmit } = useImageUpload(kind, currentUrl, onUploaded);
  const uploading = percent !== null;

  return (
    <form
      method="post"
      encType="multipart/form-data"
      action={`/dashboard/profile/image?kind=${kind}`}
      onSubmit={onSubmit}
      className="space-y-3"
      aria-busy={uploading}
    >
      <Label htmlFor={inputId}>{text.label}</Label>
      <div className={cx("flex gap-4", kind === "avatar" ? "items-center" : "flex-col")}>
        <Preview kind={kind} src={previewSrc} empty={text.empty} dimmed={uploading} />
        <div className="min-w-0 flex-1 space-y-2">
          <input
            ref={inputRef}
            id={inputId}
            name="file"
            type="file"
            accept={ACCEPTED_CONTENT_TYPES.join(",")}
            aria-describedby={hintId}
            onChange={onChange}
            className={cx(
              "block w-full text-sm text-slate-700",
              "file:mr-3 file:cursor-pointer file:rounded-lg file:border-0 file:bg-brand-50 file:px-3 file:py-2 file:text-sm file:font-semibold file:text-brand-700 hover:file:bg-brand-100",
              "rounded-lg focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600",
            )}
          />
          <p id={hintId} className="text-xs text-slate-500">
            {text.hint}
          </p>
          <noscript>
            <button type="submit" className={buttonClass("secondary", "sm")}>
              Upload {text.label.toLowerCase()}
            </button>
          </noscript>
        </div>
      </div>
      {uploading ? <UploadProgress label={text.uploading} percent={percent} /> : null}
      {status ? <Alert tone={status.tone}>{status.message}</Alert> : null}
    </form>
  );
}

function UploadProgress({ label, percent }: { label: string; percent: number }) {
  return (
    <div
      role="progressbar"
      aria-label={label}
      aria-valuenow={percent}
      aria-valuemin={0}
      aria-valuemax={100}
      className="h-2 w-full overflow-hidden rounded-full bg-slate-100"
    >
      <div className="h-full rounded-full bg-brand-600 transition-[width] duration-150" style={{ width: `${percent}%` }} />
    </div>
  );
}

function Preview({ kind, src, empty, dimmed }: { kind: ImageKind; src: string | null; empty: string; dimmed: boolean }) {
  const shape = kind === "avatar" ? "h-20 w-20 shrink-0 rounded-full" : "aspect-[3/1] max-h-48 w-full rounded-xl";
  if (!src) {
    return (
      <div className={cx(shape, "flex items-center justify-center border border-dashed border-slate-300 bg-slate-50 text-slate-400")}>
        <svg viewBox="0 0 24 24" className="h-7 w-7" fill="none" stroke="currentColor" strokeWidth="1.8" aria-hidden="true">
          <path
            d="M4 16l4.6-4.6a2 2 0 0 1 2.8 0L16 16m-2-2 1.6-1.6a2 2 0 0 1 2.8 0L20 14M14 8h.01M6 20h12a2 2 0 0 0 2-2V6a2 2 0 0 0-2-2H6a2 2 0 0 0-2 2v12a2 2 0 0 0 2 2Z"
            strokeLinecap="round"
            strokeLinejoin="round"
          />
        </svg>
        <span className="sr-only">{empty}</span>
      </div>
    );
  }
  return (
    <img
      src={src}
      alt={kind === "avatar" ? "Current profile picture" : "Current cover photo"}
      className={cx(shape, "border border-slate-200 bg-slate-100 object-cover transition-opacity", dimmed && "opacity-60")}
    />
  );
}
