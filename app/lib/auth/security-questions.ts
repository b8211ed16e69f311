// The five security questions of sign-up, apart from the schemas so that the sign-up
// form can list them without loading zod.
export const SECURITY_QUESTIONS = [
  { value: "favorite_color", label: "What is your favorite color?" },
  { value: "first_pet", label: "What was the name of your first pet?" },
  { value: "first_car", label: "What was the make of your first car?" },
  { value: "mother_maiden_name", label: "What is your mother's maiden name?" },
  { value: "favorite_food", label: "What is your favorite food?" },
] as const;
