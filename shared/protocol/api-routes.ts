import { AUDIO_ADMIN_ROUTES, GAME_AUDIO_ROUTES } from './routes-audio.ts';
import { CATALOGUE_ROUTES } from './routes-catalogue.ts';
import { EVENT_ROUTES } from './routes-events.ts';
import { GAME_ROUTES } from './routes-games.ts';
import { USER_ROUTES } from './routes-users.ts';

/**
 * Every operation of the route table, by operationId (the areas' ids do not
 * collide: the OpenAPI test checks they are unique). The client imports its type
 * only (client/src/net/api.ts `api`).
 */
export const API_ROUTES = { ...USER_ROUTES, ...GAME_ROUTES, ...GAME_AUDIO_ROUTES, ...CATALOGUE_ROUTES, ...AUDIO_ADMIN_ROUTES, ...EVENT_ROUTES } as const;

export type ApiRoute = (typeof API_ROUTES)[keyof typeof API_ROUTES];
