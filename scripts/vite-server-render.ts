// A Vite plugin for the server render's cost (ADR 0027, docs/performance.md): exact edits to the
// server code of the libraries that render a page, each measured side by side against the code as
// shipped (`npm run bench:ab`). The build stops if a library's code no longer reads as expected,
// so an upgrade cannot drop an edit silently: re-measure, then update or remove the edit. Only the
// Workers' bundles are edited; the browser gets the libraries as they are.
import type { Plugin } from "vite";

interface Edit {
  /** What the edit is for, in the build's error. */
  name: string;
  file: RegExp;
  from: string;
  to: string;
}

// Paths whose route matches an isolate remembers (the site has about 70 routes; the rest are ids).
const MATCHES_REMEMBERED = 500;

const EDITS: Edit[] = [
  {
    // app/entry.server.tsx renders with React's string build (the one React ships for Bun). It
    // measures each finished part of the page in UTF-8 bytes, a `Buffer.byteLength` call per
    // chunk, only to decide which Suspense boundaries to send later as separate chunks. This site
    // sends none later (`progressiveChunkSize: Infinity`), and that call per chunk cost as much as
    // the strings saved: the measure becomes the string's length, which needs no call.
    name: "React's chunk size as a length",
    file: /[\\/]react-dom[\\/]cjs[\\/]react-dom-server\.bun\.(production|development)\.js$/,
    from: `function byteLengthOfChunk(chunk) {
  return Buffer.byteLength(chunk, "utf8");
}`,
    to: `function byteLengthOfChunk(chunk) {
  return chunk.length;
}`,
  },
  {
    // React Router matches a document request's path against the whole route table three times
    // (the request handler, the static handler's query, the render), each a walk over every
    // ranked branch until one fits. The answer depends only on the path and the table, which is
    // fixed for the isolate's life: it is remembered per path, at most 500 paths, the oldest
    // forgotten first, and each caller gets its own copies of the match objects (they share one
    // params object per match, as React Router's own do).
    name: "React Router's matches remembered per path",
    file: /[\\/]react-router[\\/]dist[\\/](production|development)[\\/]lib[\\/]router[\\/]matcher\.js$/,
    from: `	update(routes) {
		this.#routes = routes;
		this.#branches = flattenAndRankRoutes(routes);
	}
	match(locationArg, allowPartial = false) {
		return matchRoutesImpl(this.#routes, locationArg, this.#basename, allowPartial, this.#branches);
	}`,
    to: `	#remembered = new Map();
	update(routes) {
		this.#routes = routes;
		this.#branches = flattenAndRankRoutes(routes);
		this.#remembered.clear();
	}
	match(locationArg, allowPartial = false) {
		let key = (allowPartial ? "p" : "w") + (typeof locationArg === "string" ? locationArg : locationArg.pathname || "/");
		let matches = this.#remembered.get(key);
		if (matches === undefined) {
			matches = matchRoutesImpl(this.#routes, locationArg, this.#basename, allowPartial, this.#branches);
			if (this.#remembered.size >= ${MATCHES_REMEMBERED}) this.#remembered.delete(this.#remembered.keys().next().value);
			this.#remembered.set(key, matches);
		}
		if (matches === null) return null;
		let params = { ...matches[0].params };
		return matches.map((match) => ({ ...match, params }));
	}`,
  },
  {
    // React Router rebuilds its whole route tree from the build's manifest for every document it
    // renders: the route objects of the render (createServerRoutes), the static router's data
    // routes (convertRoutesToDataRoutes) and the map of route modules, 70 routes each time, only to
    // use the few that matched. All three depend on the build alone, which is fixed for the
    // isolate's life (React Router keeps nothing per request in them: the request's state is in
    // the context beside them). They are built once per manifest, keyed by the build's own objects.
    name: "React Router's render routes built once",
    file: /[\\/]react-router[\\/]dist[\\/](production|development)[\\/]lib[\\/]dom[\\/]ssr[\\/]server\.js$/,
    from: `function ServerRouter({ context, url, nonce }) {
	if (typeof url === "string") url = new URL(url);
	let { manifest, routeModules, criticalCss, serverHandoffString } = context;
	let routes = createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);`,
    to: `const serverRoutesBuilt = new WeakMap();
function ServerRouter({ context, url, nonce }) {
	if (typeof url === "string") url = new URL(url);
	let { manifest, routeModules, criticalCss, serverHandoffString } = context;
	let routes = serverRoutesBuilt.get(manifest.routes);
	if (routes === undefined) {
		routes = createServerRoutes(manifest.routes, routeModules, context.future, context.isSpaMode);
		serverRoutesBuilt.set(manifest.routes, routes);
	}`,
  },
  {
    name: "React Router's static data routes built once",
    file: /[\\/]react-router[\\/]dist[\\/](production|development)[\\/]lib[\\/]dom[\\/]server\.js$/,
    from: `function createStaticRouter(routes, context, opts = {}) {
	warning(opts.branches == null, "\`createStaticRouter({ branches })\` is deprecated and no longer used. Branch caching is done automatically inside the static router.");
	let manifest = {};
	let dataRoutes = convertRoutesToDataRoutes(routes, void 0, void 0, manifest);`,
    to: `const staticDataRoutesBuilt = new WeakMap();
function createStaticRouter(routes, context, opts = {}) {
	warning(opts.branches == null, "\`createStaticRouter({ branches })\` is deprecated and no longer used. Branch caching is done automatically inside the static router.");
	let built = staticDataRoutesBuilt.get(routes);
	if (built === undefined) {
		let manifest = {};
		built = { manifest, dataRoutes: convertRoutesToDataRoutes(routes, void 0, void 0, manifest) };
		staticDataRoutesBuilt.set(routes, built);
	}
	let { manifest, dataRoutes } = built;`,
  },
  {
    name: "React Router's route modules listed once",
    file: /[\\/]react-router[\\/]dist[\\/](production|development)[\\/]lib[\\/]server-runtime[\\/]entry\.js$/,
    from: `function createEntryRouteModules(manifest) {
	return Object.keys(manifest).reduce((memo, routeId) => {`,
    to: `const entryRouteModulesListed = new WeakMap();
function createEntryRouteModules(manifest) {
	let listed = entryRouteModulesListed.get(manifest);
	if (listed === undefined) entryRouteModulesListed.set(manifest, (listed = listEntryRouteModules(manifest)));
	return listed;
}
function listEntryRouteModules(manifest) {
	return Object.keys(manifest).reduce((memo, routeId) => {`,
  },
];

/** Applies `EDITS` to the Workers' copies of React and React Router. */
export function serverRenderEdits(): Plugin {
  return {
    name: "modelify:server-render-edits",
    enforce: "pre",
    transform(code, id) {
      if (this.environment.config.consumer !== "server") return null;
      const edit = EDITS.find((e) => e.file.test(id));
      if (!edit) return null;
      if (code.split(edit.from).length !== 2) {
        this.error(`${edit.name}: ${id} no longer reads as scripts/vite-server-render.ts expects; re-measure and update or remove the edit`);
      }
      return { code: code.replace(edit.from, edit.to), map: null };
    },
  };
}
