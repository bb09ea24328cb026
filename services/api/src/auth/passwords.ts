import { hash, verify } from "@node-rs/argon2";

/*
 * Passwords are hashed with argon2id (memory-hard; the library's defaults follow OWASP's
 * minimum: 19 MiB, 2 passes). A hash computed for an unknown e-mail keeps sign-in's timing the
 * same whether or not the account exists.
 */

export const hashPassword = (password: string): Promise<string> => hash(password);

export const verifyPassword = async (passwordHash: string, password: string): Promise<boolean> => {
  try {
    return await verify(passwordHash, password);
  } catch {
    return false;
  }
};

let decoy: Promise<string> | undefined;

/** Spends the time a real verification would, for an e-mail that has no account. */
export const verifyNothing = async (password: string): Promise<false> => {
  decoy ??= hashPassword("no account has this password");
  await verifyPassword(await decoy, password);
  return false;
};
