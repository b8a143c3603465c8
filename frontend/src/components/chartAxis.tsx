// What every chart's axes share (in the lazily loaded chart chunk with recharts): tick labels drawn
// on one line (recharts' own label breaks a label wider than the axis into several lines), and the
// width a chart is drawn at, measured, so that the time ticks (lib/chartTicks) fit it.
import { useEffect, useRef, useState, type ReactNode } from "react";
import type { TextAnchor } from "recharts";

/** Width used where the browser cannot measure (no ResizeObserver, e.g. jsdom). */
export const FALLBACK_CHART_WIDTH = 640;

/** The width of the element `ref` is put on, followed as it resizes; `fallback` until measured. */
export function useMeasuredWidth<T extends HTMLElement = HTMLDivElement>(fallback = FALLBACK_CHART_WIDTH) {
  const ref = useRef<T>(null);
  const [width, setWidth] = useState(fallback);
  useEffect(() => {
    const element = ref.current;
    if (!element || typeof ResizeObserver === "undefined") return;
    const observer = new ResizeObserver((entries) => {
      const measured = entries[0]?.contentRect.width;
      if (measured && measured > 0) setWidth(Math.round(measured));
    });
    observer.observe(element);
    return () => observer.disconnect();
  }, []);
  return [ref, width] as const;
}

/** What recharts hands a custom tick (XAxisTickContentProps / YAxisTickContentProps, loosely). */
export interface AxisTickProps {
  x?: number | string;
  y?: number | string;
  payload?: { value?: unknown };
  index?: number;
  tickFormatter?: ((value: never, index: number) => string) | undefined;
  textAnchor?: TextAnchor;
  verticalAnchor?: "start" | "middle" | "end";
  fill?: string;
  fontSize?: number | string;
  className?: string;
}

/**
 * A tick label as one SVG text: never wrapped (whatever width the axis has), never split. `anchor`
 * may pull a label at an end of the axis inwards so that it is not clipped (chartTicks.edgeAnchor).
 */
export function AxisTick({
  x,
  y,
  payload,
  index = 0,
  tickFormatter,
  textAnchor = "middle",
  verticalAnchor = "middle",
  fill,
  fontSize,
  className,
  anchor,
}: AxisTickProps & { anchor?: (value: unknown, text: string) => TextAnchor | undefined }): ReactNode {
  const value = payload?.value;
  const text = tickFormatter ? (tickFormatter as (v: unknown, i: number) => string)(value, index) : String(value ?? "");
  const dy = verticalAnchor === "start" ? "0.71em" : verticalAnchor === "middle" ? "0.355em" : "0";
  return (
    <text
      x={x}
      y={y}
      dy={dy}
      textAnchor={anchor?.(value, text) ?? textAnchor}
      fill={fill}
      fontSize={fontSize}
      className={className}
      style={{ whiteSpace: "pre" }}
      data-tick={text}
    >
      {text}
    </text>
  );
}

/** recharts' `tick` prop drawing AxisTick (optionally anchored by `anchor`). */
export function oneLineTick(anchor?: (value: unknown, text: string) => TextAnchor | undefined) {
  return function OneLineTick(props: AxisTickProps) {
    return <AxisTick {...props} anchor={anchor} />;
  };
}
