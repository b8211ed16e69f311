// The API reference page (/api-reference) read from the same document the API serves: each
// operation with its authentication, request bodies (fields, their rules, the examples) and every
// answer it lists (fields and headers). Plain data, so the page is rendered on the server from it
// and ships no OpenAPI renderer (nothing from another origin, nothing for the CSP to allow).
import { buildOpenApi } from "./index";

type Json = Record<string, unknown>;

export type FieldView = { name: string; type: string; required: boolean; rules: string[]; description?: string };
/** One shape a body may take: its fields, or its type when it is not an object with fields. */
export type ShapeView = { title?: string; description?: string; type: string; fields: FieldView[] };
type ExampleView = { name: string; summary: string; json: string };
type HeaderView = { name: string; description: string; required: boolean };
export type BodyView = { mediaType: string; shapes: ShapeView[]; examples: ExampleView[] };
export type AnswerView = { status: string; description: string; headers: HeaderView[]; bodies: BodyView[] };
export type OperationView = {
  id: string;
  method: string;
  path: string;
  summary: string;
  description?: string;
  deprecated: boolean;
  bearer: boolean;
  /** Whether a personal API key may call it (the read API), besides the access token. */
  personalKey: boolean;
  /** Its query parameters, as fields. */
  parameters: FieldView[];
  request?: { required: boolean; bodies: BodyView[] };
  answers: AnswerView[];
};
export type ReferenceView = {
  title: string;
  version: string;
  paragraphs: string[];
  license: { name: string; url: string };
  groups: Array<{ tag: string; description: string; operations: OperationView[] }>;
};

// Number.MIN/MAX_SAFE_INTEGER: zod's bounds of every integer, which say nothing to a reader.
const SAFE = 9_007_199_254_740_991;

/** The page's data: the document grouped by tag, in the document's order. */
export function apiReference(document: Json = buildOpenApi()): ReferenceView {
  const resolve = resolver(document);
  const info = document.info as { title: string; version: string; description: string; license: { name: string; url: string } };
  const tags = (document.tags ?? []) as Array<{ name: string; description: string }>;
  const operations = Object.entries(document.paths as Record<string, Record<string, Json>>).flatMap(([path, item]) =>
    Object.entries(item).map(([method, operation]) => operationView(path, method, operation, resolve)),
  );
  return {
    title: info.title,
    version: info.version,
    paragraphs: info.description.split("\n\n"),
    license: info.license,
    groups: tags.map((tag) => ({ tag: tag.name, description: tag.description, operations: operations.filter((o) => o.tag === tag.name) })),
  };
}

type Resolve = (node: unknown) => Json;

function resolver(document: Json): Resolve {
  const resolve: Resolve = (node) => {
    const object = (node ?? {}) as Json;
    if (typeof object.$ref !== "string") return object;
    let target: unknown = document;
    for (const part of object.$ref.slice(2).split("/")) target = (target as Json)[part];
    return resolve(target);
  };
  return resolve;
}

function operationView(path: string, method: string, operation: Json, resolve: Resolve): OperationView & { tag: string } {
  const requestBody = operation.requestBody as { required: boolean; content: Json } | undefined;
  return {
    id: operation.operationId as string,
    tag: (operation.tags as string[])[0]!,
    method: method.toUpperCase(),
    path,
    summary: operation.summary as string,
    description: operation.description as string | undefined,
    deprecated: operation.deprecated === true,
    bearer: (operation.security as unknown[]).length > 0,
    personalKey: (operation.security as Json[]).some((scheme) => "personalKey" in scheme),
    parameters: ((operation.parameters ?? []) as Json[]).map((raw) => {
      const parameter = resolve(raw);
      const schema = resolve(parameter.schema);
      return {
        name: parameter.name as string,
        type: typeOf(schema, resolve),
        required: parameter.required === true,
        rules: rulesOf(schema),
        description: parameter.description as string | undefined,
      };
    }),
    request: requestBody ? { required: requestBody.required, bodies: bodiesOf(requestBody.content, resolve) } : undefined,
    answers: Object.entries(operation.responses as Json).map(([status, answer]) => {
      const resolved = resolve(answer);
      return {
        status,
        description: resolved.description as string,
        headers: Object.entries((resolved.headers ?? {}) as Record<string, { description: string; required?: boolean }>).map(([name, header]) => ({
          name,
          description: header.description,
          required: header.required === true,
        })),
        bodies: bodiesOf((resolved.content ?? {}) as Json, resolve),
      };
    }),
  };
}

function bodiesOf(content: Json, resolve: Resolve): BodyView[] {
  return Object.entries(content as Record<string, { schema: Json; examples?: Record<string, { summary: string; value: unknown }> }>).map(
    ([mediaType, media]) => ({
      mediaType,
      shapes: shapesOf(resolve(media.schema), resolve),
      examples: Object.entries(media.examples ?? {}).map(([name, example]) => ({
        name,
        summary: example.summary,
        json: JSON.stringify(example.value, null, 2),
      })),
    }),
  );
}

/** A body's shapes: each alternative of a oneOf/anyOf of objects, else the one schema. */
function shapesOf(schema: Json, resolve: Resolve): ShapeView[] {
  const alternatives = ((schema.oneOf ?? schema.anyOf) as Json[] | undefined)?.map(resolve);
  const shapes = alternatives?.every((a) => a.type === "object") ? alternatives : [schema];
  return shapes.map((shape) => ({
    title: shape.title as string | undefined,
    description: shape.description as string | undefined,
    type: typeOf(shape, resolve),
    fields: fieldsOf(shape, "", resolve),
  }));
}

/** An object's fields, nested objects' and arrays' items' fields after their parent ("reports[].model_name"). */
function fieldsOf(schema: Json, prefix: string, resolve: Resolve): FieldView[] {
  const required = (schema.required ?? []) as string[];
  return Object.entries((schema.properties ?? {}) as Record<string, Json>).flatMap(([key, raw]) => {
    const field = resolve(raw);
    const name = `${prefix}${key}`;
    // The rules of an "A or B" field are its alternatives' (a string's length in "string or null").
    const alternatives = ((field.anyOf ?? field.oneOf ?? []) as Json[]).map(resolve);
    const row: FieldView = {
      name,
      type: typeOf(field, resolve),
      required: required.includes(key),
      rules: [...rulesOf(field), ...alternatives.flatMap(rulesOf)],
      description: field.description as string | undefined,
    };
    const inner = objectWithin(field, resolve);
    return [row, ...(inner ? fieldsOf(inner.schema, `${name}${inner.suffix}`, resolve) : [])];
  });
}

/** The object a field holds (itself, its array's items, or the object of an "object or null"). */
function objectWithin(field: Json, resolve: Resolve): { schema: Json; suffix: string } | null {
  if (field.properties) return { schema: field, suffix: "." };
  if (field.type === "array") {
    const items = resolve(field.items);
    return items.properties ? { schema: items, suffix: "[]." } : null;
  }
  const object = ((field.anyOf ?? field.oneOf) as Json[] | undefined)?.map(resolve).find((a) => a.properties);
  return object ? { schema: object, suffix: "." } : null;
}

function typeOf(schema: Json, resolve: Resolve): string {
  if (schema.const !== undefined) return JSON.stringify(schema.const);
  const alternatives = (schema.anyOf ?? schema.oneOf) as Json[] | undefined;
  if (alternatives) return [...new Set(alternatives.map((a) => typeOf(resolve(a), resolve)))].join(" or ");
  if (schema.type === "array") return `array of ${typeOf(resolve(schema.items), resolve)}`;
  if (typeof schema.format === "string") return `${schema.type} (${schema.format})`;
  if (schema.type === "object" && !schema.properties && schema.additionalProperties !== false) return "object (any keys)";
  return typeof schema.type === "string" ? schema.type : "any";
}

/** The schema's constraints in words; zod's blanket integer bounds are left out. */
function rulesOf(schema: Json): string[] {
  const rules: string[] = [];
  const range = (low: unknown, high: unknown, unit: string) => {
    if (typeof low === "number" && typeof high === "number") rules.push(`${low} to ${high} ${unit}`);
    else if (typeof low === "number") rules.push(`at least ${low} ${unit}`);
    else if (typeof high === "number") rules.push(`at most ${high} ${unit}`);
  };
  range(schema.minLength, schema.maxLength, "characters");
  range(schema.minItems, schema.maxItems, "items");
  const bound = (value: unknown) => (typeof value === "number" && Math.abs(value) !== SAFE ? value : undefined);
  range(bound(schema.minimum), bound(schema.maximum), "");
  if (typeof schema.exclusiveMinimum === "number") rules.push(`more than ${schema.exclusiveMinimum}`);
  if (Array.isArray(schema.enum)) rules.push(`one of ${schema.enum.map((v) => JSON.stringify(v)).join(", ")}`);
  // A date-time's pattern only restates its format.
  if (typeof schema.pattern === "string" && schema.format === undefined) rules.push(`matches ${schema.pattern}`);
  if (schema.default !== undefined) rules.push(`default ${JSON.stringify(schema.default)}`);
  if (schema.maxProperties === 0) rules.push("empty");
  if (schema.deprecated === true) rules.push("deprecated");
  return rules.map((rule) => rule.trim());
}
