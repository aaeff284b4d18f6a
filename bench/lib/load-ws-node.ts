/**
 * Imported first by the load generator: makes @colyseus/sdk use the `ws` package
 * (its own Node.js transport) instead of Node's built-in WebSocket. On a
 * two-core machine shared with the server under test, every bit of CPU the
 * generator saves is CPU the measured server does not have to fight for.
 */
Reflect.deleteProperty(globalThis, 'WebSocket');
