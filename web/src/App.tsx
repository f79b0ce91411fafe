import { useRoute, href } from "./router";
import { session, saveSession, settings, useStore } from "./store";
import { Lobby } from "./components/Lobby";
import { CreateGame } from "./components/CreateGame";
import { SeatTokenForm } from "./components/SeatTokenForm";
import { refreshSession, SignIn, SignUp } from "./components/Account";
import { useEffect, useState } from "react";
import { SettingsPage } from "./components/SettingsPage";
import { GamePage } from "./components/GamePage";
import { BackgammonPage } from "./components/BackgammonPage";
import { ArchivePage, LeaderboardPage, PlayerPage, ReplayPage, TournamentPage } from "./components/Community";

/**
 * The page frame: a header with the main places, then the screen the hash names. On a small
 * screen the header is one line (the places behind a "Menu" button), so a game's board comes
 * first.
 */
export function App() {
  useStore();
  const route = useRoute();
  const who = session();
  const [menu, setMenu] = useState(false);
  useEffect(() => setMenu(false), [route.name, (route as { gameId?: string }).gameId]);
  useEffect(() => {
    if (!who) return;
    const wait = Math.max(5_000, who.expires_at - Date.now() - 120_000);
    const timer = setTimeout(() => void refreshSession(who), wait);
    return () => clearTimeout(timer);
  }, [who?.expires_at]); // eslint-disable-line react-hooks/exhaustive-deps
  return (
    <div className={`app palette-${settings().palette}`}>
      <header className="topbar">
        <a className="brand" href={href("/")}>Convoy</a>
        {who && <span className="who" data-testid="signed-in-as">{who.user.display_name}</span>}
        <button type="button" className="menu-toggle" aria-expanded={menu} aria-controls="main-nav"
          onClick={() => setMenu((m) => !m)}>Menu</button>
        <nav id="main-nav" aria-label="Main" className={menu ? "open" : ""}>
          <a href={href("/")}>Lobby</a>
          <a href={href("/new")}>New game</a>
          <a href={href("/archive")}>Archive</a>
          <a href={href("/leaderboard")}>Leaderboard</a>
          {who && <a href={href(`/players/${who.user.user_id}`)}>My record</a>}
          <a href={href("/seat")}>Seat token</a>
          <a href={href("/settings")}>Settings</a>
          {who ? (
            <button className="link" onClick={() => saveSession(null)}>Sign out</button>
          ) : (
            <a href={href("/signin")}>Sign in</a>
          )}
        </nav>
      </header>
      <main>
        {route.name === "lobby" && <Lobby />}
        {route.name === "new" && <CreateGame />}
        {route.name === "seat" && <SeatTokenForm />}
        {route.name === "signin" && <SignIn />}
        {route.name === "signup" && <SignUp />}
        {route.name === "settings" && <SettingsPage />}
        {route.name === "game" && <GamePage key={route.gameId} gameId={route.gameId} />}
        {route.name === "backgammon" && <BackgammonPage key={route.gameId} gameId={route.gameId} />}
        {route.name === "archive" && <ArchivePage />}
        {route.name === "leaderboard" && <LeaderboardPage />}
        {route.name === "replay" && <ReplayPage key={route.gameId} gameId={route.gameId} />}
        {route.name === "player" && <PlayerPage key={route.playerId} playerId={route.playerId} />}
        {route.name === "tournament" && <TournamentPage key={route.tournamentId} tournamentId={route.tournamentId} />}
      </main>
    </div>
  );
}
