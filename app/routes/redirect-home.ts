// /waitlist, /fast-waitlist, /old-waitlist, /debug, /main and every unknown path go home (spec §2).
import { redirect } from "react-router";

export function loader() {
  throw redirect("/");
}

export function action() {
  throw redirect("/");
}
