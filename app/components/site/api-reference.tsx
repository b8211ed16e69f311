// The API reference, rendered from the OpenAPI document's data (lib/openapi/reference.ts): a
// contents list, then each operation with its authentication, request bodies, examples and every
// answer it lists. Links and text only: nothing on it needs JavaScript.
import type { AnswerView, BodyView, FieldView, OperationView, ReferenceView, ShapeView } from "~/lib/openapi/reference";
import { cx } from "../ui";

const METHOD_CLASS: Record<string, string> = {
  GET: "bg-sky-100 text-sky-900",
  POST: "bg-emerald-100 text-emerald-900",
};

function Method({ method }: { method: string }) {
  return <span className={cx("rounded px-2 py-0.5 font-mono text-xs font-bold", METHOD_CLASS[method] ?? "bg-slate-100 text-slate-900")}>{method}</span>;
}

function Fields({ fields, label }: { fields: FieldView[]; label: string }) {
  if (fields.length === 0) return null;
  return (
    <dl className="mt-2 divide-y divide-slate-100 rounded-md border border-slate-200" aria-label={label}>
      {fields.map((field) => (
        <div key={field.name} className="px-3 py-2">
          <dt className="flex flex-wrap items-baseline gap-x-2">
            <code className="break-all font-mono text-sm font-semibold text-slate-900">{field.name}</code>
            <span className="text-xs text-slate-600">{field.type}</span>
            {field.required ? <span className="text-xs font-semibold text-rose-800">required</span> : null}
          </dt>
          {field.description || field.rules.length > 0 ? (
            <dd className="mt-1 text-sm text-slate-700">
              {field.description}
              {field.rules.length > 0 ? <span className="block break-all text-xs text-slate-600">{field.rules.join("; ")}</span> : null}
            </dd>
          ) : null}
        </div>
      ))}
    </dl>
  );
}

function Shape({ shape, label }: { shape: ShapeView; label: string }) {
  return (
    <div className="mt-3">
      {shape.title ? <p className="text-sm font-semibold text-slate-900">{shape.title}</p> : null}
      {shape.description ? <p className="text-sm text-slate-700">{shape.description}</p> : null}
      {shape.fields.length === 0 ? <p className="text-sm text-slate-700">A JSON {shape.type}.</p> : <Fields fields={shape.fields} label={label} />}
    </div>
  );
}

function Body({ body, label }: { body: BodyView; label: string }) {
  return (
    <div className="mt-2">
      <p className="text-xs text-slate-600">
        Content-Type: <code className="font-mono">{body.mediaType}</code>
        {body.shapes.length > 1 ? ", one of:" : null}
      </p>
      {body.shapes.map((shape, i) => (
        <Shape key={shape.title ?? i} shape={shape} label={`${label}${shape.title ? `: ${shape.title}` : ""} (${body.mediaType})`} />
      ))}
      {body.examples.map((example) => (
        <figure key={example.name} className="mt-3">
          <figcaption className="text-xs font-semibold text-slate-700">Example: {example.summary}</figcaption>
          <pre className="mt-1 whitespace-pre-wrap break-all rounded-md bg-slate-900 p-3 font-mono text-xs leading-5 text-slate-100">
            <code>{example.json}</code>
          </pre>
        </figure>
      ))}
    </div>
  );
}

function Answer({ answer, operation }: { answer: AnswerView; operation: OperationView }) {
  return (
    <li className="py-3">
      <p className="text-sm">
        <span className="font-mono font-bold text-slate-900">{answer.status}</span> <span className="text-slate-700">{answer.description}</span>
      </p>
      {answer.headers.length > 0 ? (
        <ul className="mt-1 text-xs text-slate-700" aria-label={`Headers of ${operation.method} ${operation.path} ${answer.status}`}>
          {answer.headers.map((header) => (
            <li key={header.name}>
              <code className="font-mono">{header.name}</code>
              {header.required ? " (always)" : ""}: {header.description}
            </li>
          ))}
        </ul>
      ) : null}
      {answer.bodies.map((body) => (
        <Body key={body.mediaType} body={body} label={`Fields of the ${answer.status} answer to ${operation.method} ${operation.path}`} />
      ))}
    </li>
  );
}

function Operation({ operation }: { operation: OperationView }) {
  return (
    <section aria-labelledby={operation.id} className="mt-8 border-t border-slate-200 pt-6">
      <h3 id={operation.id} className="flex flex-wrap items-center gap-2 text-lg font-semibold text-slate-900">
        <Method method={operation.method} />
        <code className="break-all font-mono">{operation.path}</code>
      </h3>
      <p className="mt-2 text-slate-800">{operation.summary}</p>
      {operation.description ? <p className="mt-2 text-sm text-slate-700">{operation.description}</p> : null}
      <p className="mt-2 text-xs text-slate-600">
        Operation <code className="font-mono">{operation.id}</code> ·{" "}
        {operation.personalKey
          ? "Authorization: Bearer with a personal API key or the access token"
          : operation.bearer
            ? "Authorization: Bearer with the access token"
            : "No token: a public endpoint"}
      </p>
      {operation.parameters.length > 0 ? (
        <>
          <h4 className="mt-4 font-semibold text-slate-900">Query parameters</h4>
          <Fields fields={operation.parameters} label={`Query parameters of ${operation.method} ${operation.path}`} />
        </>
      ) : null}
      {operation.request ? (
        <>
          <h4 className="mt-4 font-semibold text-slate-900">Request body{operation.request.required ? "" : " (optional)"}</h4>
          {operation.request.bodies.map((body) => (
            <Body key={body.mediaType} body={body} label={`Fields of the request to ${operation.method} ${operation.path}`} />
          ))}
        </>
      ) : null}
      <h4 className="mt-4 font-semibold text-slate-900">Answers</h4>
      <ul className="divide-y divide-slate-100">
        {operation.answers.map((answer) => (
          <Answer key={answer.status} answer={answer} operation={operation} />
        ))}
      </ul>
    </section>
  );
}

/** The reference's content, inside the page's `<article className="text-slate-800">`. */
export function ApiReference({ reference }: { reference: ReferenceView }) {
  return (
    <>
      <h1 className="text-3xl font-bold tracking-tight text-slate-900 sm:text-4xl">API reference</h1>
      <p className="mt-1 text-sm text-slate-600">
        {reference.title}, version {reference.version}. The same description as a file:{" "}
        <a className="font-medium text-brand-700 underline" href="/api/v1/openapi.json">
          /api/v1/openapi.json
        </a>{" "}
        (OpenAPI 3.1). {reference.license.name}.
      </p>
      {reference.paragraphs.map((paragraph) => (
        <p key={paragraph} className="mt-3 text-sm leading-6">
          {paragraph}
        </p>
      ))}
      <nav aria-label="Operations" className="mt-6 rounded-lg bg-slate-50 p-4">
        <h2 className="text-sm font-semibold text-slate-900">Contents</h2>
        <ul className="mt-2 space-y-1 text-sm">
          {reference.groups.flatMap((group) =>
            group.operations.map((operation) => (
              <li key={operation.id}>
                <a href={`#${operation.id}`} className="text-brand-700 underline">
                  {operation.method} {operation.path}
                </a>
              </li>
            )),
          )}
        </ul>
      </nav>
      {reference.groups.map((group) => (
        <section key={group.tag} aria-labelledby={`tag-${group.tag}`} className="mt-10">
          <h2 id={`tag-${group.tag}`} className="text-2xl font-bold text-slate-900">
            {group.tag}
          </h2>
          <p className="mt-1 text-sm text-slate-700">{group.description}</p>
          {group.operations.map((operation) => (
            <Operation key={operation.id} operation={operation} />
          ))}
        </section>
      ))}
    </>
  );
}
