// Every business number of the product spec lives here, named after the spec's words, one
// module with a file per part of the product. Times are in milliseconds unless the name says otherwise.
export * from "./accounts.ts";
export * from "./site.ts";
export * from "./time.ts";
export * from "./usage.ts";
export * from "./teams.ts";
