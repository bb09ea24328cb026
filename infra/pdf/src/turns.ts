/*
 * Tasks taking turns: at most `atOnce` run at a time, the rest wait in the order they came. A task
 * that fails hands its turn on like one that succeeds.
 */
export const turns = (atOnce: number) => {
  let running = 0;
  const waiting: (() => void)[] = [];
  return async <T>(task: () => Promise<T>): Promise<T> => {
    if (running < atOnce) running += 1;
    // The turn is handed over, not given back: `running` stays counted for the task woken.
    else await new Promise<void>((resolve) => waiting.push(resolve));
    try {
      return await task();
    } finally {
      const next = waiting.shift();
      if (next) next();
      else running -= 1;
    }
  };
};
