// Holds an answer of the API to the OpenAPI document the site serves: the status must be one the
// operation lists, the body must match that answer's JSON Schema (ajv, JSON Schema 2020-12 as
// OpenAPI 3.1 uses, with ajv-formats), and the headers it marks required must be there and match.
// A method a path does not take must answer 405 with an Allow header naming the methods the
// document has for it, and an Error body (the document's info says so).
//
// ajv compiles validators with `new Function`, which workerd forbids: this runs in Node, on the
// Playwright side (tests/e2e/api-conformance.test.ts). Patterns are compiled without the `u` flag,
// as tools outside JavaScript read them; strict mode fails on any keyword ajv does not know, so a
// new extension keyword in the document must be named here.
import Ajv2020, { type ValidateFunction } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";

type Json = Record<string, unknown>;
type Header = { required?: boolean; schema?: Json };
type ResponseObject = { description: string; headers?: Record<string, Header>; content?: Record<string, { schema: Json }> };
type Operation = { operationId: string; responses: Record<string, ResponseObject | { $ref: string }>; requestBody?: Json };
export type OpenApiDocument = { paths: Record<string, Record<string, Operation>>; components: Json };

/** What came back: the status, the headers and the body as text. */
export type Answer = { status: number; headers: Headers; body: string };

/** Keywords of the document's schemas that are not JSON Schema's own: annotations, nothing to check. */
const ANNOTATIONS = ["example", "x-time-window"];
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"];

export class AnswerChecker {
  private readonly ajv = new Ajv2020({ strict: true, allErrors: true, unicodeRegExp: false });
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(readonly document: OpenApiDocument) {
    addFormats(this.ajv);
    for (const keyword of ANNOTATIONS) this.ajv.addKeyword(keyword);
  }

  /** Every operation of the document: its path, method and object. */
  operations(): Array<{ path: string; method: string; operation: Operation }> {
    return Object.entries(this.document.paths).flatMap(([path, item]) =>
      Object.entries(item)
        .filter(([method]) => METHODS.includes(method))
        .map(([method, operation]) => ({ path, method, operation })),
    );
  }

  /** The methods a path answers, as its Allow header lists them (GET brings HEAD). */
  allowed(path: string): string[] {
    const methods = Object.keys(this.document.paths[path] ?? {}).filter((m) => METHODS.includes(m));
    return methods.flatMap((m) => (m === "get" ? ["GET", "HEAD"] : [m.toUpperCase()]));
  }

  /** What is wrong with `answer` as the answer of `method path`; empty when it is as documented. */
  check(path: string, method: string, answer: Answer): string[] {
    const operation = this.document.paths[path]?.[method];
    if (!operation) return [`${method.toUpperCase()} ${path} is not in the document`];
    const listed = operation.responses[String(answer.status)];
    if (!listed) return [`status ${answer.status} is not listed (listed: ${Object.keys(operation.responses).join(", ")}); body: ${answer.body.slice(0, 200)}`];
    const documented = this.resolve<ResponseObject>(listed);
    return [...this.checkHeaders(documented, answer), ...this.checkBody(documented, answer, `#/paths/${pointer(path)}/${method}/responses/${answer.status}`)];
  }

  /** A method the path does not take: 405, Allow as the document has it, an Error body. */
  checkWrongMethod(path: string, answer: Answer): string[] {
    if (answer.status !== 405) return [`status ${answer.status} where 405 is due; body: ${answer.body.slice(0, 200)}`];
    const problems: string[] = [];
    const allow = (answer.headers.get("Allow") ?? "").split(",").map((m) => m.trim());
    if (allow.sort().join(",") !== this.allowed(path).sort().join(","))
      problems.push(`Allow is "${answer.headers.get("Allow")}", the document has ${this.allowed(path)}`);
    const error = { description: "405", content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } } };
    return [...problems, ...this.checkBody(error, answer, "#/components/schemas/Error")];
  }

  private checkHeaders(documented: ResponseObject, answer: Answer): string[] {
    const problems: string[] = [];
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = answer.headers.get(name);
      if (value === null) {
        if (header.required) problems.push(`header ${name} is required and missing`);
        continue;
      }
      if (!header.schema) continue;
      const typed = header.schema.type === "integer" || header.schema.type === "number" ? Number(value) : value;
      const validate = this.validator(`header ${JSON.stringify(header.schema)}`, header.schema);
      if (!validate(typed)) problems.push(`header ${name}: "${value}" ${this.ajv.errorsText(validate.errors)}`);
    }
    return problems;
  }

  private checkBody(documented: ResponseObject, answer: Answer, where: string): string[] {
    const type = (answer.headers.get("Content-Type") ?? "").split(";")[0]!.trim().toLowerCase();
    if (!documented.content) return answer.body === "" ? [] : [`no body is documented, got ${type}: ${answer.body.slice(0, 200)}`];
    const media = documented.content[type];
    if (!media) return [`Content-Type "${type}" is not documented (documented: ${Object.keys(documented.content).join(", ")})`];
    let value: unknown;
    try {
      value = JSON.parse(answer.body);
    } catch {
      return [`the body is not JSON: ${answer.body.slice(0, 200)}`];
    }
    const validate = this.validator(where, media.schema);
    if (validate(value)) return [];
    return [`the body does not match ${where}: ${this.ajv.errorsText(validate.errors, { separator: "; " })}; body: ${answer.body.slice(0, 300)}`];
  }

  /** A compiled validator per place in the document; the components' $refs resolved first. */
  private validator(where: string, schema: Json): ValidateFunction {
    let validate = this.validators.get(where);
    if (!validate) {
      validate = this.ajv.compile(this.inline(schema) as Json);
      this.validators.set(where, validate);
    }
    return validate;
  }

  /** The schema with each { $ref: "#/components/…" } replaced by what it points to. */
  private inline(node: unknown): unknown {
    if (Array.isArray(node)) return node.map((item) => this.inline(item));
    if (!node || typeof node !== "object") return node;
    const object = node as Json;
    if (typeof object.$ref === "string") return this.inline(this.resolve(object));
    return Object.fromEntries(Object.entries(object).map(([key, value]) => [key, this.inline(value)]));
  }

  private resolve<T>(node: T | { $ref: string }): T {
    if (!node || typeof node !== "object" || !("$ref" in node)) return node as T;
    const ref = (node as { $ref: string }).$ref;
    if (!ref.startsWith("#/")) throw new Error(`Only local $refs are expected: ${ref}`);
    let target: unknown = this.document;
    for (const part of ref.slice(2).split("/")) target = (target as Json)[part.replace(/~1/g, "/").replace(/~0/g, "~")];
    if (target === undefined) throw new Error(`$ref ${ref} points nowhere`);
    return target as T;
  }
}

/** A path as a JSON Pointer token. */
const pointer = (path: string) => path.replace(/~/g, "~0").replace(/\//g, "~1");
