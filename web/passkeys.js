// Passkeys (WebAuthn): the server's options come with binary fields as
// base64url text; the browser's API takes and gives ArrayBuffers.

import { api } from './api.js';

function bytes(text) {
  const base64 = text.replace(/-/g, '+').replace(/_/g, '/').padEnd(Math.ceil(text.length / 4) * 4, '=');
  return Uint8Array.from(atob(base64), (c) => c.charCodeAt(0)).buffer;
}

function text(buffer) {
  if (!buffer) return null;
  const chars = String.fromCharCode(...new Uint8Array(buffer));
  return btoa(chars).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

/** Registers a passkey for the logged-in account; answers the server's answer. */
export async function registerPasskey() {
  const { ceremony, options } = await api.passkeyRegisterStart();
  const publicKey = options.publicKey;
  publicKey.challenge = bytes(publicKey.challenge);
  publicKey.user.id = bytes(publicKey.user.id);
  publicKey.excludeCredentials = (publicKey.excludeCredentials || []).map((c) => ({ ...c, id: bytes(c.id) }));
  // A discoverable credential: the passkey names its account at login.
  publicKey.authenticatorSelection = { ...(publicKey.authenticatorSelection || {}), residentKey: 'required', requireResidentKey: true };
  const made = await navigator.credentials.create({ publicKey });
  const credential = {
    id: made.id,
    rawId: text(made.rawId),
    type: made.type,
    response: {
      attestationObject: text(made.response.attestationObject),
      clientDataJSON: text(made.response.clientDataJSON),
    },
    extensions: made.getClientExtensionResults(),
  };
  return api.passkeyRegisterFinish(ceremony, credential);
}

/** Logs in with a passkey this device holds; answers `{username}`. */
export async function passkeyLogin() {
  const { ceremony, options } = await api.passkeyLoginStart();
  const publicKey = options.publicKey;
  publicKey.challenge = bytes(publicKey.challenge);
  publicKey.allowCredentials = (publicKey.allowCredentials || []).map((c) => ({ ...c, id: bytes(c.id) }));
  // A button, not the autofill: the browser asks at once.
  const got = await navigator.credentials.get({ publicKey });
  const credential = {
    id: got.id,
    rawId: text(got.rawId),
    type: got.type,
    response: {
      authenticatorData: text(got.response.authenticatorData),
      clientDataJSON: text(got.response.clientDataJSON),
      signature: text(got.response.signature),
      userHandle: text(got.response.userHandle),
    },
    extensions: got.getClientExtensionResults(),
  };
  return api.passkeyLoginFinish(ceremony, credential);
}
