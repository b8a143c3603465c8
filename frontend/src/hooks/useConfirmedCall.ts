// A button that asks for confirmation before one call (cancel a job, cancel a reassignment): the
// dialog's open state, busy while the call runs, the call's failure shown in the dialog (it stays
// open), and the answer handed on once it succeeded (the dialog then closes).
import { useState } from "react";

export function useConfirmedCall<T>(call: () => Promise<T>, onDone: (answer: T) => void) {
  const [open, setOpen] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);

  const close = () => {
    setOpen(false);
    setError(null);
  };

  const confirm = async () => {
    setBusy(true);
    setError(null);
    try {
      const answer = await call();
      setOpen(false);
      onDone(answer);
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
    } finally {
      setBusy(false);
    }
  };

  return { open, busy, error, ask: () => setOpen(true), close, confirm: () => void confirm() };
}
