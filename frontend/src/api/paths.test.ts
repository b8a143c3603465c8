import { describe, expect, it } from "vitest";
import { json, stubFetch } from "../test/fetchStub";
import { fillPath, pathUrl, typedApi, type PathWith, type ResponseOf } from "./paths";
import type { components } from "./schema.gen";

describe("paths", () => {
  it("fills a template's parameters, each as one encoded URL segment", () => {
    expect(fillPath("clusters/{cluster}/topics/{topic}", { cluster: "a/b", topic: "x y" })).toBe("clusters/a%2Fb/topics/x%20y");
    expect(fillPath("offset-resets/{reset_id}/undo", { reset_id: 7 })).toBe("offset-resets/7/undo");
    expect(() => fillPath("clusters/{cluster}", {})).toThrow("No value for {cluster}");
  });

  it("builds URLs and calls of the schema's paths", async () => {
    expect(pathUrl("spark/jobs/{job_id}/log", { path: { job_id: 3 } })).toBe("/api/v1/spark/jobs/3/log");
    const fetch = stubFetch({ "/api/v1/clusters/local/topics": json([]) });
    await typedApi.get("clusters/{cluster}/topics", { path: { cluster: "local" }, query: { include_internal: true } });
    expect(fetch).toHaveBeenCalledWith("/api/v1/clusters/local/topics?include_internal=true", expect.anything());
  });

  it("refuses, at compile time, what the schema does not have (checked by tsc, never run)", () => {
    const compileOnly = () => {
      // @ts-expect-error: no such path in the schema
      void typedApi.get("clusters/{cluster}/nope", { path: { cluster: "local" } });
      // @ts-expect-error: the schema has no DELETE on clusters/{cluster}
      void typedApi.delete("clusters/{cluster}", { path: { cluster: "local" } });
      // @ts-expect-error: a path parameter the template does not have
      void typedApi.get("clusters/{cluster}", { path: { name: "local" } });
      // @ts-expect-error: the path parameters are required
      void typedApi.get("clusters/{cluster}/brokers");
      // @ts-expect-error: not a value of the schema's `filter` enum
      void typedApi.get("clusters/{cluster}/topics", { path: { cluster: "local" }, query: { filter: "broken" } });
      // @ts-expect-error: the body is the schema's PartitionCount
      void typedApi.post("clusters/{cluster}/topics/{topic}/partitions", { path: { cluster: "a", topic: "b" }, body: { partitions: 4 } });
      // @ts-expect-error: a URL of a path the schema does not have
      void pathUrl("clusters/{cluster}/groups/{group}/offsets.json", { path: { cluster: "a", group: "b" } });
    };
    // The answers are the schema's types.
    const brokers: ResponseOf<"clusters/{cluster}/brokers", "get"> = [] as components["schemas"]["Broker"][];
    const deleted: ResponseOf<"clusters/{cluster}/groups/{group}", "delete"> = undefined;
    const deletable: PathWith<"delete">[] = ["clusters/{cluster}/groups/{group}", "clusters/{cluster}/topics/{topic}"];
    expect([typeof compileOnly, brokers, deleted, deletable.length]).toEqual(["function", [], undefined, 2]);
  });
});
