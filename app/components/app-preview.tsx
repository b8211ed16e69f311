// The hero's "app screenshot": an illustration of the desktop app drawn in HTML, so it stays
// sharp at every width and needs no binary asset.
export function AppPreview() {
  return (
    <div className="relative mx-auto w-full max-w-4xl" aria-label="The Modelify desktop app: a chat with model picker and agent list" role="img">
      <div className="absolute -inset-4 -z-10 rounded-[2rem] bg-gradient-to-tr from-brand-200/60 via-fuchsia-100/60 to-sky-100/60 blur-2xl" />
      <div className="overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-2xl shadow-brand-900/10">
        <div className="flex items-center gap-2 border-b border-slate-200 bg-slate-50 px-4 py-3">
          <span className="h-3 w-3 rounded-full bg-red-400" />
          <span className="h-3 w-3 rounded-full bg-yellow-400" />
          <span className="h-3 w-3 rounded-full bg-emerald-400" />
          <span className="ml-3 text-xs font-medium text-slate-500">Modelify</span>
        </div>
        <div className="grid grid-cols-12 text-left">
          <div className="col-span-4 hidden border-r border-slate-200 bg-slate-50/60 p-4 sm:block">
            <p className="text-[11px] font-semibold uppercase tracking-wide text-slate-600">Agents</p>
            <ul className="mt-3 space-y-1.5 text-sm">
              {["Research Analyst", "Code Reviewer", "Marketing Writer", "Data Scientist", "Legal Assistant"].map((a, i) => (
                <li key={a} className={i === 1 ? "rounded-lg bg-white px-3 py-2 font-medium text-brand-700 shadow-sm" : "px-3 py-2 text-slate-600"}>
                  {a}
                </li>
              ))}
            </ul>
          </div>
          <div className="col-span-12 space-y-4 p-5 sm:col-span-8">
            <div className="flex items-center justify-between">
              <span className="rounded-full bg-brand-50 px-3 py-1 text-xs font-semibold text-brand-700">Code Reviewer</span>
              <span className="rounded-lg border border-slate-200 px-3 py-1 text-xs text-slate-600">Model: Claude · GPT · Gemini ▾</span>
            </div>
            <div className="ml-auto max-w-[80%] rounded-2xl rounded-br-sm bg-brand-600 px-4 py-3 text-sm text-white">
              Review this pull request for security issues and suggest fixes.
            </div>
            <div className="max-w-[85%] rounded-2xl rounded-bl-sm bg-slate-100 px-4 py-3 text-sm text-slate-800">
              Found 2 issues: the session cookie lacks <code className="rounded bg-white px-1">HttpOnly</code>, and the redirect accepts any URL. Here are
              patches for both…
            </div>
            <div className="flex items-center gap-2 rounded-xl border border-slate-200 px-4 py-3 text-sm text-slate-500">
              Ask anything, or pick an agent…
              <span className="ml-auto rounded-lg bg-brand-600 px-3 py-1 text-xs font-semibold text-white">Send</span>
            </div>
          </div>
        </div>
      </div>
    </div>
  );
}
