import type { Config } from "@react-router/dev/config";

// The peer of `npm run bench -- --only pages`: React Router's Cloudflare template
// (remix-run/react-router-templates, cloudflare/), built with this repository's versions (its v7
// `future` flags are v8's defaults) and served by `wrangler dev` beside the app.
export default {
  ssr: true,
  buildDirectory: "../../.build/bench-template",
} satisfies Config;
