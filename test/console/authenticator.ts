// A software authenticator for the passkey tests: an ECDSA P-256 key made with WebCrypto, answering
// WebAuthn ceremonies the way a browser's credential.toJSON() does (attestation "none"). The CBOR of the
// attestation object and the COSE key comes from SimpleWebAuthn's own encoder.
import { isoBase64URL, isoCBOR, isoUint8Array } from "@simplewebauthn/server/helpers";
import { ORIGIN } from "../support/client";

const RP_ID = new URL(ORIGIN).hostname;
const sha256 = async (data: Uint8Array) => new Uint8Array(await crypto.subtle.digest("SHA-256", data));
const uint32 = (n: number) => new Uint8Array([n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255]);
const json = (value: unknown) => isoUint8Array.fromUTF8String(JSON.stringify(value));

/** DER of an ECDSA signature (SEQUENCE of two INTEGERs) from WebCrypto's r‖s, as authenticators sign. */
function der(raw: Uint8Array): Uint8Array<ArrayBuffer> {
  const integer = (bytes: Uint8Array) => {
    let start = 0;
    while (start < bytes.length - 1 && bytes[start] === 0) start++;
    const trimmed = bytes.slice(start);
    const body = trimmed[0]! & 0x80 ? isoUint8Array.concat([new Uint8Array([0]), trimmed]) : trimmed;
    return isoUint8Array.concat([new Uint8Array([0x02, body.length]), body]);
  };
  const content = isoUint8Array.concat([integer(raw.slice(0, 32)), integer(raw.slice(32))]);
  return isoUint8Array.concat([new Uint8Array([0x30, content.length]), content]);
}

type Overrides = { origin?: string; rpId?: string; counter?: number; userHandle?: string };

export class Authenticator {
  readonly credentialId = isoBase64URL.fromBuffer(crypto.getRandomValues(new Uint8Array(16)));
  counter = 0;
  userHandle: string | undefined;
  private keys: Promise<CryptoKeyPair> = crypto.subtle.generateKey(
    { name: "ECDSA", namedCurve: "P-256" },
    false,
    ["sign", "verify"],
  ) as Promise<CryptoKeyPair>;

  /** The answer to registration options (navigator.credentials.create, then toJSON()). */
  async register(options: { challenge: string; user: { id: string } }, over: Overrides = {}) {
    this.userHandle = options.user.id;
    const { publicKey } = await this.keys;
    const raw = new Uint8Array((await crypto.subtle.exportKey("raw", publicKey)) as ArrayBuffer);
    const cose = isoCBOR.encode(
      new Map<number, number | Uint8Array>([
        [1, 2], // kty: EC2
        [3, -7], // alg: ES256
        [-1, 1], // crv: P-256
        [-2, raw.slice(1, 33)],
        [-3, raw.slice(33, 65)],
      ]),
    );
    const id = isoBase64URL.toBuffer(this.credentialId);
    const authData = isoUint8Array.concat([
      await sha256(isoUint8Array.fromUTF8String(over.rpId ?? RP_ID)),
      new Uint8Array([0x45]), // user present, user verified, attested credential data
      uint32(this.counter),
      new Uint8Array(16), // aaguid
      new Uint8Array([id.length >> 8, id.length & 255]),
      id,
      cose,
    ]);
    const attestationObject = isoCBOR.encode(
      new Map<string, string | Uint8Array | Map<string, string>>([
        ["fmt", "none"],
        ["attStmt", new Map<string, string>()],
        ["authData", authData],
      ]),
    );
    const clientData = {
      type: "webauthn.create",
      challenge: options.challenge,
      origin: over.origin ?? ORIGIN,
    };
    return JSON.stringify({
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(json(clientData)),
        attestationObject: isoBase64URL.fromBuffer(attestationObject),
        transports: ["internal"],
      },
    });
  }

  /** The answer to sign-in options (navigator.credentials.get, then toJSON()); the counter grows. */
  async signIn(options: { challenge: string }, over: Overrides = {}) {
    this.counter = over.counter ?? this.counter + 1;
    const authData = isoUint8Array.concat([
      await sha256(isoUint8Array.fromUTF8String(over.rpId ?? RP_ID)),
      new Uint8Array([0x05]), // user present, user verified
      uint32(this.counter),
    ]);
    const clientDataJSON = json({
      type: "webauthn.get",
      challenge: options.challenge,
      origin: over.origin ?? ORIGIN,
    });
    const signed = isoUint8Array.concat([authData, await sha256(clientDataJSON)]);
    const { privateKey } = await this.keys;
    const signature = new Uint8Array(
      await crypto.subtle.sign({ name: "ECDSA", hash: "SHA-256" }, privateKey, signed),
    );
    return JSON.stringify({
      id: this.credentialId,
      rawId: this.credentialId,
      type: "public-key",
      authenticatorAttachment: "platform",
      clientExtensionResults: {},
      response: {
        clientDataJSON: isoBase64URL.fromBuffer(clientDataJSON),
        authenticatorData: isoBase64URL.fromBuffer(authData),
        signature: isoBase64URL.fromBuffer(der(signature)),
        userHandle: over.userHandle ?? this.userHandle,
      },
    });
  }
}
