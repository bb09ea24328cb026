/*
 * How many of one kind of heavy request (a streamed export, a rendered PDF) each member has running
 * in this process, refused past a limit: a burst by one member (a script, a page that opens links
 * on its own) is turned away before it fills the log with records, the disk with files or the
 * server with streams and browser pages. A slot is freed exactly once, however its request ends.
 */

export interface MemberSlots {
  /** A slot for the member, with the function that frees it; none when they have the limit running. */
  readonly take: (staffId: string) => (() => void) | undefined;
}

export const memberSlots = (atOnce: number): MemberSlots => {
  const running = new Map<string, number>();
  return {
    take: (staffId) => {
      const now = running.get(staffId) ?? 0;
      if (now >= atOnce) return undefined;
      running.set(staffId, now + 1);
      let freed = false;
      return () => {
        if (freed) return;
        freed = true;
        const left = (running.get(staffId) ?? 1) - 1;
        if (left > 0) running.set(staffId, left);
        else running.delete(staffId);
      };
    },
  };
};
