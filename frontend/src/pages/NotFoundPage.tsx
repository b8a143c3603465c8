import { Link, useLocation } from "react-router-dom";
import { useDocumentTitle } from "../hooks/useDocumentTitle";

export function NotFoundPage() {
  useDocumentTitle("Not found");
  const { pathname } = useLocation();
  return (
    <section className="page not-found" data-testid="not-found">
      <h1>Page not found</h1>
      <p>
        There is no page at <code>{pathname}</code>.
      </p>
      <p>
        <Link to="/">Back to the clusters</Link>
      </p>
    </section>
  );
}
