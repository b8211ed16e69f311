// `npm run check:dependencies` (part of `npm run validate`): no build plugin edits a dependency's
// code (issue 47). The site is built as `react-router build` builds it (every environment: the
// browser's, the Worker's, the queue consumer's), with one more plugin that watches the others:
// each plugin's transform hook is wrapped, and a plugin that hands back a module under
// node_modules/ changed fails the check, naming the plugin and the file. Vite's own plugins
// (`vite:…`) do what Vite does to every project; anything else, this repository's or a
// package's, may not rewrite a library: a library is upgraded as its authors ship it.
import { rmSync } from "node:fs";
import { createBuilder } from "vite";
import { buildDirFor } from "./lib.mjs";

const OUT = buildDirFor("dependency-check");
const DEPENDENCY = /[\\/]node_modules[\\/]/;
const edits = new Map();

/** The code a transform hook handed back, or null when it left the module as it was. */
function changedCode(result, code) {
  if (result === null || result === undefined) return null;
  const out = typeof result === "string" ? result : result.code;
  return typeof out === "string" && out !== code ? out : null;
}

function watch(plugin) {
  const hook = plugin.transform;
  if (!hook || plugin.name.startsWith("vite:")) return;
  const handler = typeof hook === "function" ? hook : hook.handler;
  const wrapped = async function (code, id, options) {
    const result = await handler.call(this, code, id, options);
    if (DEPENDENCY.test(id) && changedCode(result, code) !== null) {
      const file = id
        .split(/[\\/]node_modules[\\/]/)
        .pop()
        .split("?")[0];
      edits.set(`${plugin.name}: ${file}`, true);
    }
    return result;
  };
  plugin.transform = typeof hook === "function" ? wrapped : { ...hook, handler: wrapped };
}

/** Wraps every other plugin's transform once the configuration (and each environment's) is resolved. */
const watcher = {
  name: "modelify:dependency-watch",
  configResolved(config) {
    for (const plugin of config.plugins) watch(plugin);
  },
};

rmSync(OUT, { recursive: true, force: true });
process.env.MODELIFY_BUILD_DIR = OUT;
const builder = await createBuilder({ configFile: "vite.config.ts", plugins: [watcher], logLevel: "warn" });
await builder.buildApp();
rmSync(OUT, { recursive: true, force: true });

if (edits.size > 0) {
  console.error(
    `A build plugin changed a dependency's code (issue 47: libraries as their authors ship them):\n${[...edits.keys()].map((e) => `  ${e}`).join("\n")}`,
  );
  process.exit(1);
}
console.log("No build plugin changed a dependency's code.");
