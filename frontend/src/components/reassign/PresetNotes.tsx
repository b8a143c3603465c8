import type { PresetForm } from "../../lib/reassign";

/** Above the form, what a link preset: the broker drained, what of its replicas was not read, and
 * what it named that the cluster does not have. */
export function PresetNotes({ preset }: { preset: PresetForm }) {
  return (
    <>
      {preset.drain !== null && (
        <p className="notice" data-testid="reassign-drain-note" data-broker={preset.drain}>
          Draining broker {preset.drain}: its topics are chosen and it is left out of the target brokers. Preview to
          see what moves.
        </p>
      )}
      {preset.drainWarning && (
        <p className="notice notice-warn" data-testid="reassign-drain-unread">
          {preset.drainWarning}
        </p>
      )}
      {preset.ignored.length > 0 && (
        <p className="notice notice-warn" data-testid="reassign-preset-ignored">
          Ignored from the link: {preset.ignored.join(", ")}.
        </p>
      )}
    </>
  );
}
