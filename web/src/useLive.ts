import { useEffect, useRef, useState } from "react";
import { follow, type LiveFrame } from "./live";

/**
 * The game page's live updates: calls onFrame for each frame of the game's socket and says
 * whether the socket is up (the page polls only while it is not: docs/web.md).
 */
export function useLive(gameId: string, token: string | null, onFrame: (frame: LiveFrame) => void): boolean {
  const [open, setOpen] = useState(false);
  const latest = useRef(onFrame);
  latest.current = onFrame;
  useEffect(() => follow(gameId, token, { onFrame: (f) => latest.current(f), onState: setOpen }), [gameId, token]);
  return open;
}
