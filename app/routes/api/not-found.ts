// Unknown API paths answer in JSON, not with the site's redirect.
const notFound = () => Response.json({ error: "Not found" }, { status: 404 });
export const loader = notFound;
export const action = notFound;
