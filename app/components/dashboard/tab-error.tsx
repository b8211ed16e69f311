import { isRouteErrorResponse, useRouteError } from "react-router";
import { Alert, LinkButton } from "../ui";

// A tab that failed to load shows the spec's message inside the dashboard; the sidebar and the
// other tabs keep working.
export function TabError() {
  const error = useRouteError();
  const notFound = isRouteErrorResponse(error) && error.status === 404;
  if (!notFound) console.error(error);
  return (
    <div role="alert">
      <Alert tone="error">{notFound ? "This page does not exist." : "Failed to load tab content. Please try again."}</Alert>
      <div className="mt-4 flex gap-3">
        {notFound ? null : (
          <a href="" className="inline-flex items-center rounded-lg bg-brand-600 px-4 py-2 text-sm font-semibold text-white hover:bg-brand-700">
            Try Again
          </a>
        )}
        <LinkButton to="/dashboard" variant="secondary" size="md">
          Back to Overview
        </LinkButton>
      </div>
    </div>
  );
}
