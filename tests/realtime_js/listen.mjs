// A long-lived pusher-js client for fault tests: signs an agent in, subscribes to its private
// channel and prints one JSON line per thing it sees (connection states, the subscription, each
// event), until its stdin closes or it has run for spec.max_seconds.
// Usage: node listen.mjs '<json spec>'  (spec: base_url, ws_port, key, agent {id, email, password})
import Pusher from 'pusher-js';

const spec = JSON.parse(process.argv[2]);
const say = (line) => console.log(JSON.stringify({ t: Date.now() / 1000, ...line }));

function storeCookies(jar, response) {
  for (const line of response.headers.getSetCookie()) {
    const [pair] = line.split(';');
    const index = pair.indexOf('=');
    jar[pair.slice(0, index).trim()] = decodeURIComponent(pair.slice(index + 1).trim());
  }
  return jar;
}

const cookieHeader = (jar) => Object.entries(jar).map(([name, value]) => `${name}=${value}`).join('; ');

async function agentLogin() {
  const jar = storeCookies({}, await fetch(`${spec.base_url}/api/csrf-cookie`));
  const response = await fetch(`${spec.base_url}/api/login`, {
    method: 'POST',
    headers: {
      'Content-Type': 'application/json',
      Accept: 'application/json',
      'X-XSRF-TOKEN': jar['XSRF-TOKEN'],
      Cookie: cookieHeader(jar),
    },
    body: JSON.stringify({ email: spec.agent.email, password: spec.agent.password, remember: false }),
  });
  if (!response.ok) throw new Error(`login failed: ${response.status} ${await response.text()}`);
  return storeCookies(jar, response);
}

const jar = await agentLogin();
const pusher = new Pusher(spec.key, {
  cluster: 'mt1',
  wsHost: '127.0.0.1',
  wsPort: spec.ws_port,
  forceTLS: false,
  enabledTransports: ['ws'],
  disableStats: true,
  channelAuthorization: {
    customHandler: ({ socketId, channelName }, callback) => {
      fetch(`${spec.base_url}/broadcasting/auth`, {
        method: 'POST',
        headers: {
          'Content-Type': 'application/x-www-form-urlencoded',
          Accept: 'application/json',
          Cookie: cookieHeader(jar),
          'X-XSRF-TOKEN': jar['XSRF-TOKEN'],
        },
        body: new URLSearchParams({ socket_id: socketId, channel_name: channelName }),
      })
        .then(async (response) => {
          if (response.ok) callback(null, await response.json());
          else callback(new Error(`HTTP ${response.status}`), null);
        })
        .catch((error) => callback(error, null));
    },
  },
});
pusher.connection.bind('state_change', ({ current }) => say({ state: current, socket_id: pusher.connection.socket_id }));
const channel = pusher.subscribe(`private-agent.${spec.agent.id}`);
channel.bind('pusher:subscription_succeeded', () => say({ subscribed: channel.name }));
channel.bind('pusher:subscription_error', (error) => say({ subscription_error: String(error && error.status) }));
channel.bind_global((event, data) => {
  if (!event.startsWith('pusher:')) say({ event, data });
});

const stop = () => {
  pusher.disconnect();
  process.exit(0);
};
process.stdin.on('end', stop);
process.stdin.resume();
setTimeout(stop, (spec.max_seconds || 120) * 1000);
