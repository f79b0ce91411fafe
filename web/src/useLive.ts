import { useEffect, useRef, useState } from "react";
import { follow, type LiveFrame, type LiveState } from "./live";

/**
 * The game page's live updates: calls onFrame for each frame of the game's socket and says
 * where the socket is: "connecting", "open" (the page polls nothing and its view comes from the
 * subscribe answer) or "down" (the page loads its view itself and polls: docs/web.md).
 */
export function useLive(gameId: string, token: string | null, onFrame: (frame: LiveFrame) => void): LiveState {
  const [state, setState] = useState<LiveState>("connecting");
  const latest = useRef(onFrame);
  latest.current = onFrame;
  useEffect(() => {
    setState("connecting");
    return follow(gameId, token, { onFrame: (f) => latest.current(f), onState: setState });
  }, [gameId, token]);
  return state;
}
