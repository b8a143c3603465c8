import { render, screen } from "@testing-library/react";
import { describe, expect, it } from "vitest";
import { ApiError } from "../api/client";
import { bannerMessage, ErrorBanner } from "./ErrorBanner";

describe("ErrorBanner", () => {
  it("shows a refused field's message without its path in front", () => {
    render(<ErrorBanner error={new ApiError(400, "invalid", "count: 'orders' already has 3 partitions.", { field: "count" })} title="Could not add partitions" />);
    expect(screen.getByTestId("error-banner")).toHaveTextContent("Could not add partitions: 'orders' already has 3 partitions.");
    expect(screen.getByTestId("error-banner")).not.toHaveTextContent("count:");
  });

  it("leaves other messages as they are", () => {
    expect(bannerMessage(new ApiError(504, "kafka_timeout", "Kafka did not answer."))).toBe("Kafka did not answer.");
    expect(bannerMessage(new Error("network: down"))).toBe("network: down");
    expect(bannerMessage(new ApiError(400, "invalid", "params.features.x: bad.", { field: "params.features.x" }))).toBe("Bad.");
  });
});
