import type { Config } from '../config.ts';
import type { EventBus } from '../events/bus.ts';
import type { Logger } from '../logger.ts';
import type { DisputeReports, HiddenClips, YearEvidence } from './host-ports.ts';
import type { CatalogueService } from '../services/catalogue.ts';
import type { GameStore } from '../services/game-store.ts';
import type { UsersService } from '../services/users.ts';

/**
 * What game rooms need from the rest of the server. Colyseus constructs rooms
 * itself, so the process entry hands these over once before any room exists.
 */
export interface RoomServices {
  config: Config;
  log: Logger;
  /** Where game and lobby events are published (the SSE streams subscribe there). */
  bus: EventBus;
  catalogue: CatalogueService;
  users: UsersService;
  /** Where games persist every accepted action (restart survival). */
  games: GameStore;
  /** The hidden clips of audio games, shared with the audio routes (made on first use). */
  clips: () => HiddenClips;
  /** Year evidence for disputes (docs/disputes.md#evidence). */
  evidence: YearEvidence;
  /** The review queue, where decided disputes are filed. */
  reports: DisputeReports;
}

let current: RoomServices | undefined;

export function setRoomServices(services: RoomServices): void {
  current = services;
}

export function roomServices(): RoomServices {
  if (!current) throw new Error('room services used before the server set them up');
  return current;
}
