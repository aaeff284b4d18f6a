/**
 * The Hitline wire contract: zod schemas (and their inferred types) for REST
 * bodies and replies, SSE events and room messages, shared by server and client.
 * Runs in Node and the browser; depends only on zod and shared/rules.
 */
export * from './common.ts';
export * from './game.ts';
export * from './users.ts';
export * from './catalogue.ts';
export * from './events.ts';
export * from './room.ts';
export * from './reports.ts';
