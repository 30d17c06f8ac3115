// A websocket's life line, shared by the pages that hold one. A server sends a heartbeat after every 2 s in
// which it sent nothing else, so a connection on which nothing at all arrived for 5 s is taken for dead and
// reconnected: a server that was stopped or whose machine froze closes nothing, so no close event would ever
// come (nginx, in front, also closes a connection its node left silent for 4 s). The page pings every 30 s (a
// server closes a socket whose client stays silent for two minutes). Waits before reconnecting grow from 0.3 s
// to 5 s, each cut by a random part, so that the pages of a server that died do not all come back to the
// others at the same moment.

const PING_EVERY_MS = 30000;
const SILENT_MS = 5000;
const CHECK_EVERY_MS = 500;

/** How long to wait before the `retries`-th attempt to reconnect (0, 1, …). */
export function reconnectDelay(retries) {
  const longest = Math.min(5000, 300 * 2 ** retries);
  return longest / 2 + (Math.random() * longest) / 2;
}

/**
 * Pings the open `socket` until `stop()`; calls `onDead` (once) when nothing arrived for too long. The caller
 * calls `heard()` on every message.
 */
export function keepAlive(socket, onDead) {
  let lastHeard = performance.now();
  let lastPing = lastHeard;
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - lastHeard > SILENT_MS) {
      clearInterval(timer);
      onDead();
    } else if (now - lastPing >= PING_EVERY_MS && socket.readyState === WebSocket.OPEN) {
      lastPing = now;
      socket.send(JSON.stringify({ type: "ping" }));
    }
  }, CHECK_EVERY_MS);
  return {
    heard: () => { lastHeard = performance.now(); },
    stop: () => clearInterval(timer),
  };
}

/** Closes a dead `socket` without waiting for a closing handshake that will never come: `onclose` runs now. */
export function abandon(socket) {
  const onclose = socket.onclose;
  socket.onclose = null;
  socket.onmessage = null;
  socket.close();
  if (onclose) onclose();
}
