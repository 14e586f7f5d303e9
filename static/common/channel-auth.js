// pusher-js's channel authorisation, written once for every app: each private or presence
// subscription is signed by POSTing socket_id and channel_name (form-encoded, like pusher-js's own
// ajax call) to the app's auth endpoint with the app's credentials, read afresh on each signing (a
// CSRF cookie or a device token may change while the page lives). Unit-tested
// (tests/js/channel-auth.test.js).
import { asFailure, logFailure } from "./report.js";

/**
 * @typedef {{socketId: string, channelName: string}} AuthParams
 * @typedef {(error: Error | null, body: {auth: string, channel_data?: string} | null) => void} AuthCallback
 * @typedef {{customHandler: (params: AuthParams, callback: AuthCallback) => Promise<void>}} ChannelAuthorization
 */

/**
 * The `channelAuthorization` option of pusher-js.
 * @param {object} options
 * @param {string} options.endpoint
 * @param {() => Record<string, string>} options.headers the credentials' headers, read at each signing
 * @param {RequestCredentials} options.credentials whether the session cookie goes along
 * @param {string} [options.what] what a failure is logged as
 * @returns {ChannelAuthorization}
 */
export function channelAuthorization({ endpoint, headers, credentials, what = "signing a real-time subscription" }) {
  return {
    customHandler: async ({ socketId, channelName }, callback) => {
      try {
        const response = await fetch(endpoint, {
          method: "POST",
          credentials,
          headers: { ...headers(), "Content-Type": "application/x-www-form-urlencoded", Accept: "application/json" },
          body: new URLSearchParams({ socket_id: socketId, channel_name: channelName }),
        });
        if (!response.ok) throw new Error(`channel authorization answered ${response.status}`);
        callback(null, await response.json());
      } catch (error) {
        logFailure(what, error);
        callback(asFailure(error), null);
      }
    },
  };
}

/**
 * A signed-in browser (agent dashboard, owner panel, a screen without a token): the session
 * cookie, plus the CSRF header its endpoint checks.
 * @param {string} endpoint @param {() => Record<string, string>} csrfHeaders @param {string} [what]
 */
export const sessionAuthorization = (endpoint, csrfHeaders, what) =>
  channelAuthorization({ endpoint, headers: csrfHeaders, credentials: "same-origin", what });

/**
 * A device (the kiosk; a wall screen with its token): its own headers and never a cookie.
 * @param {string} endpoint @param {() => Record<string, string>} deviceHeaders @param {string} [what]
 */
export const deviceAuthorization = (endpoint, deviceHeaders, what) =>
  channelAuthorization({ endpoint, headers: deviceHeaders, credentials: "omit", what });
