import { Form } from "react-router";
import { AuthShell } from "./auth-shell";
import { Alert, Button, LinkButton } from "./ui";

// The page behind a "go to Stripe" form post: without JavaScript it offers the button, and when
// Stripe could not be reached it shows the error with a way back.
export function StripeRedirectPage({
  error,
  title,
  subtitle,
  button,
  errorTitle,
  back,
}: {
  error: string | undefined;
  title: string;
  subtitle: string;
  button: string;
  errorTitle: string;
  back: { to: string; label: string };
}) {
  if (error === undefined) {
    return (
      <AuthShell title={title} subtitle={subtitle}>
        <Form method="post">
          <Button type="submit" size="lg" className="w-full">
            {button}
          </Button>
        </Form>
      </AuthShell>
    );
  }
  return (
    <AuthShell title={errorTitle}>
      <Alert tone="error">{error}</Alert>
      <LinkButton to={back.to} className="mt-6 w-full">
        {back.label}
      </LinkButton>
    </AuthShell>
  );
}
