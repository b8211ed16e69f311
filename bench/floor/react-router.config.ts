import type { Config } from "@react-router/dev/config";

// The baseline of `npm run bench`: React Router's default template (remix-run/react-router-templates,
// default/), built with this repository's versions (its v7 `future` flags are v8's defaults). Its page is the least a React Router app ships.
export default {
  ssr: true,
  buildDirectory: "../../.build/bench-floor",
} satisfies Config;
