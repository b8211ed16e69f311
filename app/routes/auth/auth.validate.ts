// The browser's check of the /auth forms, loaded by routes/auth/index.tsx when a form is first focused:
// zod, the schemas and conform's zod adapter are about 28 KiB gzip that the page itself does not
// need. The server checks the same schemas (auth.server.ts).
import type { Submission } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod/v4";
import type { z } from "zod";
import type { AuthMode } from "~/lib/auth/modes";
import { forgotPasswordSchema, signInSchema, signUpSchema } from "~/lib/auth/validation";

const AUTH_FORM_SCHEMAS = { signin: signInSchema, signup: signUpSchema, "forgot-password": forgotPasswordSchema } satisfies Record<AuthMode, unknown>;

export type AuthFormSchema<Mode extends AuthMode> = (typeof AUTH_FORM_SCHEMAS)[Mode];

export function validateAuthForm<Mode extends AuthMode>(mode: Mode, formData: FormData) {
  // parseWithZod takes its value type from a schema's type, which an index into the table by a
  // type parameter does not give it.
  return parseWithZod(formData, { schema: AUTH_FORM_SCHEMAS[mode] }) as Submission<z.input<AuthFormSchema<Mode>>, string[], z.output<AuthFormSchema<Mode>>>;
}
