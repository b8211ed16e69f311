// The Edit Profile form read and written through the DOM: its inputs are uncontrolled (the form
// works without JavaScript), so the dialog's logic reads and sets them on the element itself.
import { PROFILE_FORM_FIELDS, type ProfileFormField, type ProfileFormValues } from "~/lib/profile/form-fields";

export function formValues(form: HTMLFormElement, saved: ProfileFormValues): ProfileFormValues {
  const data = new FormData(form);
  const values = { ...saved };
  for (const field of PROFILE_FORM_FIELDS) {
    const v = data.get(field);
    if (typeof v === "string") values[field] = v;
  }
  return values;
}

/** The e-mail change's proof (the password and a two-factor code) leaves the form once it is sent. */
export function clearPassword(form: HTMLFormElement) {
  for (const name of ["currentPassword", "currentCode"]) {
    const element = form.elements.namedItem(name);
    if (element instanceof HTMLInputElement) element.value = "";
  }
}

export function setFieldValue(form: HTMLFormElement, field: ProfileFormField, value: string) {
  const element = form.elements.namedItem(field);
  if (element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement || element instanceof HTMLSelectElement) {
    if (!element.disabled) element.value = value;
  }
}
