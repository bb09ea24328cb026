import { atom, getDefaultStore, useAtomValue } from "jotai";

/*
 * A polite live region (issue 16 part C): what a keyboard move or a command's result changed on
 * the screen, spoken by a screen reader without moving focus. One message at a time; the same
 * text twice is still spoken, because each message gets a fresh key and so a fresh text node.
 */

interface Announcement {
  readonly id: number;
  readonly message: string;
}

const announcementAtom = atom<Announcement>({ id: 0, message: "" });
const store = getDefaultStore();

/** Says `message` through the live region on the screen (nothing when none is mounted). */
export const announce = (message: string): void => {
  store.set(announcementAtom, (last) => ({ id: last.id + 1, message }));
};

/** The region itself: visually hidden, present before any message so the first one is spoken. */
export const LiveRegion = () => {
  const { id, message } = useAtomValue(announcementAtom);
  return (
    <div className="visually-hidden live-region" role="status" aria-live="polite" aria-atomic="true">
      <span key={id}>{message}</span>
    </div>
  );
};
