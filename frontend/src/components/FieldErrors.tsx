import type { ReactNode } from "react";

/** A field's problems as every form here shows them: beside it, one message a line (nothing when
 * there are none). */
export function FieldErrors({ messages, testId, id }: { messages: readonly ReactNode[] | undefined; testId: string; id?: string }) {
  if (!messages?.length) return null;
  return (
    <div id={id} className="field-error" role="alert" data-testid={testId}>
      {messages.map((message, index) => (
        <p key={index} className="field-error-line">
          {message}
        </p>
      ))}
    </div>
  );
}
