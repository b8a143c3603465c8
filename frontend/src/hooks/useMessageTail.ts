import { useCallback, useEffect, useRef, useState } from "react";
import { socketUrl } from "../api/live";
import { messagesSocketPath, type TailRequest } from "../api/messages";
import { NO_ROWS, prependRecords, TAIL_OFF, TailConnection, type TailRows, type TailState } from "../lib/messageTail";

export interface MessageTail {
  state: TailState;
  rows: TailRows;
  /** Forget the records shown so far (the tail goes on). */
  clear: () => void;
}

/**
 * The live tail of a topic while `on`: the messages socket (the session cookie authenticates)
 * follows new records with `request` (filter, formats, partitions), newest first in `rows`. A
 * changed request starts the tail again; off, or the page left, cancels it and closes the socket.
 */
export function useMessageTail(cluster: string, topic: string, on: boolean, request: TailRequest): MessageTail {
  const [state, setState] = useState<TailState>(TAIL_OFF);
  const [rows, setRows] = useState<TailRows>(NO_ROWS);
  const key = JSON.stringify(request);
  const requestRef = useRef(request);
  requestRef.current = request;

  useEffect(() => {
    if (!on) {
      setState(TAIL_OFF);
      return;
    }
    setRows(NO_ROWS);
    const connection = new TailConnection({
      url: socketUrl(messagesSocketPath(cluster, topic)),
      request: requestRef.current,
      onState: setState,
      onRecords: (records) => setRows((current) => prependRecords(current, records)),
    });
    connection.start();
    return () => connection.stop();
  }, [cluster, topic, on, key]);

  const clear = useCallback(() => setRows(NO_ROWS), []);
  return { state, rows, clear };
}
