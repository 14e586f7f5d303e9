// The one store of an app: plain state (the server's answers and what the person on the screen
// chose), changed only by the app's actions through `set`, read by subscribers that render it.
// No DOM element holds state: a subscriber draws the state and is called again when it changes.

/**
 * @template S
 * @typedef {(state: Readonly<S>, previous: Readonly<S>) => void} Listener
 */

/**
 * @template S
 * @typedef {object} Store
 * @property {() => Readonly<S>} get the state now
 * @property {(change: Partial<S> | ((state: Readonly<S>) => Partial<S>)) => void} set merge a change into the state
 * @property {(listener: Listener<S>) => () => void} subscribe called after every change; returns unsubscribe
 */

/**
 * A store holding `initial`; `set` makes a new state object (shallow merge) and tells each
 * subscriber once, in order. A change made by a subscriber is applied after the current round,
 * so every subscriber sees every state in order.
 * @template {object} S
 * @param {S} initial
 * @returns {Store<S>}
 */
export function createStore(initial) {
  let state = Object.freeze(Object.assign({}, initial));
  /** @type {Set<Listener<S>>} */
  const listeners = new Set();
  /** @type {Array<Partial<S> | ((state: Readonly<S>) => Partial<S>)>} */
  const pending = [];
  let notifying = false;

  /** @param {Partial<S> | ((state: Readonly<S>) => Partial<S>)} change */
  function apply(change) {
    const patch = typeof change === "function" ? change(state) : change;
    const same = (/** @type {keyof S} */ key) => Object.is(state[key], patch[key]);
    if (!patch || /** @type {Array<keyof S>} */ (Object.keys(patch)).every(same)) return;
    const previous = state;
    state = Object.freeze({ ...state, ...patch });
    for (const listener of [...listeners]) listener(state, previous);
  }

  return {
    get: () => state,
    set(change) {
      pending.push(change);
      if (notifying) return;
      notifying = true;
      try {
        while (pending.length) {
          const [next] = pending.splice(0, 1);
          apply(next);
        }
      } finally {
        notifying = false;
        pending.length = 0;
      }
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}

/**
 * Calls `render(slice, state)` now and again whenever `pick(state)` changes (Object.is): a UI
 * module draws one part of the screen from the part of the state it shows.
 * @template S, T
 * @param {Store<S>} store
 * @param {(state: Readonly<S>) => T} pick
 * @param {(slice: T, state: Readonly<S>) => void} render
 * @returns {() => void} unsubscribe
 */
export function watch(store, pick, render) {
  let last = pick(store.get());
  render(last, store.get());
  return store.subscribe((state) => {
    const next = pick(state);
    if (Object.is(next, last)) return;
    last = next;
    render(next, state);
  });
}
