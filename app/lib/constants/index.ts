// Every business number of the product spec lives here, named after the spec's words, one
// module with a file per part of the product. Times are in milliseconds unless the name says otherwise.
export * from "./accounts";
export * from "./site";
export * from "./time";
export * from "./usage";
