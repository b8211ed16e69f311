// One button that posts one intent about one row (remove, revoke, make admin...): a plain form, so
// it works without JavaScript; the route's action reads `intent` and the row's hidden fields.
import type { ReactNode } from "react";
import { Form } from "react-router";
import { Button } from "./ui";

export function IntentButton({
  intent,
  fields,
  label,
  action,
  className,
  children,
}: {
  intent: string;
  /** The row's hidden fields, by name (its id, the role to give...). */
  fields: Record<string, string>;
  /** The button's accessible name: what it does to whom. */
  label: string;
  action?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <Form method="post" action={action} className={className}>
      <input type="hidden" name="intent" value={intent} />
      {Object.entries(fields).map(([name, value]) => (
        <input key={name} type="hidden" name={name} value={value} />
      ))}
      <Button type="submit" variant="secondary" size="sm" aria-label={label}>
        {children}
      </Button>
    </Form>
  );
}
