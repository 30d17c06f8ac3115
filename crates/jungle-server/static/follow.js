// Follows a live game from a page that only shows it (the replay page): a watcher's websocket that reports
// every new state, reconnecting until the game is over.

export function followLive(gameId, onState) {
  let retries = 0;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${gameId}`);
    let over = false;
    let pinger = null;
    socket.onopen = () => {
      retries = 0;
      // The server closes a connection that stays silent for two minutes.
      pinger = setInterval(() => socket.send(JSON.stringify({ type: "ping" })), 30000);
    };
    socket.onmessage = (event) => {
      const message = JSON.parse(event.data);
      if (message.type !== "state") return;
      over = Boolean(message.outcome);
      onState(message);
      if (over) socket.close();
    };
    socket.onclose = () => {
      clearInterval(pinger);
      if (!over) setTimeout(connect, Math.min(5000, 300 * 2 ** retries++));
    };
  };
  connect();
}
