import { cloudflare } from "@cloudflare/vite-plugin";
import { reactRouter } from "@react-router/dev/vite";
import tailwindcss from "@tailwindcss/vite";
import { defineConfig } from "vite";
import { buildDirectory } from "./react-router.config.ts";

const port = Number(process.env.PORT ?? 8787);
const sourceMaps = process.env.MODELIFY_SOURCEMAPS === "1";
// Every build gets its own id: the edge copies of pages are keyed by it (app/server/page-cache.ts),
// so a deploy never serves a page rendered by the build before it.
const buildId = `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`;

export default defineConfig(({ command }) => ({
  plugins: [
    cloudflare({
      viteEnvironment: { name: "ssr" },
      auxiliaryWorkers: [{ configPath: "./wrangler.consumer.toml" }],
      // `npm run dev` shares the local D1/KV/R2/Queue state of `npm start` (.wrangler/state).
      persistState: true,
      // wrangler.toml's run_worker_first rules are for the built site. The dev server serves the
      // app's modules itself (/app/…, /@vite/…), and those rules would send them to the Worker.
      config: command === "serve" ? (worker) => void (worker.assets && delete worker.assets.run_worker_first) : undefined,
    }),
    tailwindcss(),
    reactRouter(),
  ],
  // The consumer Worker's bundle sits beside the site's (build/server, build/client), so a test
  // build in its own directory leaves the running site's build alone.
  //
  // No source maps for the two Workers unless asked for (MODELIFY_SOURCEMAPS=1, e.g. to read a CPU
  // profile or a local stack trace against the source): writing them was about 0.55 s of every
  // build (four pairs of builds, 2026-11-26), and `npm start` on a fresh clone has 12 s. Deploys
  // upload none (no `upload_source_maps`), so production logs lose nothing.
  environments: {
    // The browser's chunks. React Router's <Scripts> preloads each of a page's modules with a
    // <link> of its own, and each is a request: modules every page loads go in a few chunks, not
    // one each (docs/performance.md, "Fewer, shared chunks"). A group takes only modules that every
    // page of its kind loads anyway, so no page loads more JavaScript; React Router's entry and
    // route modules stay chunks of their own.
    client: {
      build: {
        rolldownOptions: {
          output: {
            // React Router's own default, which a user `output` replaces.
            entryFileNames: "assets/[name]-[hash].js",
            codeSplitting: {
              groups: [
                // React, React DOM and React Router (and the bundler's helpers they share): every page.
                { name: "framework", test: /[\\/]node_modules[\\/](react|react-dom|scheduler|react-router)[\\/]|^\0rolldown[\\/]runtime/, priority: 3 },
                // The root route's own imports and the pieces every page's chrome uses.
                {
                  name: "shared",
                  test: /[\\/]app[\\/](components[\\/](ui|modal|nonce)\.tsx|lib[\\/](constants[\\/]\w+|honeypot|auth[\\/]messages|site[\\/]meta)\.ts)$|vite[\\/]preload-helper/,
                  priority: 2,
                },
                // The marketing pages' layout (routes/_site.tsx): its event hooks and its dialogs' switch.
                {
                  name: "site",
                  test: /[\\/]app[\\/](components[\\/]site[\\/](marketing\.tsx|site-modals\.tsx|site-modal-names\.ts)|lib[\\/]marketing[\\/](events|pixel)\.ts)$/,
                  priority: 1,
                },
              ],
            },
          },
        },
      },
    },
    ssr: { build: { sourcemap: sourceMaps } },
    modelify_consumer: { build: { outDir: `${buildDirectory}/consumer`, sourcemap: sourceMaps } },
  },
  define: { "import.meta.env.BUILD_ID": JSON.stringify(buildId) },
  // Vite's gzip of every chunk only to print its size took 1.3 s of a fresh `npm start` (12 s
  // budget); the sizes that matter are measured by scripts/bundle-size.mjs (`npm run check:js`).
  build: { reportCompressedSize: false },
  resolve: { tsconfigPaths: true },
  server: { port, strictPort: true },
}));
