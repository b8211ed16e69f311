// The fields of "Confirm it's you" (issue 45): the password, and a code from the authenticator app
// where two-factor is on. Forms that change a way into the account show them while the session has
// no recent proof (the server decides: lib/auth/recent-proof.server.ts), each error beside its field.
import type { ProofFieldErrors, ProofNeeds } from "~/lib/auth/recent-proof.server";
import { TWO_FACTOR } from "~/lib/constants";
import { Field } from "../forms";

export function ProofFields({ needs, errors = {}, autoFocus = false }: { needs: ProofNeeds; errors?: ProofFieldErrors; autoFocus?: boolean }) {
  return (
    <>
      {needs.password ? (
        <Field
          labelProps={{ children: "Your password" }}
          inputProps={{ name: "password", type: "password", autoComplete: "current-password", required: true, autoFocus }}
          errors={errors.password ? [errors.password] : undefined}
        />
      ) : null}
      {needs.code ? (
        <Field
          labelProps={{ children: "Authentication code" }}
          inputProps={{
            name: "code",
            autoComplete: "one-time-code",
            inputMode: "text",
            required: true,
            maxLength: TWO_FACTOR.codeMaxLength,
            spellCheck: false,
            className: "font-mono tracking-[0.2em]",
          }}
          errors={errors.code ? [errors.code] : undefined}
          hint={`${TWO_FACTOR.digits} digits from your authenticator app, or a recovery code.`}
        />
      ) : null}
    </>
  );
}
