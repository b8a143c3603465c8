import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import type { SparkJob } from "../../api/types";
import { json, stubFetch } from "../../test/fetchStub";
import { VIEWER } from "../../test/fixtures";
import { renderApp } from "../../test/render";
import { EXPORT_RESULT, PROFILE_RESULT, SPARK_JOB_TYPES, sparkJob } from "../../test/sparkFixtures";
import { ExportDownload } from "./ExportDownload";

function exportJob(overrides: Partial<SparkJob> = {}): SparkJob {
  return sparkJob({ id: 7, job_type: "topic-export", state: "succeeded", progress: 1, result: EXPORT_RESULT, ...overrides });
}

describe("ExportDownload", () => {
  it("links a succeeded export's file, with its format and size", () => {
    render(<ExportDownload job={exportJob()} />);
    const link = screen.getByRole("link", { name: "Download (JSON lines, gzip, 12.3 MiB)" });
    expect(link).toHaveAttribute("href", "/api/v1/spark/jobs/7/download");
    expect(link).toHaveAttribute("download");
    expect(link).toHaveAttribute("title", "57 records, one JSON object per line, gzip-compressed");
  });

  it("says why an export wrote no file", () => {
    const result = { ...EXPORT_RESULT, download: null, download_skipped: "The output directory hdfs://nn/x is remote." };
    render(<ExportDownload job={exportJob({ result })} />);
    expect(screen.queryByRole("link")).toBeNull();
    expect(screen.getByTestId("job-download-skipped")).toHaveTextContent("No file to download: The output directory hdfs://nn/x is remote.");
  });

  it("shows nothing before the export succeeded, for an export from before downloads, or another job type", () => {
    const { download: _download, download_skipped: _skipped, ...older } = EXPORT_RESULT;
    const jobs = [
      exportJob({ state: "running", result: null }),
      exportJob({ state: "failed", result: null, error: "boom" }),
      exportJob({ result: older }),
      sparkJob({ job_type: "topic-profile", state: "succeeded", result: PROFILE_RESULT }),
    ];
    for (const job of jobs) {
      const { container, unmount } = render(<ExportDownload job={job} />);
      expect(container).toBeEmptyDOMElement();
      unmount();
    }
  });

  it("is on the job page of a succeeded export, for a viewer too", async () => {
    stubFetch({
      "/api/v1/me": json(VIEWER),
      "/api/v1/spark/job-types": json(SPARK_JOB_TYPES),
      "/api/v1/spark/jobs/7": json(exportJob()),
    });
    renderApp("/spark/jobs/7");
    expect(await screen.findByTestId("job-download")).toHaveAttribute("href", "/api/v1/spark/jobs/7/download");
  });
});
