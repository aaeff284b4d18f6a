/**
 * A pause between zod's own code and the schemas built with it: net/schemas.ts
 * imports this first, so loading it is two tasks rather than one long one
 * (budget P10). The build keeps zod, this module and the schemas in one chunk
 * (vite.config.ts), whose code after the top-level await runs in a new task,
 * as main-yield.ts does for the app's modules.
 */
import { z } from 'zod';

export { z };
await new Promise<void>((resolve) => setTimeout(resolve, 0));
