/*
 * Providers quote the recipient in their errors and bounce diagnoses ("550 5.1.1 <ann@example.com>:
 * Recipient address rejected"). Those texts are recorded in events that carry no personal data,
 * so every address is replaced before they are.
 */

const ADDRESS = /[^\s<>"'(),;:@]+@[^\s<>"'(),;:@]+\.[^\s<>"'(),;:@]+/g;

export const withoutAddresses = (text: string): string => text.replace(ADDRESS, "[recipient]");
