// Follows a live game from a page that only shows it (the replay page): a watcher's websocket that reports
// every new state, reconnecting until the game is over.

import { GAME_SILENT_MS, abandon, keepAlive, reconnectGame } from "./liveness.js";

export function followLive(gameId, onState) {
  let retries = 0;
  const connect = () => {
    const scheme = location.protocol === "https:" ? "wss" : "ws";
    const socket = new WebSocket(`${scheme}://${location.host}/ws/${gameId}`);
    let over = false;
    let life = null;
    socket.onopen = () => {
      retries = 0;
      life = keepAlive(socket, () => abandon(socket), GAME_SILENT_MS);
    };
    socket.onmessage = (event) => {
      life.heard();
      const message = JSON.parse(event.data);
      if (message.type !== "state") return;
      over = Boolean(message.outcome);
      onState(message);
      if (over) socket.close();
    };
    socket.onclose = () => {
      if (life) life.stop();
      if (!over) reconnectGame(gameId, retries++, connect);
    };
  };
  connect();
}
