/**
 * Preloaded (`node --import`) into a real server process by process-guards.test.ts.
 * On SIGUSR2 it rejects a promise that nobody handles, then prints what the process
 * installed for uncaught errors and whether PM2's agent started.
 */
process.on('SIGUSR2', () => {
  void Promise.reject(new Error('a promise nobody awaited'));
  setTimeout(() => {
    const agent = (globalThis as Record<symbol, { initialized?: boolean } | undefined>)[Symbol.for('@pm2/io')];
    const report = {
      uncaughtExceptionListeners: process.listeners('uncaughtException').length,
      unhandledRejectionListeners: process.listeners('unhandledRejection').length,
      pm2AgentStarted: agent?.initialized === true,
    };
    console.log(`GUARDS ${JSON.stringify(report)}`);
  }, 200);
});
