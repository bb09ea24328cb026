/*
 * An empty, in-memory `localStorage` for pure tests of browser modules (the session module reads
 * it when it loads). Import it before the module under test.
 */
if (!("localStorage" in globalThis)) {
  const storage = new Map<string, string>();
  Object.assign(globalThis, {
    localStorage: {
      getItem: (key: string) => storage.get(key) ?? null,
      setItem: (key: string, value: string) => void storage.set(key, value),
      removeItem: (key: string) => void storage.delete(key),
      clear: () => storage.clear(),
    },
  });
}
