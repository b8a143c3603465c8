import { Link, useLocation } from "react-router-dom";
import { PageShell } from "../components/PageShell";
import { useDocumentTitle } from "../hooks/useDocumentTitle";

export function NotFoundPage() {
  useDocumentTitle("Not found");
  const { pathname } = useLocation();
  return (
    <PageShell title="Page not found" className="not-found" testId="not-found">
      <p>
        There is no page at <code>{pathname}</code>.
      </p>
      <p>
        <Link to="/">Back to the clusters</Link>
      </p>
    </PageShell>
  );
}
