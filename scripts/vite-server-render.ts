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
