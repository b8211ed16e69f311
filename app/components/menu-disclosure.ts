// A <details> element used as a menu (the dashboard's tabs and the site's links on a phone): it
// opens and closes without JavaScript, by touch and by keyboard (Enter, Space on its summary); with
// JavaScript, Escape (focus back on the summary), a press outside and choosing a link close it too.
import { useEffect, useRef } from "react";

export function useMenuDisclosure() {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    const details = ref.current;
    if (!details) return;
    const onKey = (event: KeyboardEvent) => {
      if (event.key !== "Escape" || !details.open) return;
      details.open = false;
      details.querySelector("summary")?.focus();
    };
    const onPress = (event: PointerEvent) => {
      if (details.open && !details.contains(event.target as Node)) details.open = false;
    };
    document.addEventListener("keydown", onKey);
    document.addEventListener("pointerdown", onPress);
    return () => {
      document.removeEventListener("keydown", onKey);
      document.removeEventListener("pointerdown", onPress);
    };
  }, []);
  /** For a link's click: the page it opens shows with the menu closed. */
  const close = () => {
    if (ref.current) ref.current.open = false;
  };
  return { ref, close };
}
