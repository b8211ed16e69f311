// Phone codes without I/O: the code itself, the number format the SMS provider takes, the text.
import { PHONE_CODE } from "../constants";
import { z } from "../zod";

/** E.164: "+", a country code that does not start with 0, at most 15 digits in all. */
export const E164_PATTERN = /^\+[1-9]\d{6,14}$/;

export function isE164(phone: string): boolean {
  return E164_PATTERN.test(phone);
}

/**
 * A code as a user typed it. Spaces and dashes are forgiven ("123 456" typed without JavaScript);
 * anything else that is not exactly the code's digits is refused.
 */
export const phoneCodeInputSchema = z
  .string()
  .max(32)
  .transform((v) => v.replace(/[\s-]/g, ""))
  .pipe(z.string().regex(new RegExp(`^\\d{${PHONE_CODE.digits}}$`)));

const SPACE = 10 ** PHONE_CODE.digits;
// The largest multiple of SPACE that fits in 32 bits: values at or above it are drawn again, so
// every code is equally likely (a plain `% SPACE` would favour the low ones).
const LIMIT = Math.floor(2 ** 32 / SPACE) * SPACE;

/** A uniformly random code of PHONE_CODE.digits digits, leading zeros kept. */
export function generatePhoneCode(fill: (array: Uint32Array<ArrayBuffer>) => void = (a) => crypto.getRandomValues(a)): string {
  const word = new Uint32Array(1);
  for (;;) {
    fill(word);
    const value = word[0]!;
    if (value < LIMIT) return String(value % SPACE).padStart(PHONE_CODE.digits, "0");
  }
}

/** The code's own link: /verify-phone with the code and the number (URL-encoded, "+" included). */
export function phoneVerifyLink(origin: string, code: string, phone: string): string {
  const url = new URL("/verify-phone", origin);
  url.searchParams.set("code", code);
  url.searchParams.set("phone", phone);
  // searchParams writes the number's "+" as %2B: a bare "+" in a query reads back as a space.
  return url.toString();
}

/** The text message: the code, how long it lives, and the link that verifies in one tap. */
export function phoneCodeSms(origin: string, code: string, phone: string): { text: string; links: string[] } {
  const link = phoneVerifyLink(origin, code, phone);
  const minutes = Math.round(PHONE_CODE.ttlSeconds / 60);
  return {
    text: `Your Modelify verification code is ${code}. It expires in ${minutes} minutes. Or verify with this link: ${link}`,
    links: [link],
  };
}
