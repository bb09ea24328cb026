/**
 * QUEUE-13, ORDER-12: the chat link from the order's phone number. A number written with its own
 * "+" already carries the country code; otherwise the order's country phone code goes first.
 * No digits, no link.
 */
export const chatLinkFor = (phoneNumber: string | undefined, countryPhoneCode: string | undefined): string | undefined => {
  const phone = (phoneNumber ?? "").trim();
  const digits = phone.startsWith("+") ? phone.replace(/\D/g, "") : `${(countryPhoneCode ?? "").replace(/\D/g, "")}${phone.replace(/\D/g, "")}`;
  return digits.length >= 6 ? `https://wa.me/${digits}` : undefined;
};
