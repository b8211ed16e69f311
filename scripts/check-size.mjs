// `npm run check:size` (and `npm run validate`, before the tests): the limits that keep each piece
// small enough to hold in one's head (issue 28), over all of our own code: app/, workers/, scripts/,
// bench/ and tools/ (issue 47). No file over 400 lines, no function over 80 lines, no import circle;
// and drizzle/ imports nothing from app/ (the layers run one way: app uses the schema, never the
// reverse). Prints each violation as file:line and exits 1 if there is any.
//
// TypeScript 7's compiler is a native binary; its JavaScript API (typescript/unstable/sync) runs it
// as a child process and hands back its syntax trees, so this parses exactly as `tsc -b` does. The
// .mjs/.js files are parsed by the same projects (tsconfig.node.json includes them with allowJs).
import { existsSync, readdirSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { SyntaxKind } from "typescript/unstable/ast";
import { API } from "typescript/unstable/sync";

export const MAX_FILE_LINES = 400;
export const MAX_FUNCTION_LINES = 80;
const ROOTS = ["app", "workers", "scripts", "bench", "tools"];
// Every file checked belongs to one of the two projects `tsc -b` builds.
const PROJECTS = ["tsconfig.cloudflare.json", "tsconfig.node.json"];
/** Folders that may not import from another at all: `from` sits below `to`. */
const FORBIDDEN_IMPORTS = [{ from: "drizzle", to: "app", why: "drizzle/ is the bottom layer: app/ imports the schema, never the reverse" }];
/** The folders an import specifier's aliases name (tsconfig.cloudflare.json's paths). */
const ALIASES = [
  ["~/", "app"],
  ["~drizzle/", "drizzle"],
];

const FUNCTION_KINDS = new Set([
  SyntaxKind.FunctionDeclaration,
  SyntaxKind.MethodDeclaration,
  SyntaxKind.ArrowFunction,
  SyntaxKind.FunctionExpression,
  SyntaxKind.Constructor,
  SyntaxKind.GetAccessor,
  SyntaxKind.SetAccessor,
]);
const SOURCE = /\.(ts|tsx|mts|cts|js|jsx|mjs|cjs)$/;
/** Files and folders (ending in /) under the roots that are not ours to keep small. */
const NOT_OURS = [
  // Generated, not written by hand: by `npm run cf-typegen` (postinstall) and `npm run api:client`.
  "workers/consumer-configuration.d.ts",
  "scripts/api/openapi.d.ts",
  // React Router's own templates (remix-run/react-router-templates default/ and cloudflare/ at
  // a520849), kept as published so that they stay the bench's baseline and peer: their app/ and
  // Worker are upstream's files unchanged, and reshaping them would measure something else.
  "bench/floor/",
  "bench/template/",
];
const notOurs = (file) => NOT_OURS.some((path) => (path.endsWith("/") ? file.startsWith(path) : file === path));
// Dot folders hold generated files (.react-router/ from typegen), node_modules installed ones.
const skippedFolder = (name) => name.startsWith(".") || name === "node_modules";

/** The source files under `root`, relative to `cwd`. */
function sourceFiles(cwd, root) {
  if (!existsSync(join(cwd, root))) return [];
  const files = [];
  const walk = (folder) => {
    for (const entry of readdirSync(join(cwd, folder), { withFileTypes: true })) {
      const path = join(folder, entry.name);
      if (entry.isDirectory() && !skippedFolder(entry.name)) walk(path);
      else if (entry.isFile() && SOURCE.test(entry.name) && !notOurs(path)) files.push(path);
    }
  };
  walk(root);
  return files.sort();
}

/** What a function is called in a message: its own name, or the variable or property it is assigned to. */
function functionName(node) {
  if (node.kind === SyntaxKind.Constructor) return "constructor";
  const named = node.name ?? node.parent?.name;
  if (named && typeof named.text === "string") return named.text;
  return "(anonymous)";
}

/** Lines from where the function starts (its name or first keyword) to the end of its body. */
function functionViolations(sourceFile, file) {
  const found = [];
  const line = (position) => sourceFile.getLineAndCharacterOfPosition(position).line + 1;
  const visit = (node) => {
    if (FUNCTION_KINDS.has(node.kind) && node.body) {
      const start = line(node.getStart(sourceFile));
      const lines = line(node.body.getEnd()) - start + 1;
      if (lines > MAX_FUNCTION_LINES) {
        found.push({ file, line: start, message: `function ${functionName(node)} is ${lines} lines (max ${MAX_FUNCTION_LINES})` });
      }
    }
    node.forEachChild(visit);
  };
  visit(sourceFile);
  return found;
}

/** The file (relative to cwd) a relative or aliased specifier names, or null for packages. */
function resolveImport(cwd, from, specifier) {
  const alias = ALIASES.find(([prefix]) => specifier.startsWith(prefix));
  let base;
  if (alias) base = resolve(cwd, alias[1], specifier.slice(alias[0].length));
  else if (specifier.startsWith(".")) base = resolve(cwd, dirname(from), specifier);
  else return null;
  const stem = base.replace(/\.(js|jsx|mjs)$/, "");
  for (const candidate of [base, `${stem}.ts`, `${stem}.tsx`, join(base, "index.ts"), join(base, "index.tsx")]) {
    if (statSync(candidate, { throwIfNoEntry: false })?.isFile()) return relative(cwd, candidate);
  }
  return null;
}

/** Each import circle once: Tarjan's strongly connected components, then a shortest circle through each. */
export function importCycles(graph) {
  const index = new Map();
  const low = new Map();
  const stack = [];
  const onStack = new Set();
  const components = [];
  let next = 0;
  const connect = (file) => {
    index.set(file, next);
    low.set(file, next);
    next++;
    stack.push(file);
    onStack.add(file);
    for (const { to } of graph.get(file) ?? []) {
      if (!index.has(to)) {
        connect(to);
        low.set(file, Math.min(low.get(file), low.get(to)));
      } else if (onStack.has(to)) low.set(file, Math.min(low.get(file), index.get(to)));
    }
    if (low.get(file) === index.get(file)) {
      const component = [];
      let member;
      do {
        member = stack.pop();
        onStack.delete(member);
        component.push(member);
      } while (member !== file);
      const selfImport = (graph.get(file) ?? []).some((edge) => edge.to === file);
      if (component.length > 1 || selfImport) components.push(component.sort());
    }
  };
  for (const file of [...graph.keys()].sort()) if (!index.has(file)) connect(file);
  return components.map((component) => shortestCircle(graph, new Set(component), component[0]));
}

/** Breadth-first from `start` back to itself inside one component: the import edges of the circle. */
function shortestCircle(graph, members, start) {
  const cameFrom = new Map();
  const queue = [start];
  while (queue.length) {
    const file = queue.shift();
    for (const edge of graph.get(file) ?? []) {
      if (!members.has(edge.to) || cameFrom.has(edge.to)) continue;
      cameFrom.set(edge.to, { from: file, edge });
      if (edge.to === start) {
        const edges = [];
        let at = start;
        do {
          const step = cameFrom.get(at);
          edges.unshift({ from: step.from, ...step.edge });
          at = step.from;
        } while (at !== start);
        return edges;
      }
      queue.push(edge.to);
    }
  }
  return [];
}

/** Each file's syntax tree, from whichever of the projects holds it; the API is closed after `use`. */
function withSourceFiles(cwd, files, use) {
  const api = new API({ cwd });
  try {
    const snapshot = api.updateSnapshot({ openProjects: PROJECTS });
    const programs = PROJECTS.map((config) => {
      const project = snapshot.getProject(resolve(cwd, config));
      if (!project) throw new Error(`TypeScript did not load ${config}`);
      return project.program;
    });
    for (const file of files) {
      const sourceFile = programs.map((program) => program.getSourceFile(resolve(cwd, file))).find(Boolean);
      if (!sourceFile) throw new Error(`${file} is in no project (${PROJECTS.join(", ")}): add it to one so that tsc -b reads it`);
      use(file, sourceFile);
    }
  } finally {
    api.close();
  }
}

/** Each relative or aliased import of a file: the file it names and the line it is on. */
function importsOf(cwd, file, sourceFile) {
  const found = [];
  for (const specifier of sourceFile.imports) {
    const to = resolveImport(cwd, file, specifier.text);
    if (to) found.push({ to, line: sourceFile.getLineAndCharacterOfPosition(specifier.getStart(sourceFile)).line + 1 });
  }
  return found;
}

function fileViolations(sourceFile, file) {
  const lines = sourceFile.getLineStarts().length - (sourceFile.text.endsWith("\n") ? 1 : 0);
  return lines > MAX_FILE_LINES ? [{ file, line: 1, message: `file is ${lines} lines (max ${MAX_FILE_LINES})` }] : [];
}

function layerViolations(file, imports) {
  const found = [];
  for (const rule of FORBIDDEN_IMPORTS.filter(({ from }) => file.startsWith(`${from}/`))) {
    for (const { to, line } of imports.filter(({ to }) => to.startsWith(`${rule.to}/`))) {
      found.push({ file, line, message: `imports ${to}: ${rule.why}` });
    }
  }
  return found;
}

function circleViolations(graph) {
  return importCycles(graph).map((circle) => {
    const path = [...circle.map((edge) => edge.from), circle[0].from].join(" → ");
    return { file: circle[0].from, line: circle[0].line, message: `import circle: ${path}` };
  });
}

export function checkSize({ cwd = process.cwd() } = {}) {
  const files = ROOTS.flatMap((root) => sourceFiles(cwd, root));
  const layered = FORBIDDEN_IMPORTS.flatMap(({ from }) => sourceFiles(cwd, from));
  const ours = new Set(files);
  const violations = [];
  const graph = new Map();
  withSourceFiles(cwd, [...files, ...layered], (file, sourceFile) => {
    const imports = importsOf(cwd, file, sourceFile);
    violations.push(...layerViolations(file, imports));
    if (!ours.has(file)) return;
    violations.push(...fileViolations(sourceFile, file), ...functionViolations(sourceFile, file));
    graph.set(
      file,
      imports.filter(({ to }) => ours.has(to)),
    );
  });
  return [...violations, ...circleViolations(graph)];
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const violations = checkSize();
  for (const v of violations) console.error(`${v.file}:${v.line}: ${v.message}`);
  if (violations.length) {
    console.error(`\n${violations.length} size violation${violations.length === 1 ? "" : "s"} (scripts/check-size.mjs)`);
    process.exit(1);
  }
  console.log(
    `Sizes within limits in ${ROOTS.map((root) => `${root}/`).join(", ")}: files at most ${MAX_FILE_LINES} lines, functions at most ${MAX_FUNCTION_LINES}, no import circle; drizzle/ imports nothing from app/.`,
  );
}
