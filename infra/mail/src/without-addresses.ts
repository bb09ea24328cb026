/*
 * Providers quote the recipient in their errors and bounce diagnoses ("550 5.1.1 <ann@example.com>:
 * Recipient address rejected"). Those texts are recorded in events that carry no personal data,
 * so every address is replaced before they are.
 */

/** A run of characters that can stand in an address; the text between runs separates them. */
const WORD = /[^\s<>"'(),;:]+/g;

/** Something before an '@' and a dot inside what follows it: a word a provider wrote as an address. */
const looksLikeAddress = (word: string): boolean => {
  const at = word.indexOf("@");
  return at > 0 && word.slice(at + 2, -1).includes(".");
};

/**
 * Each word is looked at once (a pattern for the address itself moved quadratically over a long
 * word with no '@'); a word that holds an address is replaced whole.
 */
export const withoutAddresses = (text: string): string => text.replace(WORD, (word) => (looksLikeAddress(word) ? "[recipient]" : word));
