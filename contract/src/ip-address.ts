/*
 * An IPv6 address's eight groups as written, the `::` gap filled with zeros: "2001:db8::1" is
 * 2001, db8, 0, 0, 0, 0, 0, 1. Throttles count a client by its first four (the /64) and the public
 * history shows the first three; neither may mistake a host group for a network one.
 */
export const ipv6Groups = (ip: string): string[] => {
  const [head = "", tail = ""] = ip.split("::");
  const left = head === "" ? [] : head.split(":");
  const right = tail === "" ? [] : tail.split(":");
  return ip.includes("::") ? [...left, ...Array<string>(Math.max(0, 8 - left.length - right.length)).fill("0"), ...right] : left;
};
