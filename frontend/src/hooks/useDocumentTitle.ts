import { useEffect } from "react";

/** Sets the tab title to "<title> · Kafka Console". */
export function useDocumentTitle(title: string): void {
  useEffect(() => {
    document.title = title ? `${title} · Kafka Console` : "Kafka Console";
  }, [title]);
}
