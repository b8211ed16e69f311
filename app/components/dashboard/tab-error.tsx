import { useEffect } from "react";
import { isRouteErrorResponse, useRouteError } from "react-router";
import { Alert, LinkButton, ReloadLink } from "../ui";

// A tab that failed to load shows the spec's message inside the dashboard; the sidebar and the
// other tabs keep working.
export function TabError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  // In the browser's console only: on the server the error is in the request's log line
  // (entry.server.tsx handleError), with its stack and without what it might quote.
  useEffect(() => {
    if (!notFound) console.error(error);
  }, [error, notFound]);
  return (
    <div role="alert">
      <h1 className="sr-only">{notFound ? "Page not found" : "This tab could not load"}</h1>
      <Alert tone="error">{notFound ? "This page does not exist." : "Failed to load tab content. Please try again."}</Alert>
      <div className="mt-4 flex gap-3">
        {notFound ? null : <ReloadLink>Try Again</ReloadLink>}
        <LinkButton to="/dashboard" variant="secondary" size="md">
          Back to Overview
        </LinkButton>
      </div>
    </div>
  );
}
