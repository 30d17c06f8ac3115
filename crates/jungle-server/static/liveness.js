// A websocket's life line, shared by the pages that hold one. The page pings every 30 s (a server closes a
// socket that stays silent for two minutes, and answers each ping with a pong), and takes the connection for
// dead when nothing at all has arrived for over a minute: a server whose machine vanished closes nothing, so
// no close event would ever come. Waits before reconnecting grow from 0.3 s to 5 s, each cut by a random part,
// so that the pages of a server that died do not all come back to the others at the same moment.

const PING_EVERY_MS = 30000;
const SILENT_MS = 75000;

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
  const timer = setInterval(() => {
    if (performance.now() - lastHeard > SILENT_MS) {
      clearInterval(timer);
      onDead();
    } else if (socket.readyState === WebSocket.OPEN) {
      socket.send(JSON.stringify({ type: "ping" }));
    }
  }, PING_EVERY_MS);
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
