import { atom, useAtom } from "jotai";
import { getDefaultStore } from "jotai";
import { useEffect, useRef } from "react";

/*
 * Toasts (CROSS-2): top-right, closed after 5 s, paused while the pointer is over them. Status 1
 * answers show as success, everything else as error, with the server's message as it is.
 */

export interface Toast {
  readonly id: number;
  readonly kind: "success" | "error";
  readonly message: string;
}

const toastsAtom = atom<readonly Toast[]>([]);
const store = getDefaultStore();
let nextId = 1;

const push = (kind: Toast["kind"], message: string) => {
  if (!message) return;
  store.set(toastsAtom, (list) => [...list, { id: nextId++, kind, message }]);
};

export const toast = {
  success: (message: string) => push("success", message),
  error: (message: string) => push("error", message),
  /** The envelope's own verdict: status 1 → success, else error. */
  answer: (answer: { status: number; message: string }) => push(answer.status === 1 ? "success" : "error", answer.message),
  /** Closes the error toasts still showing: a form sent again has answered them. */
  clearErrors: () => store.set(toastsAtom, (list) => list.filter((item) => item.kind !== "error")),
};

const AUTO_CLOSE_MS = 5000;

const ToastItem = ({ item, onClose }: { item: Toast; onClose: () => void }) => {
  const remaining = useRef(AUTO_CLOSE_MS);
  const started = useRef(Date.now());
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const start = () => {
    started.current = Date.now();
    timer.current = setTimeout(onClose, remaining.current);
  };
  const pause = () => {
    clearTimeout(timer.current);
    remaining.current -= Date.now() - started.current;
  };
  useEffect(() => {
    start();
    return () => clearTimeout(timer.current);
    // Starts once per toast; pausing and resuming manage the timer afterwards.
  }, []);
  return (
    <div role={item.kind === "error" ? "alert" : "status"} className={`toast toast-${item.kind}`} onMouseEnter={pause} onMouseLeave={start}>
      <span>{item.message}</span>
      <button type="button" aria-label="Close notification" onClick={onClose}>
        ×
      </button>
    </div>
  );
};

export const Toaster = () => {
  const [toasts, setToasts] = useAtom(toastsAtom);
  return (
    <div className="toaster" aria-live="polite">
      {toasts.map((item) => (
        <ToastItem key={item.id} item={item} onClose={() => setToasts((list) => list.filter((t) => t.id !== item.id))} />
      ))}
    </div>
  );
};
