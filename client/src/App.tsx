/**
 * Placeholder shell until the web client lands (issue 7): says what runs on this
 * server and where the API reference is.
 */
export function App() {
  return (
    <main style={{ fontFamily: 'system-ui, sans-serif', maxWidth: '40rem', margin: '3rem auto', padding: '0 1rem', lineHeight: 1.5 }}>
      <h1>Hitline</h1>
      <p>The game server is running. The web client is not built yet; games can be played through the API.</p>
      <p>
        <a href="/api/docs">API reference</a>
      </p>
    </main>
  );
}
