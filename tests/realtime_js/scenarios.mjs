// Real clients against our server: unmodified pusher-js and laravel-echo from npm (versions pinned
// in package-lock.json), configured the way docs/realtime.md tells kiosk and dashboard developers.
// Usage: node scenarios.mjs <scenario> '<json spec>'; prints one JSON result line, exits 1 on failure.
import crypto from 'node:crypto';
import Pusher from 'pusher-js';
import Echo from 'laravel-echo';

const [scenario, rawSpec] = process.argv.slice(2);
const spec = JSON.parse(rawSpec);

function connectionOptions() {
  return {
    broadcaster: 'pusher',
    Pusher,
    key: spec.key,
    cluster: 'mt1', // required by pusher-js, unused once wsHost is set
    wsHost: '127.0.0.1',
    wsPort: spec.ws_port,
    forceTLS: false,
    enabledTransports: ['ws'],
    disableStats: true,
  };
}

// ---------------------------------------------------------------- cookies (Node has no browser jar)

function storeCookies(jar, response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const index = pair.indexOf('=');
    jar[pair.slice(0, index).trim()] = decodeURIComponent(pair.slice(index + 1).trim());
  }
  return jar;
}

function cookieHeader(jar) {
  return Object.entries(jar).map(([name, value]) => `${name}=${value}`).join('; ');
}

async function agentLogin(email, password) {
  const jar = storeCookies({}, await fetch(`${spec.base_url}/api/csrf-cookie`));
  const response = await fetch(`${spec.base_url}/api/login`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-XSRF-TOKEN': jar['XSRF-TOKEN'],
      Cookie: cookieHeader(jar),
    },
    body: JSON.stringify({ email, password, remember: false }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return storeCookies(jar, response);
}

// The Laravel-documented `authorizer` shape (as SPAs use it with axios), sending the cookie
// ourselves because Node's XMLHttpRequest, which pusher-js uses by default, refuses Cookie headers.
function cookieAuthorizer(headers) {
  return (channel) => ({
    authorize: (socketId, callback) => {
      fetch(`${spec.base_url}/broadcasting/auth`, {
        method: 'POST',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded', Accept: 'application/json', ...headers },
        body: new URLSearchParams({ socket_id: socketId, channel_name: channel.name }),
      })
        .then(async (response) => {
          if (response.ok) callback(null, await response.json());
          else callback(new Error(`HTTP ${response.status}`), null);
        })
        .catch((error) => callback(error, null));
    },
  });
}

function kioskHeaders() {
  return { 'X-Device-Id': spec.kiosk.device_id, 'X-Device-Token': spec.kiosk.token };
}

// The kiosk uses pusher-js's own authorizer: authEndpoint plus the device headers.
function kioskEcho() {
  return new Echo({
    ...connectionOptions(),
    authEndpoint: `${spec.base_url}/api/public/broadcasting/auth`,
    auth: { headers: kioskHeaders() },
  });
}

async function startSession() {
  const response = await fetch(`${spec.base_url}/api/public/sessions/start`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', Accept: 'application/json', ...kioskHeaders() },
    body: JSON.stringify({ device_id: spec.kiosk.device_id, customer_locale: 'en-US' }),
  });
  if (response.status !== 201) throw new Error(`start failed: ${response.status} ${await response.text()}`);
  return response.json();
}


// ---------------------------------------------------------------- user sign-in (pusher.signin())

// What an integrator's user-authentication endpoint answers (the server libraries'
// authenticate_user), done here with the app secret the test hands over.
function signedInPusher(userId, secret = spec.secret) {
  const pusher = new Pusher(spec.key, {
    ...connectionOptions(),
    userAuthentication: {
      customHandler: ({ socketId }, callback) => {
        const userData = JSON.stringify({ id: userId, user_info: { name: userId } });
        const signature = crypto.createHmac('sha256', secret).update(`${socketId}::user::${userData}`).digest('hex');
        callback(null, { auth: `${spec.key}:${signature}`, user_data: userData });
      },
    },
  });
  pusher.signin();
  return pusher;
}

async function waitFor(predicate, what) {
  const deadline = Date.now() + 10000;
  while (!predicate()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

// A Pusher HTTP API call signed as the server libraries sign it.
async function httpApi(path, body) {
  const text = JSON.stringify(body);
  const params = {
    auth_key: spec.key,
    auth_timestamp: String(Math.floor(Date.now() / 1000)),
    auth_version: '1.0',
    body_md5: crypto.createHash('md5').update(text).digest('hex'),
  };
  const query = Object.keys(params).sort().map((name) => `${name}=${params[name]}`).join('&');
  const signature = crypto.createHmac('sha256', spec.secret).update(`POST\n${path}\n${query}`).digest('hex');
  const response = await fetch(`${spec.base_url}${path}?${query}&auth_signature=${signature}`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: text,
  });
  if (!response.ok) throw new Error(`${path}: ${response.status} ${await response.text()}`);
  return response.json();
}

// ---------------------------------------------------------------- scenarios

const scenarios = {
  // An agent dashboard hears of a new session; a kiosk hears its own status; another agent's
  // channel is refused by the auth endpoint.
  async 'agent-incoming'() {
    const jar = await agentLogin(spec.agent.email, spec.agent.password);
    const agentEcho = new Echo({
      ...connectionOptions(),
      authorizer: cookieAuthorizer({ Cookie: cookieHeader(jar), 'X-XSRF-TOKEN': jar['XSRF-TOKEN'] }),
    });
    const kiosk = kioskEcho();
    const refused = new Promise((resolve) => agentEcho.private(`agent.${spec.other_agent_id}`).error(resolve));
    let kioskHeard;
    const kioskStatus = new Promise((resolve) => (kioskHeard = resolve));
    const kioskReady = new Promise((resolve) => {
      kiosk.private(`kiosk.${spec.kiosk.id}`).subscribed(resolve).listen('.SessionStatusChanged', kioskHeard);
    });
    let started = null;
    const incoming = new Promise((resolve) => {
      agentEcho
        .private(`agent.${spec.agent.id}`)
        .subscribed(async () => {
          await kioskReady;
          started = startSession();
        })
        .listen('.SessionIncoming', resolve);
    });
    const result = {
      incoming: await incoming,
      kiosk_status: await kioskStatus,
      refused: await refused,
      socket_id: agentEcho.socketId(),
    };
    result.started = await started;
    agentEcho.disconnect();
    kiosk.disconnect();
    return result;
  },

  // An owner dashboard sees kiosks join and leave its presence channel.
  async presence() {
    const owner = new Echo({
      ...connectionOptions(),
      authorizer: cookieAuthorizer({ Cookie: spec.owner.cookie, 'X-CSRFToken': spec.owner.csrf_token }),
    });
    const seen = { here: null, joining: null, leaving: null };
    let kiosk = null;
    await new Promise((resolve) => {
      owner
        .join(`owner.${spec.owner_id}`)
        .here((members) => {
          seen.here = members;
          kiosk = kioskEcho();
          kiosk.join(`owner.${spec.owner_id}`);
        })
        .joining((member) => {
          seen.joining = member;
          kiosk.disconnect();
        })
        .leaving((member) => {
          seen.leaving = member;
          resolve();
        });
    });
    owner.disconnect();
    return seen;
  },

  // pusher.signin(): events sent to a user reach all of its connections and nobody else's
  // (pusher.user.bind), a forged signin is refused with 4009, terminate_connections disconnects.
  async 'user-signin'() {
    const [alice, bob] = spec.users;
    const clients = { alice1: signedInPusher(alice), alice2: signedInPusher(alice), bob: signedInPusher(bob) };
    const heard = {};
    for (const [name, pusher] of Object.entries(clients)) {
      heard[name] = [];
      pusher.user.bind('Note', (data) => heard[name].push(data));
      await waitFor(() => pusher.user.serverToUserChannel?.subscribed, `${name} signed in`);
    }
    const signedInAs = Object.fromEntries(Object.entries(clients).map(([name, p]) => [name, p.user.user_data]));
    await httpApi(`/apps/${spec.app_id}/users/${alice}/events`, { name: 'Note', data: JSON.stringify({ to: 'alice' }) });
    await httpApi(`/apps/${spec.app_id}/users/${bob}/events`, { name: 'Note', data: JSON.stringify({ to: 'bob' }) });
    await waitFor(() => heard.alice1.length && heard.alice2.length && heard.bob.length, 'the notes');

    const forger = signedInPusher(alice, 'not-the-secret');
    const forgedError = await new Promise((resolve) => forger.connection.bind('error', resolve));
    await waitFor(() => forger.connection.state !== 'connected', 'the forger to be disconnected');

    await httpApi(`/apps/${spec.app_id}/users/${alice}/terminate_connections`, {});
    await waitFor(
      () => clients.alice1.connection.state === 'disconnected' && clients.alice2.connection.state === 'disconnected',
      "alice's connections to close",
    );
    await httpApi(`/apps/${spec.app_id}/users/${bob}/events`, { name: 'Note', data: JSON.stringify({ to: 'bob again' }) });
    await waitFor(() => heard.bob.length === 2, "bob's second note");
    const result = {
      signed_in_as: signedInAs,
      heard,
      forged_error: forgedError.data,
      forger_state: forger.connection.state,
      states: Object.fromEntries(Object.entries(clients).map(([name, p]) => [name, p.connection.state])),
    };
    for (const pusher of [...Object.values(clients), forger]) pusher.disconnect();
    return result;
  },

  // Presence members signed with a numeric user_id (an app whose auth signs numbers, as Laravel's
  // does by default): pusher-js's member ids keep that type, so `member.id === 2` holds.
  async 'typed-presence'() {
    const channelName = 'presence-typed.9';
    const signedAs = (userId) => ({
      customHandler: ({ socketId }, callback) => {
        const channelData = JSON.stringify({ user_id: userId, user_info: { name: `member ${userId}` } });
        const signature = crypto.createHmac('sha256', spec.secret).update(`${socketId}:${channelName}:${channelData}`);
        callback(null, { auth: `${spec.key}:${signature.digest('hex')}`, channel_data: channelData });
      },
    });
    const open = (userId) =>
      new Pusher(spec.key, { ...connectionOptions(), channelAuthorization: signedAs(userId) });
    const seen = {};
    const first = open(2);
    const second = open(3);
    await new Promise((resolve) => {
      const channel = first.subscribe(channelName);
      channel.bind('pusher:subscription_succeeded', (members) => {
        seen.me = members.me.id;
        second.subscribe(channelName).bind('pusher:subscription_succeeded', (theirs) => {
          seen.other_knows_first = theirs.get(2) !== null;
          second.disconnect();
        });
      });
      channel.bind('pusher:member_added', (member) => {
        seen.added = member.id;
      });
      channel.bind('pusher:member_removed', (member) => {
        seen.removed = member.id;
        resolve();
      });
    });
    first.disconnect();
    return { ...seen, me_is_2: seen.me === 2, added_is_3: seen.added === 3, removed_is_3: seen.removed === 3 };
  },

  // A subscription with a forged signature is refused by the server, and Echo's .error() fires.
  async forged() {
    const forger = new Echo({
      ...connectionOptions(),
      authorizer: () => ({
        authorize: (socketId, callback) => callback(null, { auth: `${spec.key}:${'0'.repeat(64)}` }),
      }),
    });
    const error = await new Promise((resolve, reject) => {
      forger
        .private(`agent.${spec.agent_id}`)
        .error(resolve)
        .subscribed(() => reject(new Error('a forged signature was accepted')));
    });
    forger.disconnect();
    return { error };
  },
};

const timer = setTimeout(() => {
  console.error(`scenario ${scenario} timed out`);
  process.exit(1);
}, 20000);

scenarios[scenario]()
  .then((result) => {
    clearTimeout(timer);
    console.log(JSON.stringify(result));
    process.exit(0);
  })
  .catch((error) => {
    console.error(error && error.stack ? error.stack : error);
    process.exit(1);
  });
