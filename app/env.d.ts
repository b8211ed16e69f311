/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** This build's id (vite.config.ts): keys the edge copies of pages. */
  readonly BUILD_ID: string;
}
