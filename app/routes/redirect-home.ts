// /waitlist, /fast-waitlist, /old-waitlist, /debug, /main and every unknown path go home: they were pages of an earlier site.
import { redirect } from "react-router";

export function loader() {
  throw redirect("/");
}

export function action() {
  throw redirect("/");
}
