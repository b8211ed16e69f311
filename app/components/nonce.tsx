import { createContext, useContext } from "react";

// The CSP nonce of the page being rendered on the server. In the browser it is empty: browsers
// hide nonce attributes from the DOM, and scripts added after hydration are ours anyway.
const NonceContext = createContext("");

export const NonceProvider = NonceContext.Provider;

export function useNonce(): string {
  return useContext(NonceContext);
}
