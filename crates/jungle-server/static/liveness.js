// A websocket's life line, shared by the pages that hold one. A server sends a heartbeat on a game's socket
// after every 4 s in which it sent nothing else (on the analysis board's, after 2 s), so a connection on which
// nothing at all arrived for 6 s (5 s) is taken for dead and reconnected: a server that was stopped or whose
// machine froze closes nothing, so no close event would ever come (nginx, in front, also closes a connection
// its node left silent for 6 s, or 4 s). The page pings every 30 s (a server closes a socket whose client
// stays silent for two minutes). Waits before reconnecting grow from 0.3 s to 5 s, each cut by a random part,
// so that the pages of a server that died do not all come back to the others at the same moment.

const PING_EVERY_MS = 30000;
const CHECK_EVERY_MS = 500;
/** How long a game's socket may stay silent before it is taken for dead. */
export const GAME_SILENT_MS = 6000;
/** The same for the analysis board's socket. */
export const ANALYSIS_SILENT_MS = 5000;

/** How long to wait before the `retries`-th attempt to reconnect (0, 1, …). */
export function reconnectDelay(retries) {
  const longest = Math.min(5000, 300 * 2 ** retries);
  return longest / 2 + (Math.random() * longest) / 2;
}

/**
 * Pings the open `socket` until `stop()`; calls `onDead` (once) when nothing arrived for `silentMs`. The caller
 * calls `heard()` on every message.
 */
export function keepAlive(socket, onDead, silentMs) {
  let lastHeard = performance.now();
  let lastPing = lastHeard;
  const timer = setInterval(() => {
    const now = performance.now();
    if (now - lastHeard > silentMs) {
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

/**
 * Reconnects a game's socket for the `retries`-th time (0, 1, …): after `reconnectDelay`, asks the front
 * door whether game `gameId`'s node answers (`/api/alive/ID`, sent where the game's socket goes), then calls
 * `connect`. A node that does not answer the question within a second is passed over, and so is the socket
 * `connect` opens, which would otherwise wait for a hung node's upgrade as long as nginx waits for a silent
 * socket (deploy/nginx). Whatever the answer, or none within 3 s, `connect` runs.
 */
export function reconnectGame(gameId, retries, connect) {
  setTimeout(() => {
    fetch(`/api/alive/${gameId}`, { cache: "no-store", signal: AbortSignal.timeout(3000) })
      .catch(() => {})
      .finally(connect);
  }, reconnectDelay(retries));
}
