import { type FormEvent, useId, useState } from "react";
import { DOWNLOAD } from "~/lib/constants";
import type { ReleaseView } from "~/lib/downloads/releases.server";
import { DOWNLOAD_OPTIONS, installerFileName, optionById, VERSION_MAX_LENGTH } from "~/lib/downloads/options";
import { Field, SelectField } from "../forms";
import { Alert, Button, Card, Label, useHydrated } from "../ui";
import { type Outcome, type Progress, useBuildUpload } from "./publish-upload";
import { useFormat } from "~/components/format";

/** The admin's "Publish a build" panel: a multipart upload to R2 with progress, and the published builds. */
export function PublishBuild({ releases }: { releases: ReleaseView[] }) {
  const f = useFormat();
  // Taken here, where it was before the panel was split, so the fields' ids stay the same.
  const ids = useId();
  return (
    <Card className="mt-8 p-6">
      <h2 className="text-lg font-semibold text-slate-900">Publish a build</h2>
      <p className="mt-1 text-sm text-slate-600">
        Uploads an installer to storage in parts of {f.bytes(DOWNLOAD.uploadPartBytes)} and publishes it as the newest build of its option. Size and SHA-256 are
        computed on the server from the stored file.
      </p>
      <noscript>
        <p className="mt-4 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-900">
          Uploading a build needs JavaScript. Without it, publish with <code>npm run release:publish</code>.
        </p>
      </noscript>
      <UploadForm ids={ids} />
      <PublishedBuilds releases={releases} />
    </Card>
  );
}

function UploadForm({ ids }: { ids: string }) {
  const f = useFormat();
  const hydrated = useHydrated();
  const [optionId, setOptionId] = useState(DOWNLOAD_OPTIONS[0]!.id);
  const [version, setVersion] = useState("");
  const [file, setFile] = useState<File | null>(null);
  const { progress, busy, outcome, publish, cancel } = useBuildUpload(() => setVersion(""));
  const option = optionById(optionId)!;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    void publish({ optionId, version, file });
  }

  return (
    <>
      <form onSubmit={submit} className="mt-5 space-y-4" noValidate>
        <OptionAndVersion ids={ids} optionId={optionId} setOptionId={setOptionId} version={version} setVersion={setVersion} busy={busy} />
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
            {file ? ` · ${f.bytes(file.size)}` : ""}
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
      {progress ? <UploadProgress id={`${ids}-progress`} progress={progress} /> : null}
      {outcome ? <PublishOutcome outcome={outcome} /> : null}
    </>
  );
}

function OptionAndVersion({
  ids,
  optionId,
  setOptionId,
  version,
  setVersion,
  busy,
}: {
  ids: string;
  optionId: string;
  setOptionId: (id: string) => void;
  version: string;
  setVersion: (version: string) => void;
  busy: boolean;
}) {
  return (
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
  );
}

function UploadProgress({ id, progress }: { id: string; progress: Progress }) {
  const f = useFormat();
  const percent = Math.floor((progress.sent / Math.max(progress.total, 1)) * 100);
  return (
    <div className="mt-5">
      <label htmlFor={id} className="flex justify-between text-sm text-slate-700">
        <span>Upload progress</span>
        <span>
          {percent}% · {f.bytes(progress.sent)} of {f.bytes(progress.total)}
          {progress.parts ? ` · part ${progress.part} of ${progress.parts}` : ""}
        </span>
      </label>
      <progress id={id} max={100} value={percent} className="mt-1.5 h-2 w-full accent-brand-600">
        {percent}%
      </progress>
    </div>
  );
}

function PublishOutcome({ outcome }: { outcome: Outcome }) {
  const f = useFormat();
  return (
    <Alert tone={outcome.ok ? "success" : "error"} className="mt-5">
      {outcome.ok ? (
        <>
          Published {optionById(outcome.release.optionId)?.name} {outcome.release.version}: {f.bytes(outcome.release.byteSize)} (
          {f.integer(outcome.release.byteSize)} bytes), SHA-256 <span className="break-all font-mono">{outcome.release.sha256}</span>
        </>
      ) : (
        outcome.message
      )}
    </Alert>
  );
}

function PublishedBuilds({ releases }: { releases: ReleaseView[] }) {
  const f = useFormat();
  return (
    <>
      <h3 className="mt-8 text-base font-semibold text-slate-900">Published builds</h3>
      {releases.length === 0 ? (
        <p className="mt-2 text-sm text-slate-600">No builds are published yet.</p>
      ) : (
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scrollable region takes focus so a keyboard can scroll it (axe scrollable-region-focusable)
        <section className="mt-3 overflow-x-auto" aria-label="Published builds" tabIndex={0}>
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
                  <td className="py-2 pr-4 whitespace-nowrap text-slate-700" title={`${f.integer(r.byteSize)} bytes`}>
                    {f.bytes(r.byteSize)}
                  </td>
                  <td className="py-2 pr-4 font-mono text-xs break-all text-slate-700">{r.sha256}</td>
                  <td className="py-2 whitespace-nowrap text-slate-500">{new Date(r.publishedAt).toISOString().replace("T", " ").slice(0, 16)} UTC</td>
                </tr>
              ))}
            </tbody>
          </table>
        </section>
      )}
    </>
  );
}
