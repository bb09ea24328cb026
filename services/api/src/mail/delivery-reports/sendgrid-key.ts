import { createPublicKey, type KeyObject } from "node:crypto";

/*
 * SendGrid's Signed Event Webhook verification key, as SendGrid's settings show it: base64 DER
 * (SubjectPublicKeyInfo) of an ECDSA P-256 key. Apart from sendgrid.ts so that reading the
 * settings loads no provider SDK.
 */

/**
 * SENDGRID_WEBHOOK_PUBLIC_KEY as a key, or an error saying what is wrong with it. PEM framing is
 * tolerated (people paste it either way); any other kind of key is refused.
 */
export const readSendgridPublicKey = (text: string): KeyObject => {
  const base64 = text.replace(/-----(BEGIN|END) PUBLIC KEY-----/g, "").replace(/\s+/g, "");
  if (!/^[A-Za-z0-9+/]+={0,2}$/.test(base64)) throw new Error("is not base64");
  let key: KeyObject;
  try {
    key = createPublicKey({ key: Buffer.from(base64, "base64"), format: "der", type: "spki" });
  } catch {
    throw new Error("is not a public key (base64 DER, as SendGrid shows it)");
  }
  if (key.asymmetricKeyType !== "ec" || key.asymmetricKeyDetails?.namedCurve !== "prime256v1") {
    throw new Error("is not an ECDSA P-256 key");
  }
  return key;
};
