// The call's own real-time link: a pusher-js connection on the session's private call channel
// (private-call.{session id}), which the server signs only for the session's kiosk and its current
// agent while the session is live (docs/realtime.md "The call channel"). WebRTC's offer, answer,
// ICE candidates, hang-up and media state travel as client events (the server relays them to the
// other side, never back to the sender); chat messages come from the server as ChatMessage.
// A connection of its own keeps the call out of each app's main link, and pusher-js subscribes
// again after a reconnect, which the call reads as "the other side may have lost us". When the
// session's members change (a transfer), the server drops every subscription to the channel and
// says `CallMembershipChanged` {agent_id}: the kiosk and the named agent ask to be signed again
// (the server's rule decides: docs/realtime.md "The call channel"); any other agent leaves. When
// the session ends it says so with reason "ended", and everyone leaves.
export const CALL_EVENTS = [
  "client-ready",
  "client-offer",
  "client-answer",
  "client-ice",
  "client-restart",
  "client-hangup",
  "client-media",
  "ChatMessage",
];
export const MEMBERSHIP_EVENT = "CallMembershipChanged";

/**
 * @typedef {{Pusher: PusherConstructor, key: string, options: object}} PusherSetup what the app's connect() gives
 * @typedef {(event: string, data: PusherEventData) => void} CallEventHandler
 */

export class CallSignal {
  /**
   * @param {object} options
   * @param {PusherSetup} options.setup
   * @param {string} options.channel
   * @param {CallEventHandler} options.onEvent
   * @param {() => void} options.onJoined each (re)subscription
   * @param {(error: unknown) => void} options.onRefused
   * @param {(change: {agent_id?: string | null}) => boolean} [options.stillMember] after CallMembershipChanged
   */
  constructor({ setup, channel, onEvent, onJoined, onRefused, stillMember = () => true }) {
    this.joined = false;
    this.name = channel;
    this.handlers = { onEvent, onJoined, onRefused, stillMember };
    this.pusher = new setup.Pusher(setup.key, setup.options);
    this.pusher.connection.bind("state_change", ({ current }) => {
      if (current !== "connected") this.joined = false;
    });
    this.channel = this.subscribe();
  }

  /** @returns {PusherChannel} */
  subscribe() {
    const { onEvent, onJoined, onRefused } = this.handlers;
    const channel = this.pusher.subscribe(this.name);
    channel.bind("pusher:subscription_succeeded", () => {
      this.joined = true;
      onJoined();
    });
    channel.bind("pusher:subscription_error", (error) => onRefused(error));
    channel.bind(MEMBERSHIP_EVENT, (change) => this.membershipChanged(change || {}));
    CALL_EVENTS.forEach((event) => channel.bind(event, (data) => onEvent(event, data)));
    return channel;
  }

  // The server no longer counts us on the channel: a fresh channel object, signed again, unless
  // the change says we are out (asking would only be refused). When the session ended, nobody is:
  // the app hears of the end on its own channel and stops the call; nothing to do here but leave.
  /** @param {{agent_id?: string | null, reason?: string}} change */
  membershipChanged(change) {
    this.joined = false;
    this.channel.unbind_all();
    this.pusher.unsubscribe(this.name);
    if (change.reason === "ended") return;
    if (this.handlers.stillMember(change)) this.channel = this.subscribe();
    else this.handlers.onRefused(new Error("the session has another agent now"));
  }

  /** @param {string} event a client-* event @param {object} data @returns {boolean} sent */
  send(event, data) {
    // Only on an open socket: a send on one that is closing is a console error, and lost anyway.
    return this.joined && this.pusher.connection.state === "connected" && this.channel.trigger(event, data);
  }

  close() {
    this.joined = false;
    this.channel.unbind_all();
    // pusher-js sends each frame a tick later (its transport defers socket.send): disconnecting
    // now would close the socket under the hang-up just triggered, whose send then logs
    // "WebSocket is already in CLOSING or CLOSED state". The timer runs after that deferred send.
    const pusher = this.pusher;
    window.setTimeout(() => pusher.disconnect(), 0);
  }
}
